/**
 * Modules a worker thread loads only when a task needs them: the store (async results), custom
 * extraction, media downloads, crawl parts. Each module graph is heap in every thread that loads
 * it, and a thread serving plain pages needs none of them (bench/README "Plain-only node
 * memory": ~24 MB of PSS a thread).
 *
 * Loaded with `require`, not `import()`: Piscina loads the worker entry with `require` (Node
 * ≥ 20.19 loads ES modules that way, from the same module cache), and when the farm runs from
 * source only tsx's require hook is active in a worker thread — an `import()` of a `.ts` module
 * fails there. The first load is synchronous (a few ms, once per thread).
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `specifier` relative to this folder (farm/worker/); the module is loaded on the first call and kept. */
export function lazy<T>(specifier: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(specifier) as T);
}
