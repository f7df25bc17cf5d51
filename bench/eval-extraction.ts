/**
 * Precision and recall of the offline extractor (`json.schema` with no model).
 *
 * 1. The corpus (bench/extraction/): hand-written pages after real sites, several schemas
 *    each, with expected values and fields the page lacks (which must stay unfilled). Always
 *    runs; test/unit/extraction-eval.test.ts holds its precision at 95 % or more.
 * 2. The captured pages of ../shared/fixtures that come with expected outputs (MANIFEST.tsv),
 *    when the folder is there (`GLEANER_FIXTURES` names another): for each page a schema asking
 *    for the expected fields, one extraction, a normalised comparison per field.
 *
 *   node --import tsx bench/eval-extraction.ts [--verbose]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractJson } from '../core/extraction/index.js';
import { parseHtml } from '../core/extraction/dom.js';
import { readStructuredData } from '../core/extraction/structured-data.js';
import { parseNumber } from '../core/extraction/coerce.js';
import { CORPUS } from './extraction/corpus.js';
import { type FieldResult, precision, recall, runCorpus, totals } from './extraction/score.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = process.env.GLEANER_FIXTURES ?? resolve(ROOT, '../shared/fixtures');
const VERBOSE = process.argv.includes('--verbose');
const FAMILIES = new Set(['marketplace-product', 'video-watch', 'video-channel', 'retail']);

/** Fields of a ytdl-core info file that describe the page (the rest is stream data). */
const YTDL_FIELDS = ['title', 'description', 'ownerChannelName', 'lengthSeconds', 'viewCount', 'category', 'publishDate', 'uploadDate', 'videoId', 'channelId', 'isFamilySafe', 'keywords'];

/** Expectations the MANIFEST states in its notes rather than in a file. */
const NOTED: Record<string, Record<string, unknown>> = {
  'retail/pricechecker_bestbuy_product_anker-A1383H11-1.html': { model_number: 'A1383H11-1' },
  'retail/pricechecker_microcenter_product.html': { rating: 5 },
};

interface Case {
  file: string;
  family: string;
  expected: Record<string, unknown>;
}

function cases(): { list: Case[]; skipped: string[] } {
  const rows = readFileSync(join(FIXTURES, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  const list: Case[] = [];
  const skipped: string[] = [];
  for (const [family, file, , , , , expectedFile] of rows) {
    if (!family || !file || !FAMILIES.has(family) || !file.endsWith('.html')) continue;
    if (NOTED[file]) {
      list.push({ file, family, expected: NOTED[file] as Record<string, unknown> });
      continue;
    }
    if (!expectedFile || !expectedFile.endsWith('.json') || !existsSync(join(FIXTURES, expectedFile))) continue;
    const raw = JSON.parse(readFileSync(join(FIXTURES, expectedFile), 'utf8')) as Record<string, unknown>;
    let expected: Record<string, unknown> = {};
    if (expectedFile.includes('.expected-info.')) {
      const vd = (raw.videoDetails ?? {}) as Record<string, unknown>;
      for (const k of YTDL_FIELDS) if (vd[k] !== undefined && typeof vd[k] !== 'object') expected[k] = vd[k];
      if (Array.isArray(vd.keywords)) expected.keywords = vd.keywords;
    } else if (!Object.keys(raw).some((k) => k.includes('['))) {
      expected = Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('_')));
    }
    if (Object.keys(expected).length === 0) skipped.push(`${file} (its expectation is a list the page renders with scripts)`);
    else list.push({ file, family, expected });
  }
  return { list, skipped };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

/** The schema a caller would write for these fields. */
function schemaFor(expected: Record<string, unknown>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(expected)) {
    if (k === 'lang') properties[k] = { type: 'string', pattern: '^[a-z]{2}$', description: 'two-letter language code' };
    else if (v === null) properties[k] = { type: ['string', 'null'] };
    else if (typeof v === 'boolean') properties[k] = { type: 'boolean' };
    else if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v) && k !== 'videoId')) properties[k] = { type: Number.isInteger(Number(v)) ? 'integer' : 'number' };
    else if (Array.isArray(v)) properties[k] = { type: 'array', items: { type: 'string' } };
    else if (typeof v === 'string' && ISO_DATE.test(v)) properties[k] = { type: 'string', format: v.includes('T') ? 'date-time' : 'date' };
    else if (typeof v === 'string' && /^https?:\/\//.test(v)) properties[k] = { type: 'string', format: 'uri' };
    else properties[k] = { type: 'string' };
  }
  return { type: 'object', properties };
}

function normText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s*(…|\.\.\.)/g, '...')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\/$/, '');
}

function same(expected: unknown, got: unknown): boolean {
  if (expected === null) return got === null || got === undefined;
  if (got === null || got === undefined) return false;
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return false;
    const a = new Set(expected.map((x) => normText(String(x))));
    const b = new Set(got.map((x) => normText(String(x))));
    return a.size === b.size && [...a].every((x) => b.has(x));
  }
  // A price the expectation writes as text ("10,99") is the same amount however the answer writes it.
  if (typeof expected === 'string' && /^\d[\d.,]*$/.test(expected)) return parseNumber(expected) === (typeof got === 'number' ? got : parseNumber(String(got)));
  if (typeof expected === 'number') return Number(expected) === Number(got);
  if (typeof expected === 'boolean') return expected === got;
  if (typeof expected === 'string' && ISO_DATE.test(expected) && typeof got === 'string') {
    return expected.length === 10 ? got.slice(0, 10) === expected : Date.parse(expected) === Date.parse(got);
  }
  return normText(String(expected)) === normText(String(got));
}

