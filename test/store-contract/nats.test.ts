/**
 * The store contract against the cluster store: a real nats-server with JetStream (port 0, temp
 * folder); each store is a fresh namespace on it, and `openAnother` is a second connection to
 * the same namespace (another node).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
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
