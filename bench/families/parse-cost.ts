/**
 * Parse cost per family (issue 26 item 2): on every captured page of every dedicated route's
 * family, the CPU time of the route's whole parse (`parsePage`: the lean page, the DOM build,
 * the family's readers) against a bare htmlparser2 `parseDocument` of the same page, in the same
 * process, interleaved round by round (bare then parse, then parse then bare) so that machine
 * load and heap state fall on both alike. Target: parse ≤ 1.2× bare for every family.
 *
 * CPU time (process.cpuUsage, this single-threaded process plus its GC helpers), not wall time:
 * on a machine shared with other work a preempted iteration does not count. Each number is the
 * mean over the rounds (each side's garbage collections included); the median is printed too.
 *
 *   node --import tsx bench/families/parse-cost.ts [--families se1,mkt1-search] [--rounds 15] [--warm 0] [--pages] [--json out.json]
 *
 * `--pages` prints a row per page as well as per family. Each page gets two untimed rounds of
 * its own first; `--warm N` (default 0) also runs all the family's pages through both sides N
 * times before any is timed, so that the first page timed does not pay for compiling the
 * family's readers (the steady state a worker parsing many pages sees).
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseDocument } from 'htmlparser2';
import { parsePage } from '../../core/targets/index.js';
import { familyPages, pickFamilies, type Family, type FamilyPage } from './pages.js';

export interface PageCost {
  family: string;
  page: string;
  mb: number;
  /** Mean CPU ms per parse, and per bare DOM build, over the rounds. */
  parseMs: number;
  bareMs: number;
  parseP50Ms: number;
  bareP50Ms: number;
}

export interface FamilyCost {
  family: string;
  route: string;
  pages: number;
  /** Sums over the family's pages of the per-page means. */
  parseMs: number;
  bareMs: number;
  ratio: number;
  /** The page with the highest parse ÷ bare. */
  worstPage: string;
  worstRatio: number;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function timed(f: () => unknown): number {
  const t = cpuMs();
  f();
  return cpuMs() - t;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const r2 = (n: number) => Math.round(n * 100) / 100;

export function pageCost(family: Family, page: FamilyPage, rounds: number): PageCost {
  const input = { html: page.html, url: family.url(page.name), page: 1, params: { query: 'x' } };
  const parse = () => parsePage(family.route, input);
  const bare = () => parseDocument(page.html);
  for (let i = 0; i < 2; i++) (parse(), bare());
  const p: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) (b.push(timed(bare)), p.push(timed(parse)));
    else (p.push(timed(parse)), b.push(timed(bare)));
  }
  return { family: family.name, page: page.name.split('/').pop()!.replace(/\.html$/, ''), mb: r2(page.bytes / 1e6), parseMs: r2(mean(p)), bareMs: r2(mean(b)), parseP50Ms: r2(median(p)), bareP50Ms: r2(median(b)) };
}

/**
 * Runs every page of the family through both sides `rounds` times, untimed, before any page is
 * timed. Without it the first page timed paid for compiling the family's readers (V8's optimising
 * compiler runs on helper threads, which process CPU time counts) while the bare side's code was
 * already hot from the families before: the first page of a family was often its "worst page".
 */
function warmFamily(family: Family, pages: FamilyPage[], rounds: number): void {
  for (let i = 0; i < rounds; i++) {
    for (const page of pages) {
      parsePage(family.route, { html: page.html, url: family.url(page.name), page: 1, params: { query: 'x' } });
      parseDocument(page.html);
    }
  }
}

export function familyCost(family: Family, rounds: number, warm = 0): { total: FamilyCost; pages: PageCost[] } | undefined {
  const all = familyPages(family);
  warmFamily(family, all, warm);
  const pages = all.map((p) => pageCost(family, p, rounds));
  if (pages.length === 0) return undefined;
  const parseMs = pages.reduce((a, p) => a + p.parseMs, 0);
  const bareMs = pages.reduce((a, p) => a + p.bareMs, 0);
  const worst = pages.reduce((w, p) => (p.parseMs / p.bareMs > w.parseMs / w.bareMs ? p : w));
  return {
    total: { family: family.name, route: family.route, pages: pages.length, parseMs: r2(parseMs), bareMs: r2(bareMs), ratio: r2(parseMs / bareMs), worstPage: worst.page, worstRatio: r2(worst.parseMs / worst.bareMs) },
    pages,
  };
}

const { values: args } = parseArgs({
  options: { families: { type: 'string', default: '' }, rounds: { type: 'string', default: '15' }, warm: { type: 'string', default: '0' }, pages: { type: 'boolean', default: false }, json: { type: 'string' } },
});

const load0 = loadavg()[0]!;
const totals: FamilyCost[] = [];
const all: PageCost[] = [];
for (const family of pickFamilies(args.families)) {
  const r = familyCost(family, Number(args.rounds), Number(args.warm));
  if (!r) {
    console.log(`${family.name}: no captured pages in the fixtures folder (set GLEANER_FIXTURES)`);
    continue;
  }
  totals.push(r.total);
  all.push(...r.pages);
  if (args.pages) console.table(r.pages);
}
console.table(totals.map((t) => ({ ...t, target: t.ratio <= 1.2 ? 'met' : 'NOT met' })));
console.log(`1-minute load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} (CPU time: preemption is not counted, cache and frequency effects are)`);
if (args.json) writeFileSync(args.json, JSON.stringify({ load: [load0, loadavg()[0]], totals, pages: all }, null, 1));
