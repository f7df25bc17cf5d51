/**
 * A family's field-level evaluation: every fixture with a field-level expectation (its own
 * `.expected.json` in the format, or a hand-written one under bench/eval/expected/) is parsed
 * by its route's parser with the URL it was captured from, turned into the format's view by
 * the family's adapter, and scored (score.ts). Families that also check reference outputs of
 * other shapes add those rows' counts to the same page (`mergeRows`).
 */
import { readFileSync } from 'node:fs';
import { moneyContext } from '../../core/parsers/money.js';
import type { Parsed } from '../../core/parsers/types.js';
import { parsePage } from '../../core/targets/index.js';
import { type Expectation, loadExpectation, pageName } from './expectation.js';
import { scorePage, type View } from './score.js';
import type { EvalRow, Fixture } from './types.js';

export interface FieldFamily {
  /** The route for a page whose expectation names none; null leaves the page out. */
  route(fx: Fixture): string | null;
  /** The page's capture URL when the expectation names none. */
  url(fx: Fixture): string;
  /** The route's JSON as the format's view. */
  view(route: string, json: Record<string, unknown>): View;
}

export interface FieldResult {
  row: EvalRow;
  parsed: Parsed;
  route: string;
  url: string;
}

const short = (v: unknown) => JSON.stringify(v)?.slice(0, 140);

/** Reads a captured page as the parser gets it (a UTF-8 BOM dropped). */
export function readPage(file: string): string {
  return readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
}

export function fieldRow(fx: Fixture, fam: FieldFamily, exp: Expectation | null = loadExpectation(fx)): FieldResult | null {
  if (!exp) return null;
  const route = exp.route ?? fam.route(fx);
  if (!route) return null;
  const url = exp.url ?? fam.url(fx);
  const parsed = parsePage(route, { html: readPage(fx.file), url, page: 1, params: exp.params ?? {} });
  if (!parsed) throw new Error(`${pageName(fx.file)}: no parser for ${route}`);
  const json = (parsed.json ?? {}) as Record<string, unknown>;
  const score = scorePage(exp, fam.view(route, json), json, moneyContext(url));
  const failed = score.outcomes.filter((o) => !o.ok);
  const claimed = score.outcomes.filter((o) => o.claimed);
  const found = fam.view(route, json).items;
  const row: EvalRow = {
    page: pageName(fx.file),
    status: parsed.status,
    right: score.outcomes.length - failed.length,
    total: score.outcomes.length,
    claims: claimed.length + score.itemClaims,
    claimsRight: claimed.filter((o) => o.ok).length + score.itemsRight,
    detail: [
      failed.length ? `wrong: ${failed.map((o) => o.name).join(', ')}` : 'all fields right',
      found ? `${found.length} items${exp.count !== undefined ? ` (page shows ${exp.count})` : ''}` : '',
      score.itemNotes.length ? `${score.itemNotes.length} items not organic` : '',
    ]
      .filter(Boolean)
      .join('; '),
    failures: [...failed.map((o) => `${o.name}: expected ${short(o.expected)}, got ${short(o.got)}`), ...score.itemNotes],
  };
  return { row, parsed, route, url };
}

/** One row for a page scored both ways: counts added, details joined. */
export function mergeRows(a: EvalRow | null, b: EvalRow | null): EvalRow | null {
  if (!a || !b) return a ?? b;
  return {
    page: a.page,
    status: a.status,
    right: a.right + b.right,
    total: a.total + b.total,
    claims: a.claims + b.claims,
    claimsRight: a.claimsRight + b.claimsRight,
    detail: `${a.detail}; ${b.detail}`,
    failures: [...(a.failures ?? []), ...(b.failures ?? [])],
  };
}
