/**
 * `include_paths` / `exclude_paths`: regular expressions on a URL's path, run on RE2 (re2js, a
 * pure-JavaScript port of RE2): matching takes time linear in the path, so no pattern can be
 * catastrophic (`(a+)+$` on 5,000 characters takes milliseconds, where V8's backtracking engine
 * would never finish). Constructs RE2 cannot run in linear time — backreferences, lookahead,
 * lookbehind — are refused at validation with the engine's reason, as are repeat counts above
 * 1,000 and programs too large. Paths are at most 2,048 characters (url.ts), so one match is
 * bounded in time as well as in steps.
 *
 * A pattern matches anywhere in the path (unanchored, like `RegExp.prototype.test`); anchor it
 * with `^` and `$` as usual.
 */
import { RE2JS } from 're2js';
import type { FieldError } from '../errors.js';

export const MAX_PATTERNS = 64;
export const MAX_PATTERN_LENGTH = 512;

export interface PathFilter {
  /** Whether a path passes: matches an include pattern (when there are any) and no exclude pattern. */
  allows(path: string): boolean;
}

interface Compiled {
  test(input: string): boolean;
}

function compileOne(source: string): Compiled | string {
  try {
    return RE2JS.compile(source);
  } catch (err) {
    return (err as Error).message.replace(/^error parsing regexp: /, '');
  }
}

/** Field errors of a pattern list (`pointer` is the list's, e.g. `#/include_paths`); [] when every pattern compiles. */
export function checkPatterns(pointer: string, patterns: unknown): FieldError[] {
  if (!Array.isArray(patterns)) return [];
  const errors: FieldError[] = [];
  patterns.forEach((p, i) => {
    if (typeof p !== 'string' || p.length > MAX_PATTERN_LENGTH) return; // the schema's error
    const out = compileOne(p);
    if (typeof out === 'string') {
      errors.push({ pointer: `${pointer}/${i}`, detail: `is not a pattern this service runs (RE2 syntax, linear time: no backreferences or lookaround): ${out}` });
    }
  });
  return errors;
}

/** The filter of validated pattern lists (throws on a pattern that does not compile: validate first). */
export function pathFilter(include: readonly string[] = [], exclude: readonly string[] = []): PathFilter {
  const compile = (s: string): Compiled => {
    const out = compileOne(s);
    if (typeof out === 'string') throw new Error(`pattern ${JSON.stringify(s)}: ${out}`);
    return out;
  };
  const inc = include.map(compile);
  const exc = exclude.map(compile);
  return {
    allows(path: string): boolean {
      if (inc.length > 0 && !inc.some((r) => r.test(path))) return false;
      return !exc.some((r) => r.test(path));
    },
  };
}
