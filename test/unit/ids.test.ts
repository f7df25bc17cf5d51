/** Ids (core/ids.ts): 19 digits, increasing within a process, and within the store's durable blocks once bound. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { bindIdBlocks, ID_BLOCK_MS, idTime, isId, newId } from '../../core/ids.js';
import { ID_MARK_KEY } from '../../core/store/lmdb/ids.js';
import { LmdbStore } from '../../core/store/lmdb/index.js';
import { waitFor } from '../helpers/farm.js';

const dirs: string[] = [];
const stores: LmdbStore[] = [];

function openStore(dir = mkdtempSync(join(tmpdir(), 'gleaner-ids-'))): LmdbStore {
  if (!dirs.includes(dir)) dirs.push(dir);
  const store = LmdbStore.open(dir);
  stores.push(store);
  return store;
}

afterAll(async () => {
  for (const s of stores) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function increasing(ids: string[]): boolean {
  return ids.every((id, i) => isId(id) && (i === 0 || id > ids[i - 1]!));
}

test('unbound: 19 digits, strictly increasing through 30,000 ids in one millisecond and a clock stepped back', () => {
  const now = Date.now();
  const ids = Array.from({ length: 30_000 }, () => newId(now));
  ids.push(newId(now - 60_000), newId(now - 60_000));
  expect(increasing(ids)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  // 10,000 per millisecond, then the clock is borrowed from.
  expect(idTime(ids[0]!)).toBe(now);
  expect(idTime(ids[29_999]!)).toBeLessThanOrEqual(now + 3);
});

test('bound: the first id is at or above the mark an earlier process left, even with the clock an hour behind it', async () => {
  // An earlier process whose clock ran an hour ahead reserved its blocks there.
  const earlierProcess = openStore();
  const earlier = await earlierProcess.ids.reserveIdBlock(Date.now() + 3_600_000, ID_BLOCK_MS);
  await earlierProcess.close();
  const store = openStore(dirs[dirs.length - 1]);
  const unbind = await bindIdBlocks(store.ids);
  try {
    const id = newId();
    expect(idTime(id)).toBeGreaterThanOrEqual(earlier.until);
    expect(id.slice(13, 15)).toBe('00');
    expect(increasing([id, newId(), newId(Date.now() - 5_000)])).toBe(true);
  } finally {
    unbind();
  }
});

test('bound: no id past the durable mark before the next block is recorded; the next block is asked for on the way', async () => {
  const store = openStore();
  const unbind = await bindIdBlocks(store.ids);
  try {
    const mark = store.dbs.meta.get(ID_MARK_KEY) as number;
    // The clock jumps a minute past the block: ids wait inside it (its last millisecond)...
    const inside = [newId(mark + 60_000), newId(mark + 60_000)];
    expect(inside.map(idTime)).toEqual([mark - 1, mark - 1]);
    // ...while the next block is recorded; then they move on, still below the new mark.
    let next = inside[1]!;
    await waitFor(() => idTime((next = newId(mark + 60_000))) > mark - 1);
    expect(idTime(next)).toBeLessThan(store.dbs.meta.get(ID_MARK_KEY) as number);
    expect(increasing([...inside, next])).toBe(true);
  } finally {
    unbind();
  }
  // Unbound again: from the clock, still increasing.
  const after = newId();
  expect(isId(after)).toBe(true);
});

test('a store written before marks existed takes its first mark from its newest job id', async () => {
  const store = openStore();
  const future = Date.now() + 86_400_000;
  const id = `${future}000007`;
  await store.dbs.jobs.put(id, { id });
  const block = await store.ids.reserveIdBlock(Date.now(), ID_BLOCK_MS);
  expect(block).toEqual({ node: 0, floor: future + 1, until: future + 1 + ID_BLOCK_MS });
});
