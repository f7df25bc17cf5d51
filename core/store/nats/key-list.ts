/**
 * The keys of a KV bucket under a filter, each once and in order.
 *
 * `kv.keys()` (@nats-io/kv 3.4) reads them with a push consumer that delivers the last message
 * of each subject, and keeps delivering until it has caught up: a key written while the listing
 * runs arrives a second time. The crawl pump read such a listing of a crawl's frontier while a
 * step's writes were being applied (two callers apply a pending step at once, crawl-steps.ts),
 * saw one entry twice and fetched its page twice; a usage row charged during `rows()` was
 * summed twice. Every listing goes through here.
 *
 * A key deleted during the listing may still be named: callers read each key and skip what is
 * gone, as they must anyway (the listing is a moment, the reads come after).
 */
import type { KV } from '@nats-io/kv';
import { retrying } from './publish.js';

/** The distinct keys under `filter`, sorted (key order is what frontier and page keys rely on). */
export async function listKeys(kv: KV, filter: string): Promise<string[]> {
  const keys = new Set<string>();
  for await (const k of await retrying(() => kv.keys(filter))) keys.add(k);
  return [...keys].sort();
}
