/**
 * The parsers on the real captured pages (../shared/fixtures, present in CI): every family's
 * evaluator must meet its threshold, so a parser that regresses on real pages turns the suite
 * red — which tests on pages we wrote cannot do. Skipped, saying why, where the fixtures are absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EVALUATORS } from '../../bench/eval/index.js';
import { readManifest } from '../../bench/eval/run.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures');
const present = existsSync(join(FIXTURES, 'MANIFEST.tsv'));

describe.skipIf(!present)('parsers on the captured pages (npm run eval:parsers)', () => {
  const fixtures = present ? readManifest(FIXTURES) : [];
  for (const family of EVALUATORS) {
    test(`${family.name}: at least ${(family.threshold * 100).toFixed(0)}% of expected fields right`, () => {
      const rows = family.run(fixtures.filter((f) => family.folders.includes(f.family)));
      const right = rows.reduce((a, r) => a + r.right, 0);
      const total = rows.reduce((a, r) => a + r.total, 0);
      const failures = rows.flatMap((r) => (r.failures ?? []).map((f) => `${r.page}: ${f}`));
      expect(total, 'the evaluator checked nothing').toBeGreaterThan(0);
      expect({ score: right / total >= family.threshold, right, total, failures: right / total >= family.threshold ? [] : failures }).toEqual({
        score: true,
        right,
        total,
        failures: [],
      });
    });
  }
});
