/**
 * Job and request ids: 19-digit decimal strings, unique within a node and sortable by time.
 * Layout: milliseconds since the Unix epoch (13 digits until the year 2286) followed by a
 * 6-digit sequence. The sequence restarts each millisecond; when more than a million ids are
 * asked for in one millisecond, or the clock steps back, the clock is borrowed from (ids run
 * slightly ahead of wall time) so that ids never repeat or go backwards within a process.
 * Across restarts, uniqueness holds because a restart takes longer than a millisecond.
 */
const SEQ_DIGITS = 6;
const SEQ_LIMIT = 10 ** SEQ_DIGITS;

let lastMs = 0;
let seq = 0;

export function newId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq >= SEQ_LIMIT) {
    lastMs += 1;
    seq = 0;
  }
  return String(lastMs) + String(seq).padStart(SEQ_DIGITS, '0');
}

export const ID_PATTERN = /^[0-9]{19}$/;

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** The creation time (Unix ms) encoded in an id. */
export function idTime(id: string): number {
  return Number(id.slice(0, id.length - SEQ_DIGITS));
}
