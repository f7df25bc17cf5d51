/**
 * Modules a worker thread loads only when a task needs them: the store (async results), custom
 * extraction, media downloads, crawl parts. Each module graph is heap in every thread that loads
 * it, and a thread serving plain pages needs none of them (bench/README "Plain-only node
 * memory": ~24 MB of PSS a thread).
 *
 * `import()` first (the compiled farm; the farm's modules in-process under vitest), then
 * `require`: when the farm runs from source, Piscina loads the worker entry with `require` and
 * only tsx's require hook is active in a worker thread, so an `import()` of a `.ts` module
 * fails there while `require` (Node ≥ 20.19 loads ES modules that way too) finds it.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The module is loaded on the first call and kept. `load` is the caller's own `import()` of a
 * literal path, so that a bundler sees and bundles the module (the single executable's worker
 * bundle has no files to import at run time); `specifier` is the same path relative to this
 * folder (farm/worker/), for `require` when running from source.
 */
export function lazy<T>(specifier: string, importer: () => Promise<T>): () => Promise<T> {
  let mod: Promise<T> | undefined;
  return () => {
    mod ??= load<T>(specifier, importer);
    // A failed load is not kept: the next task tries again.
    mod.catch(() => (mod = undefined));
    return mod;
  };
}

async function load<T>(specifier: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    return require(specifier) as T;
  }
}
