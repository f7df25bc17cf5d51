/**
 * Job results in JetStream: `<ns>_results` KV up to `resultKvMax`, larger ones in the
 * `<ns>_results` object store with a marker in KV. Written by a finish (under its run's key) or
 * by a worker thread (under the job id), read by `result`, deleted by the sweep and by a run
 * that lost its finish CAS.
 */
import type { KvEntry } from '@nats-io/kv';
import type { JobResult } from '../jobs.js';
import { fromJson, toJson, type Handles } from './connection.js';
import { retrying } from './publish.js';

/**
 * Results live in KV up to the server's max_payload (1 MiB by default) less this margin, larger
 * ones in the object store. Measured (bench/cluster-results.ts, bench/README.md): a KV write and
 * read cost 2-20x less than the object store's at every size from 16 KiB to 900 KiB, on one
 * server and on three, so the object store holds only what one message cannot.
 */
const KV_MARGIN_BYTES = 16 * 1024;

export function resultKvMax(nc: { info?: { max_payload: number } }): number {
  return (nc.info?.max_payload ?? 1024 * 1024) - KV_MARGIN_BYTES;
}

/** A result: in KV up to resultKvMax, else in the object store with a marker in KV. */
export async function writeResult(h: Pick<Handles, 'nc' | 'results' | 'bigResults'>, key: string, result: JobResult): Promise<void> {
  const data = toJson(result);
  if (data.byteLength <= resultKvMax(h.nc)) {
    await retrying(() => h.results.put(key, data));
    return;
  }
  await retrying(() => h.bigResults.putBlob({ name: key }, data));
  await retrying(() => h.results.put(key, toJson({ $object: key })));
}

export async function readResult(h: Handles, key: string): Promise<JobResult | undefined> {
  const e: KvEntry | null = await retrying(() => h.results.get(key));
  if (!e || e.operation !== 'PUT') return undefined;
  const value = fromJson<JobResult | { $object: string }>(e.value);
  if (!('$object' in value)) return value;
  const blob = await retrying(() => h.bigResults.getBlob(value.$object));
  return blob ? fromJson<JobResult>(blob) : undefined;
}

export async function deleteResult(h: Handles, key: string): Promise<void> {
  const e = await h.results.get(key);
  if (!e || e.operation !== 'PUT') return;
  const value = fromJson<JobResult | { $object: string }>(e.value);
  if ('$object' in value) await h.bigResults.delete(value.$object).catch(() => {});
  await h.results.delete(key);
}
