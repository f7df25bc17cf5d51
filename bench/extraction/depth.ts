/**
 * The offline extractor's time on issue 24.A's nested page as n doubles (40,000 to 320,000):
 * linear walks take about twice as long per doubling. The tree is built from the parser's
 * events (nested.ts), so this measures the extractor, not the DOM build. Median of 3 runs each.
 *
 *   node --import tsx bench/extraction/depth.ts
 */
import { loadavg } from 'node:os';
import { DomHandler } from 'domhandler';
import { extractFromDocument } from '../../core/extraction/offline.js';
import { compileSchema } from '../../core/extraction/schema.js';
import { nestedDocument } from './nested.js';

const schema = compileSchema({ type: 'object', properties: { heading: { type: 'string' }, price: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

console.log(`load average at start: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| n | extraction ms (median of 3) | ratio to the previous n |');
console.log('|---|---|---|');
let previous: number | undefined;
for (const n of [40_000, 80_000, 160_000, 320_000]) {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const doc = nestedDocument(n, new DomHandler());
    const t0 = performance.now();
    extractFromDocument(doc, 'http://deep.test/', schema);
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  console.log(`| ${n} | ${ms.toFixed(0)} | ${previous ? (ms / previous).toFixed(2) : '—'} |`);
  previous = ms;
}
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
