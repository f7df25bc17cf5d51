/**
 * The console's list of recent jobs: the last jobs seen on the event bus, and apart from them
 * the last failed ones, so that a burst of successful jobs never pushes a failure out of
 * sight. Each entry names the job's target (its URL or query) and its account once the status
 * document has read them (they are not on the bus), and the title of its error.
 *
 * Bounded: RECENT_MAX entries in each list. Main thread only (the bus is synchronous there).
 */
import type { JobEvent } from '../../core/events.js';
import { entitled } from '../../core/store/accounts.js';

const RECENT_MAX = 200;

export interface RecentJob {
  job_id: string;
  client_id: number;
  /** The account's name (filled by the status document). */
  account?: string;
  route: string;
  /** What the job fetches: its `url` or `query` (filled by the status document from the job record). */
  target?: string;
  /** The last event seen: accepted, started, done, failed, delivered, delivery_failed. */
  state: JobEvent['type'];
  created_at: number;
  updated_at: number;
  /** The problem title of a failed job (or of a failed delivery). */
  error?: string;
}

export interface JobFilter {
  /** One state, or `failed` (which includes failed deliveries). */
  state?: string;
  /** A route pattern as entitlements write them: `se1/*`, `universal`, `mkt1/product`. */
  route?: string;
  account?: number;
  limit?: number;
}

export class RecentJobs {
  private readonly recent = new Map<string, RecentJob>();
  private readonly failed = new Map<string, RecentJob>();

  /** Tap of the job event bus. */
  record(event: JobEvent): void {
    let entry = this.recent.get(event.jobId) ?? this.failed.get(event.jobId);
    if (!entry) {
      // Deliveries of a job that already left both lists do not bring it back.
      if (event.type !== 'accepted' && event.type !== 'started') return;
      entry = { job_id: event.jobId, client_id: event.clientId, route: event.routeId, state: event.type, created_at: event.at, updated_at: event.at };
      bounded(this.recent, entry);
    }
    entry.state = event.type;
    entry.updated_at = event.at;
    if (event.error) entry.error = event.error.code;
    if (event.type === 'failed' || event.type === 'delivery_failed') bounded(this.failed, entry);
  }

  /** Newest first, failures kept apart included, filtered. */
  list(filter: JobFilter = {}): RecentJob[] {
    const byId = new Map<string, RecentJob>();
    for (const j of [...this.recent.values(), ...this.failed.values()]) byId.set(j.job_id, j);
    const wanted = (j: RecentJob): boolean =>
      (filter.state === undefined || j.state === filter.state || (filter.state === 'failed' && j.state === 'delivery_failed')) &&
      (filter.route === undefined || entitled([filter.route], j.route)) &&
      (filter.account === undefined || j.client_id === filter.account);
    return [...byId.values()]
      .filter(wanted)
      .sort((a, b) => b.created_at - a.created_at || (a.job_id < b.job_id ? 1 : -1))
      .slice(0, filter.limit ?? 100);
  }
}

/** Inserts or refreshes `entry` as the newest of `map`, dropping the oldest past the bound. */
function bounded(map: Map<string, RecentJob>, entry: RecentJob): void {
  map.delete(entry.job_id);
  map.set(entry.job_id, entry);
  if (map.size > RECENT_MAX) map.delete(map.keys().next().value as string);
}
