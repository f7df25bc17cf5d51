/**
 * Pool side: which worker thread a task goes to (Piscina's `loadBalancer`).
 *
 * Piscina's own balancer (least busy first) sends tasks to a thread that is stuck in
 * synchronous work (a 10 MB page's parse), where they wait for the whole of that work. (Farm
 * tasks carry no Piscina `signal`: Piscina counts a thread running an abortable task as full,
 * which would cut each thread to one task at a time; in-flight.ts terminates stuck threads
 * itself.) This one: least busy first among the threads that are not stalled (stats.ts:
 * they hold tasks and their event loop has not beaten for STALL_MS), up to `maxUsage` tasks a
 * thread. When every thread is stalled or full it answers null and Piscina queues the task;
 * while every fetch thread is stalled, the pool sends plain tasks to its spare threads instead
 * (pool.ts `plainThreads`), so a node busy with huge pages still serves the next small one.
 */
import type { Piscina } from 'piscina';
import { stalledThreads } from './stats.js';

/** Piscina's balancer type (not exported by name from the package root). */
type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

export function stallAwareBalancer(maxUsage: number, stats: SharedArrayBuffer): Balancer {
  return (_task, workers) => {
    let stalled: Set<number> | undefined;
    let best: (typeof workers)[number] | null = null;
    let bestUsage = maxUsage;
    for (const worker of workers) {
      const usage = worker.currentUsage;
      // A thread that has answered all its tasks is not stuck in one.
      if (usage === 0) return worker;
      if (usage >= bestUsage) continue;
      // Read once per call, and only when a busy thread is a candidate.
      stalled ??= stalledThreads(stats);
      if (stalled.has(worker.id)) continue;
      best = worker;
      bestUsage = usage;
    }
    return best;
  };
}
