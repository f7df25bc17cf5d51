/**
 * The keys of a KV bucket under a filter, and the removal of a key that leaves nothing behind.
 *
 * `kv.keys()` (@nats-io/kv 3.4) reads the keys with a consumer that delivers the last message of
 * each subject and stops when the server says nothing is pending. A key written while that runs
 * is named twice, or not at all: measured on nats-server 2.9.10 (test/store-contract/key-list),
 * every listing of 300 keys taken while 40 of them were being rewritten was wrong, some missing
 * 15 keys. The crawl pump read the frontier that way while a step's writes were being applied
 * (two callers apply a pending step at once, crawl-steps.ts): it started a page twice, and a
 * frontier read that missed every entry would have ended a crawl early; a usage row charged
 * during `rows()` could be summed twice or left out.
 *
 * The server's own account of the stream's subjects under the filter (`STREAM.INFO` with
 * `subjects_filter`) is one snapshot taken under the stream's lock: each subject with a message
 * once, nothing missed. It also names keys whose last message is a delete marker: callers read
 * each key and skip what is not a value, as they must anyway (the listing is a moment, the reads
 * come after). Where keys come and go all the time (a crawl's frontier), `removeKey` purges the
 * subject instead of writing a delete marker, so listings stay the size of what is live.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import { retrying } from './publish.js';

/** The distinct keys under `filter` in bucket `bucket` (its stream is `KV_<bucket>`), sorted. */
export async function listKeys(jsm: JetStreamManager, bucket: string, filter: string): Promise<string[]> {
  const prefix = `$KV.${bucket}.`;
  const info = await retrying(() => jsm.streams.info(`KV_${bucket}`, { subjects_filter: `${prefix}${filter}` }));
  return Object.keys(info.state.subjects ?? {})
    .map((subject) => subject.slice(prefix.length))
    .sort();
}

/** Removes `key` with every message of it: unlike `kv.delete`, no marker stays to be listed. */
export async function removeKey(jsm: JetStreamManager, bucket: string, key: string): Promise<void> {
  await retrying(() => jsm.streams.purge(`KV_${bucket}`, { filter: `$KV.${bucket}.${key}` }));
}
