/**
 * Native addons inside the single executable. The build (sea/build.ts) replaces each package's
 * own loader (`node-gyp-build-optional-packages` for LMDB and msgpackr's extension, the
 * `uws_<platform>_<arch>_<abi>.node` require of uWebSockets.js, wreq-js's `nativeRequire` of its
 * `@wreq-js/binding-<platform>` package) with a call to `loadNative`,
 * which `process.dlopen`s the addon from the private cache folder the boot step extracted it to.
 *
 * Runs on the main thread (the SEA's main script, where `require` reaches only built-ins) and
 * in worker threads (bundles read from the cache folder): both find the folder the same way.
 */
import { dirname, join } from 'node:path';

/** The file name of each addon inside the cache folder (sea/build.ts writes the same names). */
export const NATIVE_FILES = {
  lmdb: 'natives/lmdb.node',
  'msgpackr-extract': 'natives/msgpackr-extract.node',
  uws: 'natives/uws.node',
  wreq: 'natives/wreq-js.node',
} as const;

export type NativeName = keyof typeof NATIVE_FILES;

const loaded = new Map<NativeName, unknown>();

/**
 * The cache folder: set by the boot step on the main thread; a worker bundle lives in
 * `<cache>/farm/worker/`, so it derives the folder from its own file name.
 */
export function cacheDir(): string {
  const fromBoot = (globalThis as { __gleanerCacheDir?: string }).__gleanerCacheDir;
  if (fromBoot) return fromBoot;
  return join(dirname(__filename), '..', '..');
}

export function loadNative(name: NativeName): unknown {
  let exports = loaded.get(name);
  if (exports === undefined) {
    const mod = { exports: {} as unknown };
    process.dlopen(mod, join(cacheDir(), NATIVE_FILES[name]));
    exports = mod.exports;
    loaded.set(name, exports);
  }
  return exports;
}