function hasStructuredData(html: string): boolean {
  const sd = readStructuredData(parseHtml(html), 'https://fixture.invalid/');
  return sd.entities.length > 0 || sd.candidates.some((c) => c.origin === 'meta' && /^(og|article|product|video)$/.test(c.path[0] ?? ''));
}

const short = (v: unknown): string => {
  const s = v === undefined ? '—' : JSON.stringify(v);
  return s.length > 48 ? `${s.slice(0, 45)}...` : s;
};

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

function describeMiss(r: FieldResult): string {
  return `${r.path} (${r.outcome}: ${short(r.expected)} → ${short(r.got)}${r.source ? ` from ${String(r.source)}` : ''})`;
}

async function corpus(): Promise<void> {
  console.log('## Corpus (bench/extraction): pages × schemas, fields the pages lack included\n');
  console.log('| page | schema | right | wrong | missed | invented | left unfilled | ms |');
  console.log('|---|---|---|---|---|---|---|---|');
  const results = await runCorpus(CORPUS);
  for (const r of results) {
    const t = totals(r.results);
    console.log(`| ${r.page} | ${r.schema} | ${t.right} | ${t.wrong} | ${t.missed} | ${t.invented} | ${t.abstained} | ${r.ms.toFixed(0)} |`);
    if (VERBOSE) for (const f of r.results.filter((x) => x.outcome === 'wrong' || x.outcome === 'missed' || x.outcome === 'invented')) console.log(`|  | ${describeMiss(f)} | | | | | | |`);
  }
  const t = totals(results.flatMap((r) => r.results));
  console.log('');
  console.log(`${CORPUS.length} pages, ${results.length} schemas, ${t.right + t.wrong + t.missed + t.invented + t.abstained} fields (${t.invented + t.abstained} the pages lack)`);
  console.log(`precision ${pct(precision(t))} (${t.right} right of ${t.right + t.wrong + t.invented} filled; ${t.wrong} wrong, ${t.invented} filled though absent)`);
  console.log(`recall    ${pct(recall(t))} (${t.right} of ${t.right + t.wrong + t.missed} present)\n`);
}

async function main(): Promise<void> {
  await corpus();
  if (!existsSync(join(FIXTURES, 'MANIFEST.tsv'))) {
    console.log(`Fixtures folder ${FIXTURES} is absent (or has no MANIFEST.tsv): the captured pages are not evaluated.`);
    return;
  }
  console.log('## Captured pages (../shared/fixtures with expected outputs)\n');
  const { list, skipped } = cases();
  const counts = { sd: [0, 0, 0], plain: [0, 0, 0] };
  console.log('| page | structured data | fields right | ms | missed (expected → got) |');
  console.log('|---|---|---|---|---|');
  for (const c of list) {
    const html = readFileSync(join(FIXTURES, c.file), 'utf8');
    const t0 = performance.now();
    // A neutral address: the page's own URL must come from the page, not from the request.
    const r = await extractJson({ html, url: `https://fixture.invalid/${c.file}` }, { schema: schemaFor(c.expected) }, { llm: undefined });
    const ms = performance.now() - t0;
    const got = r.json as Record<string, unknown>;
    const keys = Object.keys(c.expected);
    const missed = keys.filter((k) => !same(c.expected[k], got[k]));
    // Filled with another value than expected (the rest of `missed` was left unfilled).
    const wrong = missed.filter((k) => got[k] !== undefined && got[k] !== null);
    const sd = hasStructuredData(html);
    const bucket = sd ? counts.sd : counts.plain;
    bucket[0] += keys.length - missed.length;
    bucket[1] += keys.length;
    bucket[2] += wrong.length;
    const why = missed.map((k) => `${k}: ${short(c.expected[k])} → ${short(got[k])}`).join('; ');
    console.log(`| ${c.file} | ${sd ? 'yes' : 'no'} | ${keys.length - missed.length}/${keys.length} | ${ms.toFixed(0)} | ${VERBOSE ? why : missed.join(', ')} |`);
  }
  const line = ([right, all, wrong]: number[]): string =>
    all ? `recall ${right}/${all} = ${pct((right as number) / (all as number))}, precision ${right}/${(right as number) + (wrong as number)} = ${pct((right as number) / Math.max(1, (right as number) + (wrong as number)))}` : 'n/a';
  console.log('');
  console.log(`Pages with structured data (JSON-LD, microdata, RDFa, OpenGraph): ${line(counts.sd)}`);
  console.log(`Pages without:                                                     ${line(counts.plain)}`);
  console.log(`All:                                                               ${line([0, 1, 2].map((i) => counts.sd[i]! + counts.plain[i]!))}`);
  for (const s of skipped) console.log(`skipped: ${s}`);
}

await main();
