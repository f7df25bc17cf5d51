/**
 * `npm run dist`: the single executable `dist/gleaner-linux-<arch>` (Node's single executable
 * applications). Steps:
 * 1. esbuild bundles the CLI (sea/entry.ts) into one CommonJS script, and the farm's worker
 *    threads into scripts of their own (a worker thread needs a file to run): the farm worker
 *    and Piscina's worker bootstrap. (The shared browser mode's server process is not part of
 *    the executable: it runs the default per-worker mode.)
 * 2. Native addons (LMDB, msgpackr's extension, uWebSockets.js, wreq-js's client) are taken from
 *    node_modules for this Node's ABI and platform; their packages' loaders are replaced by
 *    `sea/natives.ts`.
 * 3. Everything but the main script is a SEA asset, listed in `manifest.json`; sea/boot.ts
 *    writes them to a versioned cache folder on first start.
 * 4. `node --experimental-sea-config` makes the blob; postject injects it into a copy of this
 *    `node` binary (symbols it does not need stripped when `strip` is available).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import type { SeaManifest } from './boot.js';
import { NATIVE_FILES, type NativeName } from './natives.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'sea');
const assetsDir = join(out, 'assets');
const NATIVES_MODULE = join(root, 'sea', 'natives.ts');

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function commit(): string {
  if (process.env.GLEANER_COMMIT) return process.env.GLEANER_COMMIT;
  try {
    const id = sh('git', ['rev-parse', '--short=12', 'HEAD']);
    const dirty = sh('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
    return dirty ? `${id}-dirty` : id;
  } catch {
    return 'unknown';
  }
}

/** The folder of package `name` as Node would find it from `from` (packages' `exports` may hide package.json). */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`package ${name} not found from ${from}`);
  }
}

/** Source file of each native addon for this platform and this Node's ABI. */
function nativeSources(): Record<NativeName, string> {
  const { platform, arch } = process;
  const abi = process.versions.modules;
  const first = (candidates: string[], what: string): string => {
    const found = candidates.find((c) => existsSync(c));
    if (!found) throw new Error(`no ${what} addon for ${platform}-${arch} (Node ABI ${abi}); looked for:\n  ${candidates.join('\n  ')}`);
    return found;
  };
  const lmdbDir = packageDir('lmdb', root);
  const lmdbBinDir = packageDir(`@lmdb/lmdb-${platform}-${arch}`, lmdbDir);
  const extractDir = packageDir(`@msgpackr-extract/msgpackr-extract-${platform}-${arch}`, packageDir('msgpackr-extract', lmdbDir));
  const uwsDir = packageDir('uWebSockets.js', root);
  // wreq-js is N-API (one file for every Node ABI), in one package per platform and libc.
  const wreqDir = packageDir(`@wreq-js/binding-${platform}-${arch}-gnu`, packageDir('wreq-js', root));
  const wreqMain = (JSON.parse(readFileSync(join(wreqDir, 'package.json'), 'utf8')) as { main: string }).main;
  return {
    lmdb: first([join(lmdbBinDir, `node.abi${abi}.glibc.node`), join(lmdbBinDir, 'node.napi.glibc.node')], 'LMDB'),
    'msgpackr-extract': first([join(extractDir, `node.abi${abi}.glibc.node`), join(extractDir, 'node.napi.glibc.node')], 'msgpackr-extract'),
    uws: first([join(uwsDir, 'binaries', `uws_${platform}_${arch}_${abi}.node`)], 'uWebSockets.js'),
    wreq: first([join(wreqDir, wreqMain)], 'wreq-js'),
  };
}

