/**
 * Compare-and-set on a KV key that holds on every nats-server the cluster mode supports.
 *
 * A KV `update(key, value, revision)` is a publish with `Nats-Expected-Last-Subject-Sequence`.
 * On a clustered (R3) stream, servers before 2.9.21 check that header only on the leader, before
 * proposing the write, not when replicas apply it (nats-server#4320): two writers that read the
 * same revision a few milliseconds apart may both be accepted, and the later one silently
 * overwrites the other. Debian's nats-server is 2.9.10. Measured in our cluster test: two nodes
 * both finished the same job, and a charge fold's totals lost six pages.
 *
 * The write therefore also carries a message id made of the key and the revision it was based
 * on. Duplicate detection runs when every replica applies the write (and before proposing, for
 * writes in flight), so of all the writes based on one revision exactly one is stored. The rest
 * come back as `duplicate` and are reported as the conflict they are. A writer whose own retried
 * write had landed also reads "conflict", as it did before: callers re-read and recognise their
 * own write (a token, a mark).
 *
 * A create (expected sequence 0) is checked when replicas apply it: it is safe as it is. But
 * `kv.create` over a deleted key falls back to an update based on the delete marker's revision,
 * unguarded; `casCreate` makes that update with `casPut`. The dedupe window of the buckets
 * (`CAS_DEDUPE_MS`, 10 s, set by connection.ts) is far longer than the race.
 */
import type { Bucket, KV } from '@nats-io/kv';
import { isCasConflict } from './connection.js';

export class CasConflict extends Error {
  constructor(key: string, revision: number) {
    // The text is what `isCasConflict` (connection.ts) recognises.
    super(`wrong last sequence: ${key} changed after revision ${revision}`);
    this.name = 'CasConflict';
  }
}

/**
 * Writes `value` to `key` if the key's last revision is still `revision`; returns the new
 * revision. Relies on `Bucket.js`, `encodeKey` and `subjectForKey` of @nats-io/kv (pinned to
 * an exact version in package.json; test/store-contract/cas.test.ts covers them).
 */
export async function casPut(kv: KV, key: string, value: Uint8Array, revision: number): Promise<number> {
  if (revision <= 0) throw new Error('casPut needs the revision the value was based on (casCreate writes a new key)');
  const ack = await (kv as Bucket).js.publish(subjectOf(kv, key), value, { msgID: `${key}@${revision}`, expect: { lastSubjectSequence: revision } });
  if (ack.duplicate) throw new CasConflict(key, revision);
  return ack.seq;
}

/**
 * Writes `value` to `key` only if the key has no value (never written, or deleted); returns the
 * revision. A key that has a value is a conflict.
 */
export async function casCreate(kv: KV, key: string, value: Uint8Array): Promise<number> {
  try {
    return (await (kv as Bucket).js.publish(subjectOf(kv, key), value, { expect: { lastSubjectSequence: 0 } })).seq;
  } catch (err) {
    if (!isCasConflict(err)) throw err;
  }
  const entry = await kv.get(key);
  if (entry && (entry.operation === 'DEL' || entry.operation === 'PURGE')) return casPut(kv, key, value, entry.revision);
  throw new CasConflict(key, entry?.revision ?? 0);
}

/** The subject a KV write of `key` is published on (what `kv.put` uses). */
function subjectOf(kv: KV, key: string): string {
  const bucket = kv as Bucket;
  return bucket.subjectForKey(bucket.encodeKey(key), true);
}
