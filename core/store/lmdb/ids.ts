/**
 * Id blocks in LMDB (core/store/ids.ts): the high-water mark is `meta['ids:until']`, raised in a
 * write transaction before a block is handed out. One process per data folder, so the node slot
 * is always 0. A store written before the mark existed takes its first mark from the newest job
 * id it holds (job keys are ids, which sort by time).
 */
import { idTime } from '../../ids.js';
import type { IdBlock, IdBlocks } from '../ids.js';
import type { StoreDatabases } from './index.js';

export const ID_MARK_KEY = 'ids:until';

export class LmdbIds implements IdBlocks {
  /** The mark as this handle first found it: every id issued before this handle lies below it. */
  private floor: number | undefined;

  constructor(private readonly dbs: StoreDatabases) {}

  private storedMark(): number {
    const mark = this.dbs.meta.get(ID_MARK_KEY) as number | undefined;
    if (mark !== undefined) return mark;
    for (const id of this.dbs.jobs.getKeys({ reverse: true, limit: 1 })) return idTime(String(id)) + 1;
    return 0;
  }

  async reserveIdBlock(now: number, lengthMs: number): Promise<IdBlock> {
    return this.dbs.root.transaction(() => {
      const stored = this.storedMark();
      this.floor ??= stored;
      const until = Math.max(stored, Math.max(now, this.floor) + lengthMs);
      this.dbs.meta.put(ID_MARK_KEY, until);
      return { node: 0, floor: this.floor, until };
    });
  }
}
