/**
 * Pool side: the farm's two Piscina pools of actor workers (same worker entry, different setup).
 *
 * - `fetch` threads (GLEANER_WORKERS, started with the farm) run the plain-HTTP tasks and
 *   never start a browser: a farm that serves only static pages runs no Chromium.
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
 */
import { Piscina } from 'piscina';
import type { Worker } from 'node:worker_threads';
import type { TaskMessage, TaskReply, WorkerSetup } from './messages.js';

export type ThreadKind = 'fetch' | 'render';

export interface ThreadOptions {
  kind: ThreadKind;
  threads: number;
  tasksPerThread: number;
  setup: WorkerSetup;
  /** Render threads: how long a thread without tasks lives (its browser closed before, at `browserIdleMs`). */
  idleTimeoutMs: number;
  onDestroy: (worker: Worker) => void;
  onError: (err: unknown) => void;
}

export function createThreads(o: ThreadOptions): Piscina<TaskMessage, TaskReply> {
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina<TaskMessage, TaskReply>({
    filename: new URL(fromSource ? './worker/main.ts' : './worker/main.js', import.meta.url).href,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
    // Fetch threads are up from the start; render threads start with the first run_js task.
    minThreads: o.kind === 'fetch' ? o.threads : 0,
    maxThreads: o.threads,
    concurrentTasksPerWorker: Math.max(1, o.tasksPerThread),
    // Workers keep timers and sockets alive between tasks (context idle close, guard proxy),
    // so they must not park in Atomics.wait while idle.
    atomics: 'disabled',
    // Piscina's run/wait-time histograms are not read by the farm; recording costs per task.
    recordTiming: false,
    idleTimeout: o.kind === 'fetch' ? Number.MAX_SAFE_INTEGER : o.idleTimeoutMs,
    workerData: o.setup,
  });
  pool.on('workerDestroy', o.onDestroy);
  pool.on('error', o.onError);
  return pool;
}
