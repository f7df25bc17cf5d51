/**
 * The parsers on the real captured pages (../shared/fixtures, present in CI; elsewhere
 * GLEANER_FIXTURES): every family's field-level recall and precision must meet its threshold,
 * so a parser that regresses on real pages turns the suite red — which tests on pages we wrote
 * cannot do. Skipped, saying why, where the fixtures are absent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fixturesDir } from '../../bench/eval/fixtures-dir.js';
import { EVALUATORS } from '../../bench/eval/index.js';
import { readManifest } from '../../bench/eval/run.js';
import { totals } from '../../bench/eval/types.js';

const FIXTURES = fixturesDir();
const present = existsSync(join(FIXTURES, 'MANIFEST.tsv'));

describe.skipIf(!present)('parsers on the captured pages (npm run eval:parsers)', () => {
  const fixtures = present ? readManifest(FIXTURES) : [];
  for (const family of EVALUATORS) {
    const { recall, precision } = family.threshold;
    test(`${family.name}: recall ≥ ${(recall * 100).toFixed(0)}% and precision ≥ ${(precision * 100).toFixed(0)}%`, () => {
      const rows = family.run(fixtures.filter((f) => family.folders.includes(f.family)));
      const t = totals(rows);
      expect(t.total, 'the evaluator checked nothing').toBeGreaterThan(0);
      const failures = rows.flatMap((r) => (r.failures ?? []).map((f) => `${r.page}: ${f}`));
      const met = t.recall >= recall && t.precision >= precision;
      // On failure the list says which fields and items were wrong.
      expect({ met, failures: met ? [] : failures }).toEqual({ met: true, failures: [] });
    });
  }
});
