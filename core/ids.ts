/**
 * Job and request ids: 19-digit decimal strings, increasing and sortable by time (DESIGN).
 * Layout: milliseconds since the Unix epoch (13 digits until the year 2286), the node's slot
 * (2 digits, core/store/ids.ts) and a 4-digit sequence that restarts each millisecond.
 *
 * - Within a process ids only go up: when the clock steps back, or more than 10,000 ids are
 *   asked for in one millisecond, the clock is borrowed from (ids run slightly ahead of wall
 *   time until it catches up).
 * - Across restarts (bound to a store with `bindIdBlocks`): ids are issued only with times below
 *   a high-water mark the store recorded durably beforehand, and the first id after a start is
 *   at or above the mark the previous process left. So a restart never repeats an id, even when
 *   the clock stepped back meanwhile. The next block is asked for when half of the current one
 *   is used (one durable write per few seconds of issuing); if it has not arrived when the
 *   current one ends, ids are issued from the block's last millisecond (borrowing, 10,000 of
 *   them) before going past it.
 * - Across nodes: the slot makes two nodes' ids differ even in the same millisecond.
 *
 * One issuer per process (ids are per node); unbound (the CLI, unit tests) it works from the
 * clock alone, as before blocks existed.
 */
import type { IdBlock, IdBlocks } from './store/ids.js';

const NODE_DIGITS = 2;
const SEQ_DIGITS = 4;
const SEQ_LIMIT = 10 ** SEQ_DIGITS;
/** How much time one reserved block covers. */
export const ID_BLOCK_MS = 10_000;

let lastMs = 0;
let seq = 0;
let node = '00';
/** Ids are issued with times below this (Infinity while unbound). */
let until = Number.POSITIVE_INFINITY;
let binding: { source: IdBlocks; refilling: boolean } | undefined;

function apply(block: IdBlock): void {
  node = String(block.node).padStart(NODE_DIGITS, '0');
  until = Math.max(until === Number.POSITIVE_INFINITY ? 0 : until, block.until);
  if (lastMs < block.floor) {
    // The previous holder of this slot issued ids below `floor`: the next id is at or above it.
    lastMs = block.floor;
    seq = -1;
  }
}

function refill(b: NonNullable<typeof binding>): void {
  if (b.refilling) return;
  b.refilling = true;
  // Ids running ahead of the clock (borrowing) need a block ahead of them, not of the clock.
  b.source.reserveIdBlock(Math.max(Date.now(), lastMs), ID_BLOCK_MS).then(
    (block) => {
      b.refilling = false;
      if (binding === b) apply(block);
    },
    () => {
      // The store is closing or failing: the next id asks again.
      b.refilling = false;
    },
  );
}

export function newId(now: number = Date.now()): string {
  // Within a block only (a later one may not be recorded yet): borrow from its last ms instead.
  const t = Math.min(now, until - 1);
  if (t > lastMs) {
    lastMs = t;
    seq = 0;
  } else if (++seq >= SEQ_LIMIT) {
    lastMs += 1;
    seq = 0;
  }
  if (binding && until - lastMs < ID_BLOCK_MS / 2) refill(binding);
  return String(lastMs) + node + String(seq).padStart(SEQ_DIGITS, '0');
}

/**
 * Makes this process's ids durable-monotonic through the store: resolves once the first block is
 * recorded (the service binds before it answers). The returned function unbinds (at close);
 * binding another store replaces this one.
 */
export async function bindIdBlocks(source: IdBlocks): Promise<() => void> {
  const block = await source.reserveIdBlock(Math.max(Date.now(), lastMs), ID_BLOCK_MS);
  const b = { source, refilling: false };
  binding = b;
  until = Number.POSITIVE_INFINITY;
  apply(block);
  return () => {
    if (binding !== b) return;
    binding = undefined;
    until = Number.POSITIVE_INFINITY;
  };
}

export const ID_PATTERN = /^[0-9]{19}$/;

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** The creation time (Unix ms) encoded in an id. */
export function idTime(id: string): number {
  return Number(id.slice(0, id.length - NODE_DIGITS - SEQ_DIGITS));
}
