/**
 * Runs a page's block extractors so that one failing block does not lose the others: a block
 * that throws is recorded and the page is reported `partial` instead of failing the request.
 */
import type { ParseStatus } from '../wire.js';

export class Blocks {
  readonly failed: string[] = [];

  run<T>(name: string, extract: () => T, fallback: T): T {
    try {
      return extract();
    } catch {
      this.failed.push(name);
      return fallback;
    }
  }

  /** `unrecognised` when nothing known was found, `partial` when a block failed, else `parsed`. */
  status(recognised: boolean): ParseStatus {
    if (!recognised) return 'unrecognised';
    return this.failed.length > 0 ? 'partial' : 'parsed';
  }
}

/** The largest number in a result-count line, ignoring parenthesised timings ("(0.62 seconds)"). */
export function resultCount(line: string | null): number | null {
  if (!line) return null;
  const bare = line.replace(/\([^)]*\)/g, ' ');
  let best: number | null = null;
  for (const m of bare.matchAll(/\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?!\d)|\d+/g)) {
    const n = Number(m[0].replace(/[^\d]/g, ''));
    if (Number.isFinite(n) && (best === null || n > best)) best = n;
  }
  return best;
}
