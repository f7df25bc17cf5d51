/**
 * Pool side: the farm's two Piscina pools of actor workers (same worker entry, different setup).
 *
 * - `fetch` threads (GLEANER_WORKERS, all started by the first plain task: pool-threads.ts
 *   `OnDemand`) run the plain-HTTP tasks and never start a browser: a farm that serves only
 *   static pages runs no Chromium, one that only renders runs no fetch thread.
 * - `render` threads (GLEANER_BROWSER_THREADS, default 1) run every `run_js` task. They start
 *   on the first such task and each launches its own Chromium (or connects to the shared
 *   browser server); the node's page budget (workers × GLEANER_CONTEXTS) is divided between
 *   them. Their browser closes after `browserIdleMs` without a rendering task, and the thread
 *   after twice that, so an idle farm holds neither a Chromium nor Playwright's code.
 *
 * Why one render thread and not a browser per fetch worker: on the farm bench at 8 pages in
 * flight, two threads each with Playwright and a Chromium held ~330 MB more (PSS) than a raw
 * Playwright loop; one thread with one Chromium is within ~90 MB of it at the same pages/s
 * (bench/README.md). Playwright's client and its in-process server are ~70 MB per isolate, and
 * renderers of one browser share more pages than those of two.
 *
 * A thread busy in synchronous work past a task's deadline is terminated and replaced
 * (in-flight.ts); while a thread is stuck, the balancer gives it no new tasks (balance.ts), and
 * while every fetch thread is stuck, plain tasks go to `spare` threads (FarmLimits.spareThreads,
 * started then and ended after `spareIdleMs` idle), so a node busy with huge pages still
 * answers the next small one.
 */
import { Piscina } from 'piscina';
import type { ResourceLimits } from 'node:worker_threads';
import { stallAwareBalancer } from './balance.js';
import type { TaskMessage, TaskReply, WorkerSetup } from './messages.js';

/** `spare`: fetch threads started only while every fetch thread is stalled (pool.ts). */
export type ThreadKind = 'fetch' | 'render' | 'spare';

export interface ThreadOptions {
  kind: ThreadKind;
  threads: number;
  tasksPerThread: number;
  setup: WorkerSetup;
  /** Render and spare threads: how long a thread without tasks lives (a render thread's browser closed before, at `browserIdleMs`). */
  idleTimeoutMs: number;
  /** A thread ended (idle, crashed, terminated, pool closed): its thread id. */
  onDestroy: (threadId: number) => void;
  onError: (err: unknown) => void;
}

/**
 * Heap limit of a worker thread. Without one, a thread that runs out of heap takes the whole
 * process down (V8's fatal OOM); with one, only the thread ends (ERR_WORKER_OUT_OF_MEMORY): its
 * tasks fail or are retried once (pool.ts) and Piscina starts another thread. Measured with
 * Markdown and two built-in parsers (mkt1 and commerce product) on one 20 MiB page, the
 * per-response cap: a real product page padded to 20 MiB runs in a 512 MB old generation
 * (~170 MB used); 1.9 M nested divs in 20 MiB, the most DOM per byte, needs 640 MB. A task
 * holds at most GLEANER_TASK_MAX_BYTES (128 MiB) of pages plus their outputs; 2 GiB is the
 * transient DOM of the largest page plus several full tasks at once.
 *
 * Just under 2048 MB on purpose: from that size up, V8 (Node 20's V8 11.3, 64-bit) lets an
 * isolate's heap grow to 4× what survives a full GC before the next one, below it at most 2×
 * (its heap controller's `MaxGrowingFactor`), and under steady load the grown heap stays
 * committed. At 3072 a render thread fetching plain pages through Chromium kept ~350 MB of heap
 * for ~90 MB live; at 2047, ~150 MB (bench/README "The farm's memory on the plain path through
 * Chromium"; worker-heap.test.ts holds V8 to the threshold).
 */
export const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 2047 };

/**
 * A thread's limits with its young generation capped (`GLEANER_WORKER_YOUNG_MB`; 0 = V8's
 * default). V8 grows each isolate's young generation to 48 MB (two 16 MB semi-spaces and the
 * new large-object space) under allocation churn and keeps it resident: on a plain-only node
 * that was ~25 MB of PSS per thread of short-lived garbage, for no measured gain in pages/s
 * (bench/README "Plain-only node memory"). Smaller than a few MB, scavenges run so often that
 * short-lived objects get promoted to the old generation instead.
 */
export function workerLimits(youngMb: number): ResourceLimits {
  return youngMb > 0 ? { ...WORKER_LIMITS, maxYoungGenerationSizeMb: youngMb } : WORKER_LIMITS;
}

export function createThreads(o: ThreadOptions): Piscina<TaskMessage, TaskReply> {
  const fromSource = import.meta.url.endsWith('.ts');
  const tasks = Math.max(1, o.tasksPerThread);
  const fetch = o.kind === 'fetch';
  const pool = new Piscina<TaskMessage, TaskReply>({
    filename: new URL(fromSource ? './worker/main.ts' : './worker/main.js', import.meta.url).href,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
    // Fetch threads are up from the start; render and spare threads start with their first task.
    minThreads: fetch ? o.threads : 0,
    maxThreads: o.threads,
    concurrentTasksPerWorker: tasks,
    loadBalancer: stallAwareBalancer(tasks, o.setup.stats),
    resourceLimits: workerLimits(o.setup.config.workerYoungMb),
    // Workers keep timers and sockets alive between tasks (context idle close, guard proxy),
    // so they must not park in Atomics.wait while idle.
    atomics: 'disabled',
    // Piscina's run/wait-time histograms are not read by the farm; recording costs per task.
    recordTiming: false,
    idleTimeout: fetch ? Number.MAX_SAFE_INTEGER : o.idleTimeoutMs,
    workerData: o.setup,
  });
  // Piscina passes its worker handle, whose `id` is the thread id (it has no `threadId`) — but
  // Node reports -1 once the thread has exited, which is how a thread that crashed or was
  // terminated by the pool (in-flight.ts) is destroyed. Then the gone ids are the live ones
  // Piscina no longer lists.
  const live = new Set<number>();
  pool.on('workerCreate', (worker: { id: number }) => live.add(worker.id));
  pool.on('workerDestroy', (worker: { id: number }) => {
    const gone = worker.id >= 0 ? [worker.id] : [...live].filter((id) => !pool.threads.some((t) => t.threadId === id));
    for (const id of gone) {
      live.delete(id);
      o.onDestroy(id);
    }
  });
  pool.on('error', o.onError);
  return pool;
}
