/**
 * A crawl step on NATS (crawls.ts): what one `seed`, `lease`, `complete` or `skip` writes
 * besides the crawl's state record, carried in that record as `pending` by the step's CAS.
 *
 * The CAS on the state is the commit point. Everything else the step does is a keyed put or
 * delete applied after it, and applied again by whoever next reads the state with the step
 * still pending (the next step, `get`, `pages`): a node dying between the CAS and the writes
 * loses nothing, and a repeat writes the same values. Page results and charges are keyed by
 * the page's seq (the result is written before the CAS, dropped again if the page turns out a
 * duplicate); outbox wake-ups carry a message id of the crawl, kind and due time.
 */
import type { KV } from '@nats-io/kv';
import type { CrawlState, DeliveryCursor, FrontierEntry, PageRecord, SkipRecord } from '../crawls.js';
import type { DeliveryKind } from '../jobs.js';
import type { UsageEntry } from '../usage.js';
import type { Charges } from './charges.js';
import { fromJson, keyPart, toJson, type Handles } from './connection.js';
import { publishRetrying, retrying } from './publish.js';
import { removeKey } from './key-list.js';

export interface Step {
  /** Frontier entries written (new, or leased again). */
  put?: FrontierEntry[];
  /** Frontier entries removed: [depth, seq]. */
  drop?: Array<[number, number]>;
  /** Seen-set values: [urlHash, seq | SKIPPED | DROPPED]. */
  seen?: Array<[string, number]>;
  page?: PageRecord;
  skips?: SkipRecord[];
  /** Hosts' last fetch: [host, at]. */
  hosts?: Array<[string, number]>;
  /** A page charge: [seq, entry]. */
  charge?: [number, UsageEntry];
  /** A result written before the CAS that belongs to no page (a duplicate): its seq. */
  unresult?: number;
  /** Outbox wake-ups: [kind, dueAt]. */
  wake?: Array<[DeliveryKind, number]>;
}

export interface StoredCrawl extends CrawlState {
  pending?: Step;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The keys of a crawl in the crawls bucket. */
export const crawlKeys = {
  state: (id: string) => `s.${id}`,
  frontier: (id: string, depth: number, seq: number) => `f.${id}.${pad(depth, 4)}.${pad(seq, 10)}`,
  frontierPrefix: (id: string) => `f.${id}.>`,
  /** Marks a frontier entry as taken out for good (a late write of an older step cannot bring it back). */
  gone: (id: string, seq: number) => `d.${id}.${seq}`,
  seen: (id: string, hash: string) => `u.${id}.${hash}`,
  page: (id: string, n: number) => `p.${id}.${pad(n, 10)}`,
  skip: (id: string, n: number) => `k.${id}.${pad(n, 10)}`,
  host: (id: string, host: string) => `h.${id}.${keyPart(host)}`,
  robots: (id: string, host: string) => `rb.${id}.${keyPart(host)}`,
  /** A page's result, in the results bucket (KV, or the object store when large). */
  result: (id: string, seq: number) => `crawl.${id}.${seq}`,
};

export async function getJson<T>(kv: KV, key: string): Promise<T | undefined> {
  const e = await retrying(() => kv.get(key));
  return e && e.operation === 'PUT' ? fromJson<T>(e.value) : undefined;
}

export function cursorOf(state: CrawlState, kind: DeliveryKind): DeliveryCursor {
  return state.deliveries[kind] ?? { cursor: 0, queued: false, closed: false };
}

/** Applies a committed step's writes (each keyed: a repeat changes nothing). */
export async function applyStep(kv: KV, h: Handles, charges: Charges, id: string, step: Step, deleteResult: (key: string) => Promise<void>): Promise<void> {
  const writes: Array<Promise<unknown>> = [];
  for (const e of step.put ?? []) writes.push(retrying(() => kv.put(crawlKeys.frontier(id, e.depth, e.seq), toJson(e))));
  for (const [hash, v] of step.seen ?? []) writes.push(retrying(() => kv.put(crawlKeys.seen(id, hash), toJson(v))));
  if (step.page) writes.push(retrying(() => kv.put(crawlKeys.page(id, step.page!.n), toJson(step.page))));
  for (const s of step.skips ?? []) writes.push(retrying(() => kv.put(crawlKeys.skip(id, s.n), toJson(s))));
  for (const [host, at] of step.hosts ?? []) writes.push(retrying(() => kv.put(crawlKeys.host(id, host), toJson(at))));
  if (step.unresult !== undefined) writes.push(deleteResult(crawlKeys.result(id, step.unresult)));
  await Promise.all(writes);
  // Removals after the puts: an entry leaves the frontier only once what replaces it is stored.
  // The marker first: the frontier entry may be written again by a slow apply of an older step
  // (a lease of it) after this delete, and readers then still know it is gone.
  await Promise.all((step.drop ?? []).map(([, seq]) => retrying(() => kv.put(crawlKeys.gone(id, seq), toJson(1)))));
  // Purged, not deleted: a frontier listing then names only entries still there (key-list.ts).
  await Promise.all((step.drop ?? []).map(([depth, seq]) => removeKey(h.jsm, h.names.crawls, crawlKeys.frontier(id, depth, seq))));
  if (step.charge) await charges.charge(step.charge[1], `charge.${id}.${step.charge[0]}`);
  for (const [kind, dueAt] of step.wake ?? []) {
    await publishRetrying(h.js, `${h.names.outboxSubject}.${id}.${kind}`, toJson({ jobId: id, kind, attempt: 0, dueAt, w: 1 }), `${id}.${kind}.w${dueAt}`);
  }
}
