/**
 * Id blocks on NATS (core/store/ids.ts): a node slot held for the node's life, and a mark per
 * slot that only rises.
 *
 * - Slot: `idslot.<n>` → node id in the nodes bucket (bucket TTL 30 s), taken with a KV
 *   `create` (fails while a live node holds it) at the first reservation, trying 0..99 in turn;
 *   renewed every 10 s by CAS on its revision, deleted at close. A dead node's claim lapses by
 *   itself. The CLI opens the store without reserving, so it takes no slot.
 * - Mark: `ids.<n>` → `{u: until, o: holder}` in the ids bucket (no TTL), moved by CAS:
 *   `until = max(stored, max(now, floor) + len)`; `floor` is the mark the handle's first CAS on
 *   the slot was based on, so every id an earlier holder issued lies below it.
 * - The holder written in the mark is what keeps two handles off one slot, not the claim alone:
 *   a handle whose claim lapsed (a partition longer than the TTL) and whose slot another node
 *   took finds that node's token in the mark at its next reservation, drops the slot and claims
 *   another. Its ids until then were below the mark it recorded, which the new holder's floor
 *   is at or above. A new slot's first block also starts above every block this handle was
 *   given before (the issuer keeps the highest `until` it saw).
 */
import { randomBytes } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { ID_NODE_SLOTS, type IdBlock, type IdBlocks } from '../ids.js';
import { fromJson, isCasConflict, NODE_TTL_MS, toJson } from './connection.js';
import { retrying } from './publish.js';
import { casCreate, casPut } from './cas.js';

interface Mark {
  /** Until (ms). */
  u: number;
  /** The holder's token. */
  o: string;
}

const RENEW_MS = NODE_TTL_MS / 3;

export class NatsIds implements IdBlocks {
  private claim: { slot: number; revision: number } | undefined;
  /** The mark under the current slot as this handle first found it; undefined until its first CAS there. */
  private floor: number | undefined;
  private handedUntil = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly token = randomBytes(8).toString('hex');
  private closed = false;

  constructor(
    private readonly nodes: KV,
    private readonly marks: KV,
    private readonly nodeId: string,
  ) {}

  /** Serialised: one reservation at a time per handle (the mark only rises). */
  reserveIdBlock(now: number, lengthMs: number): Promise<IdBlock> {
    const next = this.queue.then(() => this.reserve(now, lengthMs));
    this.queue = next.catch(() => {});
    return next;
  }

  private async reserve(now: number, lengthMs: number): Promise<IdBlock> {
    for (let i = 0; i < 100; i++) {
      if (this.closed) throw new Error('the store is closed');
      const slot = await this.ensureClaim();
      const key = `ids.${slot}`;
      const entry = await retrying(() => this.marks.get(key));
      const stored = entry?.operation === 'PUT' ? fromJson<Mark>(entry.value) : undefined;
      if (this.floor !== undefined && stored?.o !== this.token) {
        // Another handle reserved under this slot after us: it is not ours any more.
        this.lose();
        continue;
      }
      const mark = stored?.u ?? 0;
      const floor = this.floor ?? mark;
      // A slot new to this handle starts above its earlier blocks too (the issuer's ids run up to them).
      const from = Math.max(now, floor, this.floor === undefined ? this.handedUntil : 0);
      const until = Math.max(mark, from + lengthMs);
      const value = toJson({ u: until, o: this.token } satisfies Mark);
      try {
        // A write whose answer was lost comes back as a conflict: the re-read finds our token.
        await retrying(() => (entry ? casPut(this.marks, key, value, entry.revision) : casCreate(this.marks, key, value)));
      } catch (err) {
        if (isCasConflict(err)) continue;
        throw err;
      }
      this.floor ??= floor;
      this.handedUntil = Math.max(this.handedUntil, until);
      return { node: slot, floor: this.floor, until };
    }
    throw new Error('id blocks: the slot mark kept changing under this node');
  }

  private async ensureClaim(): Promise<number> {
    if (this.claim) return this.claim.slot;
    const first = this.lastSlot === undefined ? 0 : (this.lastSlot + 1) % ID_NODE_SLOTS;
    for (let i = 0; i < ID_NODE_SLOTS; i++) {
      const slot = (first + i) % ID_NODE_SLOTS;
      try {
        const revision = await retrying(() => casCreate(this.nodes, `idslot.${slot}`, toJson(this.nodeId)));
        this.claim = { slot, revision };
        this.lastSlot = slot;
        this.floor = undefined;
        this.timer ??= setInterval(() => void this.renew(), RENEW_MS).unref();
        return slot;
      } catch (err) {
        if (!isCasConflict(err)) throw err;
      }
    }
    throw new Error(`id blocks: all ${ID_NODE_SLOTS} node slots are held by live nodes`);
  }

  private lastSlot: number | undefined;

  private async renew(): Promise<void> {
    const claim = this.claim;
    if (!claim) return;
    try {
      const revision = await casPut(this.nodes, `idslot.${claim.slot}`, toJson(this.nodeId), claim.revision);
      if (this.claim === claim) this.claim = { slot: claim.slot, revision };
    } catch (err) {
      // Lapsed (and perhaps taken): the next reservation claims a slot again. Else: try next tick.
      if (isCasConflict(err) && this.claim === claim) this.lose();
    }
  }

  private lose(): void {
    this.claim = undefined;
    this.floor = undefined;
  }

  /** Frees the slot at once (a restart may take it again; the mark keeps its ids apart). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const claim = this.claim;
    this.claim = undefined;
    if (claim) await this.nodes.delete(`idslot.${claim.slot}`, { previousSeq: claim.revision }).catch(() => {});
  }
}
