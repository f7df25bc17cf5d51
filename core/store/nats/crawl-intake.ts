/**
 * URL intake of a crawl step on NATS (crawls.ts): the seen-set look-ups and the decisions of
 * `seed`, link intake and refused URLs, made on the step's draft (its state and the seen-set
 * values it adds, read back within the step). The same rules as the embedded store's.
 */
import type { KV } from '@nats-io/kv';
import { urlHash } from '../../crawl/url.js';
import type { CrawlState, Discovered, DiscoveryLimits } from '../crawls.js';
import { crawlKeys as K, getJson, type Step } from './crawl-steps.js';

const SKIPPED = -1;

/** A step being computed: the state it changes and the seen-set values it adds (read back within the step). */
export interface Draft {
  state: CrawlState;
  step: Step;
  seen: Map<string, number>;
}

export async function seenOf(kv: KV, d: Draft, hash: string): Promise<number | undefined> {
  return d.seen.get(hash) ?? (await getJson<number>(kv, K.seen(d.state.id, hash)));
}

/** Takes in new URLs at `depth` into the draft; returns how many were added. */
export async function takeIn(kv: KV, d: Draft, urls: readonly Discovered[], depth: number, parent: string | undefined, limits: DiscoveryLimits): Promise<number> {
  const { state } = d;
  // Look-ups in parallel; the decisions in order (a URL twice in `urls` is one URL).
  const hashes = urls.map((u) => urlHash(u.url));
  await Promise.all([...new Set(hashes)].filter((x) => !d.seen.has(x)).map(async (x) => {
    const v = await getJson<number>(kv, K.seen(state.id, x));
    if (v !== undefined && !d.seen.has(x)) d.seen.set(x, v);
  }));
  const known = new Set([...d.seen.keys()]);
  const fresh = new Map<string, number>(); // hashes decided in this call and not stored before
  let added = 0;
  urls.forEach((u, i) => {
    const hash = hashes[i]!;
    if (known.has(hash) || fresh.has(hash)) return;
    if (depth > limits.maxDepth || state.counts.discovered >= limits.maxDiscovered) {
      fresh.set(hash, SKIPPED);
      if (depth > limits.maxDepth) state.counts.skipped_depth++;
      else state.counts.skipped_limit++;
      return;
    }
    const seq = ++state.lastSeq;
    fresh.set(hash, seq);
    (d.step.put ??= []).push({ seq, url: u.url, depth, source: u.source, leases: 0, ...(parent !== undefined ? { parent } : {}) });
    state.counts.discovered++;
    state.counts.queued++;
    added++;
  });
  for (const [hash, v] of fresh) d.seen.set(hash, v);
  return added;
}

/** URLs the filters refused, each counted once. */
export async function refuse(kv: KV, d: Draft, urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    const hash = urlHash(url);
    if ((await seenOf(kv, d, hash)) !== undefined) continue;
    d.seen.set(hash, SKIPPED);
    d.state.counts.skipped_filters++;
  }
}

