/**
 * Runs a page's block extractors so that one failing block does not lose the others, and
 * records the sections a page of its kind always has but this one lacked. Either makes the page
 * `partial`, with the names in `Parsed.missing` (`metadata.missing_sections`): a layout change
 * upstream then shows as a rising share of partial pages per route (the metric
 * `gleaner_parse_status_total` and the console) before users notice empty fields.
 */
import type { Parsed, ParseStatus } from './types.js';

export class Blocks {
  /** Blocks whose extractor threw. */
  readonly failed: string[] = [];
  /** Expected sections not found on the page. */
  readonly missing: string[] = [];

  run<T>(name: string, extract: () => T, fallback: T): T {
    try {
      return extract();
    } catch {
      this.failed.push(name);
      return fallback;
    }
  }

  /** An expected section (`found`: whether the page has it); answers `found`. */
  expect(name: string, found: boolean): boolean {
    if (!found && !this.missing.includes(name)) this.missing.push(name);
    return found;
  }

  /** `unrecognised` when nothing known was found, `partial` when a block failed or a section is missing, else `parsed`. */
  status(recognised: boolean): ParseStatus {
    if (!recognised) return 'unrecognised';
    return this.failed.length > 0 || this.missing.length > 0 ? 'partial' : 'parsed';
  }

  /** Names of what a partial page lacks: failed blocks and missing sections. */
  get gaps(): string[] {
    return [...new Set([...this.failed, ...this.missing])];
  }

  /** The parse result: status, and on a partial page the names of what it lacks. */
  result(json: unknown, recognised: boolean): Parsed {
    return withStatus(json, this.status(recognised), this.gaps);
  }
}

/** A parse result whose `missing` is set only when the page is partial. */
export function withStatus(json: unknown, status: ParseStatus, gaps: readonly string[]): Parsed {
  return status === 'partial' && gaps.length > 0 ? { json, status, missing: [...gaps] } : { json, status };
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
