/**
 * Where the captured pages are: `GLEANER_FIXTURES` when set (a worktree that is not a sibling
 * of `shared/`), else `../shared/fixtures` beside the repository (CI and the main checkout).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function fixturesDir(): string {
  const env = process.env.GLEANER_FIXTURES;
  return env && env.trim() !== '' ? resolve(env) : resolve(ROOT, '../shared/fixtures');
}
