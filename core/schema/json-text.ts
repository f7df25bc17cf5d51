/**
 * Checks on a parsed JSON body that no schema can express, run on every request body before
 * validation (both APIs, the job feed):
 *   - every string, member names included, is well-formed Unicode: JSON's `\\uXXXX` escapes can
 *     spell a lone surrogate, which no upstream, store or encoder treats as text;
 *   - nesting is bounded, so that nothing recursive downstream (validators, encoders, the
 *     store) ever meets an unbounded structure.
 * The walk is iterative: it must not itself overflow on the input it bounds.
 */
import type { FieldError } from '../errors.js';

/** Deepest nesting of arrays and objects in a request body (the body itself is level 1). */
export const MAX_BODY_DEPTH = 64;

/** ES2024 string methods (Node 20 has them; the project's `lib` is ES2023). */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wellFormed = (s: string): boolean => (s as unknown as WellFormed).isWellFormed();

/** A JSON Pointer segment (RFC 6901), with any lone surrogate shown as U+FFFD. */
function segment(key: string): string {
  return (key as unknown as WellFormed).toWellFormed().replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The first defect of a parsed body as a field error with its pointer, or undefined. */
export function checkJsonText(body: unknown): FieldError | undefined {
  const stack: Array<{ value: unknown; pointer: string; depth: number }> = [{ value: body, pointer: '#', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, pointer, depth } = item;
    if (typeof value === 'string') {
      if (!wellFormed(value)) return { pointer, detail: 'is not well-formed Unicode text (it contains a lone UTF-16 surrogate)' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return { pointer, detail: `nests deeper than ${MAX_BODY_DEPTH} levels` };
    // Pushed in reverse so that the first defect in document order is found first.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const at = `${pointer}/${segment(key)}`;
      if (!wellFormed(key)) return { pointer: at, detail: 'is a member name that is not well-formed Unicode text (it contains a lone UTF-16 surrogate)' };
      stack.push({ value: (value as Record<string, unknown>)[key], pointer: at, depth: depth + 1 });
    }
  }
  return undefined;
}
