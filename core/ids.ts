/**
 * Job and request ids: 19-digit decimal strings, unique within a node and sortable by time.
 * Layout: milliseconds since the Unix epoch (13 digits until the year 2286) followed by a
 * 6-digit sequence. The sequence restarts each millisecond; when more than a million ids are
 * asked for in one millisecond, or the clock steps back, the clock is borrowed from (ids run
 * slightly ahead of wall time) so that ids never repeat or go backwards within a process.
 * Across restarts, uniqueness holds because a restart takes longer than a millisecond. In
 * cluster mode every node's ids also carry its slot (setIdSlot).
 */
const SEQ_DIGITS = 6;
const SEQ_LIMIT = 10 ** SEQ_DIGITS;
/** Cluster mode: the sequence's first three digits are the node's slot, the last three its count. */
const NODE_SLOTS = 1000;

let lastMs = 0;
let seq = 0;
/** Undefined: one node (the embedded store); ids use the whole sequence. */
let slot: number | undefined;

/**
 * Cluster mode: ids must be unique across nodes (a job id is a KV key and a stream message id).
 * Each node takes a slot (0..999, from a counter in the cluster store at start); its ids carry
 * it, so two nodes minting ids in the same millisecond never collide. A node then mints up to
 * 1,000 ids per millisecond before borrowing from the clock.
 */
export function setIdSlot(n: number): void {
  slot = ((n % NODE_SLOTS) + NODE_SLOTS) % NODE_SLOTS;
}

export function newId(now: number = Date.now()): string {
  const limit = slot === undefined ? SEQ_LIMIT : SEQ_LIMIT / NODE_SLOTS;
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq >= limit) {
    lastMs += 1;
    seq = 0;
  }
  return String(lastMs) + String(slot === undefined ? seq : slot * limit + seq).padStart(SEQ_DIGITS, '0');
}

export const ID_PATTERN = /^[0-9]{19}$/;

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** The creation time (Unix ms) encoded in an id. */
export function idTime(id: string): number {
  return Number(id.slice(0, id.length - SEQ_DIGITS));
}
