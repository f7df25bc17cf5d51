/**
 * The contract of a family's parser evaluation on the captured pages in ../shared/fixtures.
 * `bench/eval-parsers.ts` reads MANIFEST.tsv, hands each evaluator the fixtures of its
 * folders, prints one table per family and exits non-zero when a family's score is below its
 * threshold (CI runs it: a parser that regresses on real pages turns CI red).
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

/** One evaluated page: how many expected fields our parser got right, of how many checked. */
export interface EvalRow {
  /** File name without folder and extension. */
  page: string;
  /** The parser's `parse_status`. */
  status: string;
  right: number;
  total: number;
  /** Short human note: which checks failed, counts found, ... */
  detail: string;
  /** Failed checks, printed with `--verbose`: `path: expected X, got Y`. */
  failures?: string[];
}

export interface FamilyEval {
  /** Name printed in the summary, e.g. `mkt1`, `commerce`, `video`, `search engines`. */
  name: string;
  /** Fixture folders this evaluator scores (MANIFEST `family` column). */
  folders: readonly string[];
  /** Least share of expected fields right, over all its pages (e.g. 0.95). */
  threshold: number;
  /** Scores the fixtures of its folders; the pages it does not evaluate are left out. */
  run(fixtures: readonly Fixture[]): EvalRow[];
}

/** A `run` that scores each captured page with `evaluate`, leaving out the pages it does not score. */
export function eachPage(evaluate: (fx: Fixture) => EvalRow | null | undefined): FamilyEval['run'] {
  return (fixtures) => fixtures.flatMap((fx) => evaluate(fx) ?? []);
}
