/**
 * The contract of a family's parser evaluation on the captured pages in ../shared/fixtures.
 * `bench/eval-parsers.ts` reads MANIFEST.tsv, hands each evaluator the fixtures of its
 * folders, prints one table per family with its recall and precision, and exits non-zero when
 * a family is below a threshold (the suite's parser-eval test turns CI red the same way).
 */

/** One row of MANIFEST.tsv, paths made absolute. */
export interface Fixture {
  /** Fixture folder (MANIFEST `family` column), e.g. `marketplace-product`. */
  family: string;
  /** Absolute path of the captured page (HTML or JSON). */
  file: string;
  /** Absolute path of the expected output beside it, when MANIFEST names one that exists. */
  expected: string | null;
  /** MANIFEST `notes`: what the page is (domain, language, layout, what it shows). */
  notes: string;
}

/** One evaluated page. */
export interface EvalRow {
  /** File name without folder and extension. */
  page: string;
  /** The parser's `parse_status`. */
  status: string;
  /** Expected fields right, of expected fields checked (recall). */
  right: number;
  total: number;
  /** Values the parser claimed (a non-empty field, a returned list item), and how many are right (precision). */
  claims: number;
  claimsRight: number;
  /** Short human note: which checks failed, counts found, ... */
  detail: string;
  /** Failed checks, printed with `--verbose`: `path: expected X, got Y`. */
  failures?: string[];
}

export interface FamilyEval {
  /** Name printed in the summary: `se1`, `se2`, `mkt1`, `retail`, `video`, ... */
  name: string;
  /** Fixture folders this evaluator scores (MANIFEST `family` column). */
  folders: readonly string[];
  /** Least recall and precision over all its pages (CI: 0.95 each). */
  threshold: { recall: number; precision: number };
  /** Scores the fixtures of its folders; the pages it does not evaluate are left out. */
  run(fixtures: readonly Fixture[]): EvalRow[];
}

/** A `run` that scores each captured page with `evaluate`, leaving out the pages it does not score. */
export function eachPage(evaluate: (fx: Fixture) => EvalRow | null | undefined): FamilyEval['run'] {
  return (fixtures) => fixtures.flatMap((fx) => evaluate(fx) ?? []);
}

export const CI_THRESHOLD = { recall: 0.95, precision: 0.95 } as const;

export interface Totals {
  right: number;
  total: number;
  claims: number;
  claimsRight: number;
  recall: number;
  precision: number;
}

export function totals(rows: readonly EvalRow[]): Totals {
  const sum = (k: 'right' | 'total' | 'claims' | 'claimsRight') => rows.reduce((a, r) => a + r[k], 0);
  const t = { right: sum('right'), total: sum('total'), claims: sum('claims'), claimsRight: sum('claimsRight') };
  return { ...t, recall: t.total === 0 ? 0 : t.right / t.total, precision: t.claims === 0 ? 1 : t.claimsRight / t.claims };
}

export function meets(t: Totals, threshold: FamilyEval['threshold']): boolean {
  return t.total > 0 && t.recall >= threshold.recall && t.precision >= threshold.precision;
}
