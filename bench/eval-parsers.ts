/**
 * Scores the built-in parsers on the captured pages in ../shared/fixtures (relative to the repo
 * root): one evaluator per family (bench/eval/index.ts), each against its threshold. Prints one
 * table per family and a summary; exits 1 when a family is below its threshold. Reads the
 * fixtures at run time; copies nothing.
 *
 *   npm run eval:parsers [-- --family <name>] [-- --verbose]
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturesDir } from './eval/fixtures-dir.js';
import { runFamilies } from './eval/run.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = fixturesDir();
const VERBOSE = process.argv.includes('--verbose');
const ONLY = process.argv.includes('--family') ? process.argv[process.argv.indexOf('--family') + 1] : undefined;

if (!existsSync(join(FIXTURES, 'MANIFEST.tsv'))) {
  console.log(`Fixture folder ${FIXTURES} is absent: parser evaluation skipped (it reads captured pages at run time).`);
} else if (!runFamilies(FIXTURES, VERBOSE, ONLY)) {
  process.exitCode = 1;
}
