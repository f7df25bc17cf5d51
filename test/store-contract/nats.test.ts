/**
 * The store contract against the cluster store: a real nats-server with JetStream (port 0, temp
 * folder); each store is a fresh namespace on it, and `openAnother` is a second connection to
 * the same namespace (another node).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { jobRecord, page } from './harness.js';
import { openResultWriter, openStore, type Store, type StoreLocation } from '../../core/store/index.js';
import { startNats, type NatsServers } from '../helpers/nats.js';
import { storeContract } from './index.js';

let nats: NatsServers;
const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-contract-nats-'));
const locationOf = new Map<Store, StoreLocation>();

beforeAll(async () => {
  nats = await startNats(1);
}, 30_000);

async function openAt(location: StoreLocation): Promise<Store> {
  const store = await openStore(location);
  locationOf.set(store, location);
  return store;
}

// Beyond the shared contract: a result larger than one NATS message (1 MiB) goes through the
// object store, from `finish` and from a worker's writer, and reads back whole.
test('nats: a result larger than a message is stored in the object store and read back whole', async () => {
  const location: StoreLocation = { dataDir, cluster: { servers: nats.urls, namespace: `c${randomBytes(4).toString('hex')}`, replicas: 1 } };
  const store = await openAt(location);
  const big = page('<p>' + 'x'.repeat(1_500_000) + '</p>');
  const [a, b] = [jobRecord(1), jobRecord(1)];
  await store.jobs.enqueue([a, b]);
  await store.jobs.finish(a.id, { ok: true, upstreamStatus: 200, results: [big] }, 86_400_000);
  await openResultWriter(location).put(b.id, { results: [big] });
  await store.jobs.finish(b.id, { ok: true, upstreamStatus: 200, results: undefined }, 86_400_000);
  expect((await store.jobs.result(a.id))?.results[0]?.html?.length).toBe(big.html!.length);
  expect((await store.jobs.result(b.id))?.results[0]?.html?.length).toBe(big.html!.length);
}, 60_000);

storeContract('nats', {
  async open() {
    return openAt({ dataDir, cluster: { servers: nats.urls, namespace: `c${randomBytes(4).toString('hex')}`, replicas: 1 }, retentionMs: 86_400_000 });
  },
  async openAnother(store) {
    return openAt(locationOf.get(store)!);
  },
  resultWriter(store) {
    return openResultWriter(locationOf.get(store)!);
  },
  async cleanup() {
    for (const store of locationOf.keys()) await store.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
});
