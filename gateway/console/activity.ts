/**
 * The farm at work over the last hour, for the operator console and `GET /v1/status`: job
 * lifecycle counts, charged pages by route family, sync request and job latencies, error
 * titles, recent jobs, and queue depth samples. Fed by three taps — the job event bus, the
 * request pipeline's finish, and the usage ledger's charge — and read by the status handler.
 *
 * Memory is bounded: one fixed slot per 10 seconds for an hour (a ring), each with counters
 * and a log-scale latency histogram; the recent-jobs list and the started-at map are capped.
 * Everything runs on the gateway's main thread (uWS handlers and the event bus are
 * synchronous there), so no locking is needed.
 */
import type { JobEvent } from '../../core/events.js';
import { ERROR_CODES } from '../../core/errors.js';
import type { Family } from '../../core/registry/index.js';
import { RecentJobs } from './recent.js';

export const SLOT_MS = 10_000;
export const SLOTS = 360;
export const FAMILIES: readonly Family[] = ['universal', 'search_engine', 'video', 'assistant', 'commerce'];

/** Latency buckets: upper bounds growing by 25% from 1 ms (past 300 s lands in the last one). */
const BUCKET_BOUNDS: number[] = [];
for (let b = 1; b < 300_000; b *= 1.25) BUCKET_BOUNDS.push(b);
BUCKET_BOUNDS.push(Infinity);

/** Route kinds whose latency is "the latency" an operator watches: work done while the caller waits. */
const SYNC_KINDS = new Set(['scrape', 'search']);
const STARTED_MAX = 100_000;
/**
 * Answers that are no error of a caller's: health probes; and, by path, MCP clients asking for a
 * stream GET /mcp does not offer, and browsers asking for a favicon.
 */
const NOT_ERRORS = new Set(['healthz', 'readyz', 'metrics']);
/** The documented problem titles (README "Errors"); internal codes are shown as one of them. */
const DOCUMENTED = new Set(Object.entries(ERROR_CODES).filter(([, spec]) => !('shownAs' in spec)).map(([code]) => code));

interface Slot {
  /** Start of the slot (Unix ms, a multiple of SLOT_MS); 0 when never used. */
  at: number;
  accepted: number;
  started: number;
  done: number;
  failed: number;
  deliveryFailed: number;
  pages: Record<Family, number>;
  syncLatency: Uint32Array;
  jobLatency: Uint32Array;
  errors: Map<string, number>;
  /** 401 answers (no key, a wrong or revoked one): counted apart from the errors. */
  unauthorized: number;
  /** Answers of 400 and over without a problem document (a protocol's own refusals), by status. */
  other: Map<number, number>;
  /** Highest queue depth seen in the slot, -1 when none was sampled. */
  queueDepth: number;
  /** Built-in parses by `route\u0000status` (route ids are a bounded set). */
  parses: Map<string, number>;
}

export type { RecentJob } from './recent.js';

export interface Percentiles {
  count: number;
  p50: number | null;
  p95: number | null;
}

function emptySlot(): Slot {
  return {
    at: 0,
    accepted: 0,
    started: 0,
    done: 0,
    failed: 0,
    deliveryFailed: 0,
    pages: { universal: 0, search_engine: 0, video: 0, assistant: 0, commerce: 0 },
    syncLatency: new Uint32Array(BUCKET_BOUNDS.length),
    jobLatency: new Uint32Array(BUCKET_BOUNDS.length),
    errors: new Map(),
    unauthorized: 0,
    other: new Map(),
    queueDepth: -1,
    parses: new Map(),
  };
}

