/**
 * Runs the family evaluators on the captured pages: one table per family (each page's recall
 * and precision), then a summary table of every family's recall and precision against its
 * thresholds, and whether every family met them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVALUATORS } from './index.js';
import { meets, totals, type EvalRow, type FamilyEval, type Fixture } from './types.js';

export function readManifest(fixturesDir: string): Fixture[] {
  const lines = readFileSync(join(fixturesDir, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  const out: Fixture[] = [];
  for (const line of lines) {
    const [family, local, , , , , expected, notes] = line.split('\t');
    if (!family || !local || /\.expected[.-]/.test(local)) continue;
    const exp = expected && expected.endsWith('.json') && existsSync(join(fixturesDir, expected)) ? join(fixturesDir, expected) : null;
    out.push({ family, file: join(fixturesDir, local), expected: exp, notes: notes ?? '' });
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function table(header: string[], cells: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const fmt = (c: string[]) => c.map((x, i) => x.padEnd(widths[i] as number)).join('  ').trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(fmt(c));
}

function pageTable(rows: EvalRow[], verbose: boolean): void {
  const header = ['page', 'status', 'recall', 'precision', 'detail'];
  const cells = rows.map((r) => [r.page, r.status, `${r.right}/${r.total}`, `${r.claimsRight}/${r.claims}`, r.detail]);
  if (!verbose) return table(header, cells);
  for (const [i, r] of rows.entries()) {
    table(header, [cells[i] as string[]]);
    for (const f of r.failures ?? []) console.log(`    ${f}`);
  }
}

/** Runs every evaluator; true when each met its thresholds. */
export function runFamilies(fixturesDir: string, verbose: boolean, only?: string): boolean {
  const fixtures = readManifest(fixturesDir);
  let ok = true;
  const summary: string[][] = [];
  for (const family of EVALUATORS as FamilyEval[]) {
    if (only && family.name !== only) continue;
    const rows = family.run(fixtures.filter((f) => family.folders.includes(f.family)));
    console.log(`\n## ${family.name}`);
    pageTable(rows, verbose);
    const t = totals(rows);
    const met = meets(t, family.threshold);
    ok &&= met;
    summary.push([family.name, String(rows.length), `${pct(t.recall)} (${t.right}/${t.total})`, `${pct(t.precision)} (${t.claimsRight}/${t.claims})`, `${pct(family.threshold.recall)} / ${pct(family.threshold.precision)}`, met ? 'met' : 'NOT met']);
  }
  if (summary.length) {
    console.log('');
    table(['family', 'pages', 'recall', 'precision', 'thresholds', ''], summary);
  }
  return ok;
}
