/**
 * `gleaner --version`: the package version and the commit it was built from. The single
 * executable carries both in its manifest (sea/boot.ts); a checkout reads package.json and asks
 * git.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  commit: string;
  /** The executable's build id, when running as one. */
  buildId?: string;
}

export function buildInfo(): BuildInfo {
  const sea = (globalThis as { __gleanerBuild?: BuildInfo }).__gleanerBuild;
  if (sea) return sea;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // not found: a copy without its package.json
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout
  }
  return { version, commit };
}

export function versionLine(): string {
  const b = buildInfo();
  return `gleaner ${b.version} (commit ${b.commit}${b.buildId ? `, build ${b.buildId}` : ''}, node ${process.versions.node}, ${process.platform}-${process.arch})`;
}