function bucketOf(ms: number): number {
  let lo = 0;
  let hi = BUCKET_BOUNDS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms <= BUCKET_BOUNDS[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** p50/p95 of merged histograms, as the upper bound of the bucket holding the rank (rounded). */
export function percentiles(histograms: readonly Uint32Array[]): Percentiles {
  const merged = new Float64Array(BUCKET_BOUNDS.length);
  let count = 0;
  for (const h of histograms) for (let i = 0; i < h.length; i++) (merged[i] += h[i]), (count += h[i]);
  if (count === 0) return { count, p50: null, p95: null };
  const at = (q: number): number => {
    const rank = Math.ceil(q * count);
    let seen = 0;
    for (let i = 0; i < merged.length; i++) {
      seen += merged[i];
      if (seen >= rank) return Math.round(Math.min(BUCKET_BOUNDS[i], 300_000));
    }
    return 300_000;
  };
  return { count, p50: at(0.5), p95: at(0.95) };
}

export class Activity {
  private readonly slots: Slot[] = Array.from({ length: SLOTS }, emptySlot);
  private readonly startedAt = new Map<string, number>();
  /** Recent jobs, failures kept apart (recent.ts). */
  readonly jobs = new RecentJobs();

  constructor(private readonly now: () => number = Date.now) {}

  /** The slot of `at`, recycled when it last held an older period. */
  private slot(at = this.now()): Slot {
    const start = at - (at % SLOT_MS);
    const index = Math.floor(start / SLOT_MS) % SLOTS;
    let slot = this.slots[index];
    if (slot.at !== start) this.slots[index] = slot = { ...emptySlot(), at: start };
    return slot;
  }

  /** The slots of the last hour, oldest first (unused ones included, zeroed, with their time). */
  window(at = this.now()): Slot[] {
    const current = at - (at % SLOT_MS);
    const out: Slot[] = [];
    for (let i = SLOTS - 1; i >= 0; i--) {
      const start = current - i * SLOT_MS;
      const slot = this.slots[Math.floor(start / SLOT_MS) % SLOTS];
      out.push(slot.at === start ? slot : { ...emptySlot(), at: start });
    }
    return out;
  }

  /** Tap of the job event bus. */
  jobEvent(event: JobEvent): void {
    const slot = this.slot(event.at);
    switch (event.type) {
      case 'accepted':
        slot.accepted++;
        break;
      case 'started':
        slot.started++;
        if (this.startedAt.size >= STARTED_MAX) this.startedAt.delete(this.startedAt.keys().next().value as string);
        this.startedAt.set(event.jobId, event.at);
        break;
      case 'done':
      case 'failed': {
        if (event.type === 'done') slot.done++;
        else slot.failed++;
        const began = this.startedAt.get(event.jobId);
        if (began !== undefined) {
          this.startedAt.delete(event.jobId);
          slot.jobLatency[bucketOf(Math.max(0, event.at - began))]++;
        }
        if (event.error) this.error(event.error.code, slot);
        break;
      }
      case 'delivery_failed':
        slot.deliveryFailed++;
        break;
      default:
        break;
    }
    this.jobs.record(event);
  }

  /**
   * Tap of the request pipeline: every answered request, with its problem title when refused.
   * Errors are the answers a caller sees as one, by their documented title; 401s are counted
   * apart; health probes and `GET /mcp` (an MCP client looking for a server stream) are not
   * errors; a refusal without a problem document is counted by its status, apart.
   */
  request(kind: string, status: number, ms: number, title: string | undefined, path?: string): void {
    const slot = this.slot();
    if (SYNC_KINDS.has(kind)) slot.syncLatency[bucketOf(ms)]++;
    if (status < 400 || NOT_ERRORS.has(kind) || (status === 405 && path === '/mcp') || path === '/favicon.ico') return;
    if (status === 401) slot.unauthorized++;
    else if (title !== undefined && DOCUMENTED.has(title)) this.error(title, slot);
    else slot.other.set(status, (slot.other.get(status) ?? 0) + 1);
  }

  /** Tap of the usage ledger: charged pages of a route family. */
  pages(family: Family, n: number): void {
    this.slot().pages[family] += n;
  }

  /** Tap of the usage ledger: a task's built-in parses by status. */
  parses(route: string, counts: Readonly<Record<string, number | undefined>>): void {
    const slot = this.slot();
    for (const [status, n] of Object.entries(counts)) if (n) slot.parses.set(`${route}\u0000${status}`, (slot.parses.get(`${route}\u0000${status}`) ?? 0) + n);
  }

  /** Records the current durable queue depth (the highest per slot is kept for the chart). */
  sampleQueue(depth: number): void {
    const slot = this.slot();
    if (depth > slot.queueDepth) slot.queueDepth = depth;
  }

  private error(title: string, slot: Slot): void {
    slot.errors.set(title, (slot.errors.get(title) ?? 0) + 1);
  }

}
