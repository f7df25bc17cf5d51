/**
 * First module of the single executable (sea/build.ts bundles it ahead of the CLI): writes the
 * embedded assets — native addons, the farm's worker bundles — into a private cache folder the
 * first time this build starts, and tells the rest of the bundle where they are.
 *
 * The folder is versioned by the build's content hash (`<version>-<build id>`), so an upgrade
 * never loads an older build's addons, and two builds can run side by side. Extraction goes to
 * a temporary sibling folder that is renamed into place only when complete: two processes
 * starting at once (the service and an operator's `gleaner keys`) never see half a folder.
 */
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SeaManifest {
  version: string;
  commit: string;
  buildId: string;
  /** Asset keys; each is also its path relative to the cache folder. */
  assets: string[];
}

interface SeaModule {
  isSea(): boolean;
  getAsset(key: string, encoding?: string): ArrayBuffer | string;
}

/** Where versioned cache folders live: GLEANER_CACHE_DIR, systemd's CacheDirectory, XDG, home, tmp. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GLEANER_CACHE_DIR) return env.GLEANER_CACHE_DIR;
  // systemd sets CACHE_DIRECTORY for units with CacheDirectory= (install-service writes one).
  if (env.CACHE_DIRECTORY) return env.CACHE_DIRECTORY.split(':')[0];
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'gleaner');
  const home = env.HOME || homedir();
  if (home && home !== '/') return join(home, '.cache', 'gleaner');
  return join(tmpdir(), `gleaner-${process.getuid?.() ?? 'user'}`);
}

function extract(sea: SeaModule, manifest: SeaManifest, dir: string): void {
  if (existsSync(join(dir, '.complete'))) return;
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const key of manifest.assets) {
    const path = join(staging, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, new Uint8Array(sea.getAsset(key) as ArrayBuffer));
    if (key.endsWith('.node')) chmodSync(path, 0o755);
  }
  writeFileSync(join(staging, '.complete'), `${manifest.buildId}\n`);
  try {
    renameSync(staging, dir);
  } catch (err) {
    // Another process finished first: its copy is identical (same build id). Use it.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, '.complete'))) throw err;
  }
}

function boot(): void {
  // process.getBuiltinModule (Node 20.16+) works in both the SEA's CommonJS main script and
  // under tests (ESM), where this module only exports cacheRoot.
  const sea = (process as unknown as { getBuiltinModule(id: string): unknown }).getBuiltinModule('node:sea') as SeaModule | undefined;
  if (!sea?.isSea()) return;
  const manifest = JSON.parse(sea.getAsset('manifest.json', 'utf8') as string) as SeaManifest;
  const root = cacheRoot();
  const dir = join(root, `${manifest.version}-${manifest.buildId}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    extract(sea, manifest, dir);
  } catch (err) {
    process.stderr.write(
      `gleaner: cannot write the executable's private files to ${dir} (${(err as Error).message}); ` +
        `set GLEANER_CACHE_DIR to a writable folder on a filesystem that allows executables\n`,
    );
    process.exit(70);
  }
  const g = globalThis as Record<string, unknown>;
  g.__gleanerCacheDir = dir;
  g.__gleanerBuild = { version: manifest.version, commit: manifest.commit, buildId: manifest.buildId };
  // The bundle's `import.meta.url` (sea/build.ts defines it as this global) is that of the farm's
  // pool module inside the cache folder, so `new URL('./worker/main.js', import.meta.url)`
  // names the extracted worker bundle.
  g.__gleanerImportMetaUrl = pathToFileURL(join(dir, 'farm', 'pool.js')).href;
}

boot();