/** Text replacements inside one package file; the build fails if a text is gone (an upgrade changed it). */
function patch(name: string, filter: RegExp, edits: Array<[string | RegExp, string]>): Plugin {
  return {
    name,
    setup(b) {
      b.onLoad({ filter }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        for (const [from, to] of edits) {
          const found = typeof from === 'string' ? text.includes(from) : from.test(text);
          if (!found) throw new Error(`${name}: ${relative(root, args.path)} no longer contains ${String(from)}`);
          text = typeof from === 'string' ? text.replace(from, to) : text.replace(from, to);
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
}

/** Each package's native loader becomes `loadNative(<name>)`. */
const natives: Plugin = {
  name: 'gleaner-natives',
  setup(b) {
    b.onResolve({ filter: /^node-gyp-build-optional-packages$/ }, (args) => ({
      path: args.importer.includes('msgpackr-extract') ? 'msgpackr-extract' : 'lmdb',
      namespace: 'gleaner-native-loader',
    }));
    b.onResolve({ filter: /^msgpackr-extract$/ }, () => ({ path: 'msgpackr-extract', namespace: 'gleaner-native' }));
    b.onResolve({ filter: /^uWebSockets\.js$/ }, () => ({ path: 'uws', namespace: 'gleaner-native' }));
    const natives = JSON.stringify(NATIVES_MODULE);
    b.onLoad({ filter: /.*/, namespace: 'gleaner-native-loader' }, (args) => ({
      contents: `const { loadNative } = require(${natives});\nmodule.exports = () => loadNative(${JSON.stringify(args.path)});\n`,
      resolveDir: root,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'gleaner-native' }, (args) => ({
      contents: `const { loadNative } = require(${natives});\nmodule.exports = loadNative(${JSON.stringify(args.path)});\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * patchright-core (the farm's driver; playwright-core before it) reads its
 * package.json and browsers.json by computed paths; make them static requires.
 */
const playwrightPackage = patch('playwright-package-json', /(playwright|patchright)-core[\\/]lib[\\/]coreBundle\.js$/, [
  [/require\(import_path\d+\.default\.join\(packageRoot, "package\.json"\)\)/, 'require("../package.json")'],
  [/require\(import_path\d+\.default\.join\(packageRoot, "browsers\.json"\)\)/, 'require("../browsers.json")'],
]);

/**
 * wreq-js requires its platform's binding package through an alias of `require` (its CJS and
 * ESM builds alike), which no bundler follows: the alias becomes the embedded addon.
 */
const wreqBinding = patch('wreq-js-binding', /wreq-js[\\/]dist[\\/]wreq-js\.c?js$/, [
  [/const nativeRequire = (require|createRequire\(import\.meta\.url\));/, `const nativeRequire = () => require(${JSON.stringify(NATIVES_MODULE)}).loadNative("wreq");`],
]);

/** Piscina starts its threads on `<its dir>/worker.js`: the extracted bundle instead. */
const piscinaWorkerPath = patch(
  'piscina-worker-path',
  /piscina[\\/]dist[\\/]index\.js$/,
  [["(0, node_path_1.resolve)(__dirname, 'worker.js')", "require('node:path').join(globalThis.__gleanerCacheDir, 'piscina-worker.js')"]],
);

/**
 * Inside a worker bundle, `piscina` is what a task file may use of it: `workerData` (the
 * thread's own) and `move` with its symbols (farm/worker/main.ts transfers encoded results), and
 * the `Piscina` class itself for a pool of the thread's own (farm/worker/markdown-helper.ts; its
 * worker script path patched as in the main bundle). `move` must mark values with the very
 * Symbol instance the thread's Piscina worker script checks (an unregistered `Symbol()` in its
 * own bundle), so that bundle publishes its marker (PISCINA_WORKER_ENTRY) and this shim calls it.
 */
const piscinaInWorker: Plugin = {
  name: 'piscina-in-worker',
  setup(b) {
    b.onResolve({ filter: /^piscina$/ }, () => ({ path: 'piscina', namespace: 'piscina-worker-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'piscina-worker-shim' }, () => ({
      resolveDir: join(packageDir('piscina', root), 'dist'),
      contents: [
        'const p = globalThis.__gleanerPiscina;',
        "module.exports = { Piscina: require('./index.js').Piscina, workerData: require('node:worker_threads').workerData, transferableSymbol: p.kTransferable, valueSymbol: p.kValue,",
        "  move(value) { if (value == null || typeof value !== 'object' || !(p.kTransferable in value) || !(p.kValue in value)) throw new TypeError('move: only { [transferableSymbol], [valueSymbol] } objects in the executable'); p.markMovable(value); return value; } };",
        '',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** Piscina's worker script, publishing its movable marker for the worker bundle's shim first. */
function piscinaWorkerEntry(dist: string): string {
  const at = (f: string) => JSON.stringify(join(dist, f));
  return [
    `const symbols = require(${at('symbols.js')});`,
    `const common = require(${at('common.js')});`,
    'globalThis.__gleanerPiscina = { kTransferable: symbols.kTransferable, kValue: symbols.kValue, markMovable: common.markMovable };',
    `require(${at('worker.js')});`,
    '',
  ].join('\n');
}

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  // Optional packages the bundled libraries try inside try/catch; absent is fine.
  external: ['@napi-rs/nice', 'bufferutil', 'utf-8-validate', 'fsevents', 'chromium-bidi/*'],
  absWorkingDir: root,
};

async function bundle(): Promise<string[]> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(assetsDir, { recursive: true });
  // The worker bundle is `<cache>/farm/worker/main.js`: the cache folder is two levels up (a pool of
  // its own finds Piscina's worker script there, as the main bundle does).
  const workerBanner =
    "var __gleanerImportMetaUrl = require('node:url').pathToFileURL(__filename).href; globalThis.__gleanerCacheDir ??= require('node:path').resolve(__dirname, '..', '..');";
  await build({
    ...COMMON,
    entryPoints: [join(root, 'sea', 'entry.ts')],
    outfile: join(out, 'app.cjs'),
    define: { 'import.meta.url': 'globalThis.__gleanerImportMetaUrl' },
    plugins: [natives, playwrightPackage, wreqBinding, piscinaWorkerPath],
  });
  await build({
    ...COMMON,
    entryPoints: [join(root, 'farm', 'worker', 'main.ts')],
    outfile: join(assetsDir, 'farm', 'worker', 'main.js'),
    banner: { js: workerBanner },
    define: { 'import.meta.url': '__gleanerImportMetaUrl' },
    plugins: [natives, playwrightPackage, wreqBinding, piscinaInWorker, piscinaWorkerPath],
  });
  // A render thread's Markdown helper thread (farm/worker/markdown-helper.ts) loads this file beside the worker bundle.
  await build({
    ...COMMON,
    entryPoints: [join(root, 'farm', 'worker', 'markdown-thread.ts')],
    outfile: join(assetsDir, 'farm', 'worker', 'markdown-thread.js'),
  });
  const piscinaDist = join(packageDir('piscina', root), 'dist');
  await build({
    ...COMMON,
    stdin: { contents: piscinaWorkerEntry(piscinaDist), resolveDir: piscinaDist, loader: 'js', sourcefile: 'piscina-worker-entry.js' },
    outfile: join(assetsDir, 'piscina-worker.js'),
    plugins: [natives],
  });
  const sources = nativeSources();
  for (const [name, file] of Object.entries(NATIVE_FILES) as Array<[NativeName, string]>) {
    mkdirSync(dirname(join(assetsDir, file)), { recursive: true });
    copyFileSync(sources[name], join(assetsDir, file));
  }
  return ['farm/worker/main.js', 'farm/worker/markdown-thread.js', 'piscina-worker.js', ...Object.values(NATIVE_FILES)];
}

async function main(): Promise<void> {
  const started = Date.now();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const assets = await bundle();
  const hash = createHash('sha256').update(readFileSync(join(out, 'app.cjs')));
  for (const key of assets) hash.update(key).update(readFileSync(join(assetsDir, key)));
  const manifest: SeaManifest = { version: pkg.version, commit: commit(), buildId: hash.digest('hex').slice(0, 12), assets };
  writeFileSync(join(assetsDir, 'manifest.json'), JSON.stringify(manifest));
  const seaConfig = {
    main: join(out, 'app.cjs'),
    output: join(out, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    // V8's code cache of the main script: a faster first parse of the ~10 MB bundle.
    useCodeCache: true,
    assets: Object.fromEntries(['manifest.json', ...assets].map((key) => [key, join(assetsDir, key)])),
  };
  writeFileSync(join(out, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
  execFileSync(process.execPath, ['--experimental-sea-config', join(out, 'sea-config.json')], { cwd: root, stdio: 'inherit' });

  const target = join(root, 'dist', `gleaner-${process.platform}-${process.arch}`);
  rmSync(target, { force: true });
  copyFileSync(process.execPath, target);
  chmodSync(target, 0o755);
  try {
    // The distribution's node keeps its debug and static symbols (~13 MB); the executable needs
    // neither (native addons link against the dynamic symbols, which strip keeps). Stripping
    // must come before the blob is injected: a stripped executable with a blob does not start.
    execFileSync('strip', ['--strip-unneeded', target], { stdio: 'ignore' });
  } catch {
    // no binutils: a larger file, the same program
  }
  // postject ships no types; its one function is declared here.
  const postject = 'postject';
  const { inject } = (await import(postject)) as {
    inject(file: string, name: string, data: Buffer, opts: { sentinelFuse: string; overwrite?: boolean }): Promise<void>;
  };
  const noted = await quietLief(() =>
    inject(target, 'NODE_SEA_BLOB', readFileSync(seaConfig.output), {
      sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
      overwrite: true,
    }),
  );
  if (noted > 0) process.stdout.write(`dist: postject (LIEF) found no names for ${noted} note sections of node's ELF file and kept them as they are; harmless, not printed\n`);
  const mb = (statSync(target).size / 1024 / 1024).toFixed(1);
  process.stdout.write(`dist: ${relative(root, target)} (${mb} MB, ${manifest.version} ${manifest.commit}, build ${manifest.buildId}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * postject's ELF library (LIEF) warns "Can't find string offset for section name '.note.100'"
 * once per note section of Node's binary that has no name in the section-name table (Node's
 * official builds carry a dozen). The notes are copied unchanged and the executable works
 * (test/integration/executable.test.ts runs it): those lines are counted and left out, every
 * other line passes through.
 */
async function quietLief<T>(run: () => Promise<T>): Promise<number> {
  const NOTE = /Can't find string offset for section name '\.note[^']*'/;
  let dropped = 0;
  const originals = { out: process.stdout.write, err: process.stderr.write };
  const filter = (write: typeof process.stdout.write, stream: NodeJS.WriteStream): typeof process.stdout.write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const kept = text.split('\n').filter((line) => !(NOTE.test(line) && ++dropped));
      if (kept.join('\n') === '' && text !== '') return true;
      return (write as (...a: unknown[]) => boolean).call(stream, kept.join('\n'), ...rest);
    }) as typeof process.stdout.write;
  process.stdout.write = filter(originals.out, process.stdout);
  process.stderr.write = filter(originals.err, process.stderr);
  try {
    await run();
  } finally {
    process.stdout.write = originals.out;
    process.stderr.write = originals.err;
  }
  return dropped;
}

main().catch((err: unknown) => {
  process.stderr.write(`dist: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
