/** The store contract against the embedded LMDB store: each store in its own temp folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openResultWriter, type Store } from '../../core/store/index.js';
import { LmdbStore } from '../../core/store/lmdb/index.js';
import { storeContract } from './index.js';

const opened: Array<{ dir: string; stores: Store[] }> = [];
const dirOf = new Map<Store, string>();

function openAt(dir: string): LmdbStore {
  const store = LmdbStore.open(dir);
  dirOf.set(store, dir);
  opened.find((o) => o.dir === dir)!.stores.push(store);
  return store;
}

storeContract('lmdb', {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-contract-'));
    opened.push({ dir, stores: [] });
    return openAt(dir);
  },
  async openAnother(store) {
    return openAt(dirOf.get(store)!);
  },
  resultWriter(store) {
    return openResultWriter({ dataDir: dirOf.get(store)! });
  },

  async cleanup() {
    for (const { dir, stores } of opened.splice(0)) {
      for (const store of stores) await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
