/**
 * The id seam: what a store provides so that job and request ids (core/ids.ts) stay unique and
 * increasing across restarts and across the nodes of a cluster, whatever the clocks do.
 *
 * An id is `<13-digit Unix ms><2-digit node slot><4-digit sequence>`. A node issues ids only
 * with times inside a block the store recorded durably beforehand:
 *
 * - `until` is a high-water mark: the store keeps the highest `until` it ever handed to this
 *   slot, and never hands out a `floor` below it again. So after a restart (even with the clock
 *   stepped back) the first id is above every id issued before the restart.
 * - `floor` is that mark as it was when this handle first reserved: ids of earlier holders of
 *   the slot (the process before a restart) all lie below it.
 * - `node` is this handle's slot, 0..99: unique among live nodes (LMDB: always 0, one process
 *   per data folder; cluster: a slot claimed for the node's lifetime), so two nodes never issue
 *   the same id even in the same millisecond.
 *
 * A block is reserved every few seconds (core/ids.ts asks for the next one when half of the
 * current is used), so it costs one small durable write per few seconds, not one per id.
 */

export interface IdBlock {
  /** This node's slot, 0..99 (the id's digits 14–15). */
  node: number;
  /** No id below this time (ms) may be issued by this handle. */
  floor: number;
  /** Ids may be issued with times below this (ms); it is durable before the block is handed out. */
  until: number;
}

export interface IdBlocks {
  /**
   * Records `until = max(stored mark, max(now, floor) + lengthMs)` for this handle's slot and
   * returns the block; durable before it resolves. Concurrent calls are serialised (the mark
   * only rises). `now` is the issuer's time: the clock, or its last id's time when ids run ahead.
   */
  reserveIdBlock(now: number, lengthMs: number): Promise<IdBlock>;
}

/** The most node slots an id can name. */
export const ID_NODE_SLOTS = 100;
