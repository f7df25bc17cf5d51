/**
 * Live counters that workers publish and the pool reads synchronously: one Int32 slot row per
 * worker thread in a SharedArrayBuffer. Only the owning thread writes its row (Atomics.store),
 * so there is no lost update; the pool side zeroes a row when its thread is gone.
 *
 * Each thread also beats (F_BEAT, from a timer of its event loop): a thread with tasks whose
 * beat is old is stuck in synchronous work (a huge page's parse, a runaway walk), and the pool
 * sends it no more tasks (balance.ts) until it beats again or is terminated (in-flight.ts).
 */
export const SLOT_FIELDS = 7;
export const F_THREAD = 0;
export const F_CONTEXTS = 1;
export const F_PAGES = 2;
export const F_TASKS = 3;
/** The pid of this thread's own browser (browserMode 'per-worker'), 0 when none runs. */
export const F_BROWSER_PID = 4;
/** Browser launches by this thread (browserMode 'per-worker'). */
export const F_LAUNCHES = 5;
/** The thread's last beat: ms since the buffer's epoch, modulo 2^31 (see `beatNow`). */
export const F_BEAT = 6;
/** Row 0 is the allocator: its first cell counts rows handed out; the second holds the epoch (Unix seconds). */
export const MAX_SLOTS = 1024;
const EPOCH_CELL = 1;

/** How often a worker's event loop beats. */
export const BEAT_MS = 250;
/** A thread with tasks that has not beaten for this long is stalled. */
export const STALL_MS = 1500;

export function createStatsBuffer(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * SLOT_FIELDS * (MAX_SLOTS + 1));
  new Int32Array(buffer)[EPOCH_CELL] = Math.floor(Date.now() / 1000);
  return buffer;
}

/** Now on the buffer's clock: ms since its epoch, wrapping at 2^31 (differences stay right for 24 days). */
function beatNow(view: Int32Array): number {
  return (Date.now() - Atomics.load(view, EPOCH_CELL) * 1000) & 0x7fffffff;
}

/** Claims a row for the calling thread (a replaced worker gets a fresh row). */
export function claimSlot(buffer: SharedArrayBuffer, threadId: number): StatsSlot {
  const view = new Int32Array(buffer);
  const row = (Atomics.add(view, 0, 1) % MAX_SLOTS) + 1;
  const base = row * SLOT_FIELDS;
  Atomics.store(view, base + F_CONTEXTS, 0);
  Atomics.store(view, base + F_PAGES, 0);
  Atomics.store(view, base + F_TASKS, 0);
  Atomics.store(view, base + F_BROWSER_PID, 0);
  Atomics.store(view, base + F_LAUNCHES, 0);
  Atomics.store(view, base + F_BEAT, beatNow(view));
  Atomics.store(view, base + F_THREAD, threadId);
  return new StatsSlot(view, base);
}

export class StatsSlot {
  constructor(
    private readonly view: Int32Array,
    private readonly base: number,
  ) {}
  set(field: number, value: number): void {
    Atomics.store(this.view, this.base + field, value);
  }
  add(field: number, delta: number): void {
    Atomics.add(this.view, this.base + field, delta);
  }
  /** This thread's event loop ran just now. */
  beat(): void {
    Atomics.store(this.view, this.base + F_BEAT, beatNow(this.view));
  }
}

/**
 * Threads that hold tasks and have not beaten for STALL_MS: busy in synchronous work. A
 * thread without a row yet (its first task has not set up) is not listed.
 */
export function stalledThreads(buffer: SharedArrayBuffer, staleMs = STALL_MS): Set<number> {
  const view = new Int32Array(buffer);
  const used = Math.min(Atomics.load(view, 0), MAX_SLOTS);
  const now = beatNow(view);
  const out = new Set<number>();
  for (let row = 1; row <= used; row++) {
    const base = row * SLOT_FIELDS;
    const thread = Atomics.load(view, base + F_THREAD);
    if (thread === 0 || Atomics.load(view, base + F_TASKS) <= 0) continue;
    if (((now - Atomics.load(view, base + F_BEAT)) & 0x7fffffff) > staleMs) out.add(thread);
  }
  return out;
}

export interface WorkerCounters {
  contexts: number;
  pages: number;
  tasks: number;
  /** Pids of the workers' own browsers (per-worker mode). */
  browserPids: number[];
  /** Launches of the workers' own browsers, live threads only (per-worker mode). */
  launches: number;
}

/** Sums the rows of live threads. */
export function readStats(buffer: SharedArrayBuffer): WorkerCounters {
  const view = new Int32Array(buffer);
  const used = Math.min(Atomics.load(view, 0), MAX_SLOTS);
  const out: WorkerCounters = { contexts: 0, pages: 0, tasks: 0, browserPids: [], launches: 0 };
  for (let row = 1; row <= used; row++) {
    const base = row * SLOT_FIELDS;
    if (Atomics.load(view, base + F_THREAD) === 0) continue;
    out.contexts += Atomics.load(view, base + F_CONTEXTS);
    out.pages += Atomics.load(view, base + F_PAGES);
    out.tasks += Atomics.load(view, base + F_TASKS);
    out.launches += Atomics.load(view, base + F_LAUNCHES);
    const pid = Atomics.load(view, base + F_BROWSER_PID);
    if (pid > 0) out.browserPids.push(pid);
  }
  return out;
}

/**
 * Forgets the row of a thread that has exited (its counts died with it); returns the pid of a
 * browser the row still listed (the thread ended without closing it), else 0, and the browser
 * launches the row counted (the pool keeps them: launches are counted "so far").
 */
export function releaseThread(buffer: SharedArrayBuffer, threadId: number): { pid: number; launches: number } {
  const view = new Int32Array(buffer);
  const used = Math.min(Atomics.load(view, 0), MAX_SLOTS);
  let pid = 0;
  let launches = 0;
  for (let row = 1; row <= used; row++) {
    const base = row * SLOT_FIELDS;
    if (Atomics.load(view, base + F_THREAD) !== threadId) continue;
    pid = Atomics.load(view, base + F_BROWSER_PID) || pid;
    launches += Atomics.load(view, base + F_LAUNCHES);
    Atomics.store(view, base + F_BROWSER_PID, 0);
    Atomics.store(view, base + F_THREAD, 0);
  }
  return { pid, launches };
}
