/**
 * Runs the family evaluators on ../shared/fixtures: one table per family, a summary line per
 * family with its score against its threshold, and whether every family met its threshold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVALUATORS } from './index.js';
import type { EvalRow, FamilyEval, Fixture } from './types.js';

export function readManifest(fixturesDir: string): Fixture[] {
  const lines = readFileSync(join(fixturesDir, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  const out: Fixture[] = [];
  for (const line of lines) {
    const [family, local, , , , , expected, notes] = line.split('\t');
    if (!family || !local) continue;
    const exp = expected && expected.endsWith('.json') && existsSync(join(fixturesDir, expected)) ? join(fixturesDir, expected) : null;
    out.push({ family, file: join(fixturesDir, local), expected: exp, notes: notes ?? '' });
  }
  return out;
}

function table(rows: EvalRow[], verbose: boolean): void {
  const header = ['page', 'status', 'right', 'detail'];
  const cells = rows.map((r) => [r.page, r.status, `${r.right}/${r.total}`, r.detail]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const fmt = (c: string[]) => c.map((x, i) => x.padEnd(widths[i] as number)).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const [i, c] of cells.entries()) {
    console.log(fmt(c));
    if (verbose) for (const f of rows[i]?.failures ?? []) console.log(`    ${f}`);
  }
}

/** Runs every evaluator; true when each met its threshold. */
export function runFamilies(fixturesDir: string, verbose: boolean, only?: string): boolean {
  const fixtures = readManifest(fixturesDir);
  let ok = true;
  const summary: string[] = [];
  for (const family of EVALUATORS as FamilyEval[]) {
    if (only && family.name !== only) continue;
    const mine = fixtures.filter((f) => family.folders.includes(f.family));
    const rows = family.run(mine);
    console.log(`\n## ${family.name}`);
    table(rows, verbose);
    const right = rows.reduce((a, r) => a + r.right, 0);
    const total = rows.reduce((a, r) => a + r.total, 0);
    const score = total === 0 ? 0 : right / total;
    const met = total > 0 && score >= family.threshold;
    ok &&= met;
    summary.push(`${family.name}: ${right}/${total} expected fields right (${(score * 100).toFixed(1)}%) on ${rows.length} pages; threshold ${(family.threshold * 100).toFixed(0)}%: ${met ? 'met' : 'NOT met'}`);
  }
  if (summary.length) console.log(`\n${summary.join('\n')}`);
  return ok;
}
