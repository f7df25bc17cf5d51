/**
 * Micro-benchmarks of the request front half: route matching and validation.
 * Run: node --import tsx bench/validation.bench.ts
 *
 * Baselines in the same run: a bare `JSON.parse` of the same body (the step before
 * validation) and ajv on the same schema without our rules and echo, so the table shows what
 * the registry layer costs on top of ajv.
 */
import { Bench } from 'tinybench';
import { matchScrapePath, scrapePaths } from '../core/registry/index.js';
import { compileAll, createAjv, type Endpoint, jsonSchemaFor, validate } from '../core/schema/index.js';

const SE1: Endpoint = { kind: 'scrape', routeId: 'se1/search', mode: 'sync' };
const BATCH: Endpoint = { kind: 'scrape', routeId: 'universal', mode: 'batch' };

const validText = JSON.stringify({ query: 'espresso machine', domain: 'de', locale: 'de_DE', pages: 2, output: ['html', 'json'], device: 'mobile' });
const validBody = JSON.parse(validText) as Record<string, unknown>;
const invalidBody = { query: '', pages: 0, output: ['pdf', 'screenshot'], json: { prompt: 'p', schema: { a: 1 } }, colour: 'red' };
const batchBody = {
  url: Array.from({ length: 100 }, (_, i) => `https://shop.example.com/item/${i}?ref=bench`),
  output: ['markdown'],
  callback_url: 'https://hooks.example.com/done',
  storage: { type: 's3', url: 's3://bucket/prefix' },
};

const started = performance.now();
const compiled = compileAll();
console.log(`compileAll: ${compiled} validators in ${(performance.now() - started).toFixed(0)} ms`);

// Sanity: the bodies do what their names say.
if (!validate(SE1, validBody).ok || validate(SE1, invalidBody).ok || !validate(BATCH, batchBody).ok) {
  throw new Error('benchmark bodies are not what they claim');
}

const paths = scrapePaths();
const misses = ['/v1/scrape/nope', '/v1/async/scrape/1712345678901000001', '/v1/scrape/batch'];
let i = 0;

const rawAjv = createAjv().compile(jsonSchemaFor(SE1));

const bench = new Bench({ time: 500, warmupTime: 100 });
bench
  .add('matchScrapePath (hit, 167 paths)', () => {
    matchScrapePath(paths[i++ % paths.length]!);
  })
  .add('matchScrapePath (miss)', () => {
    matchScrapePath(misses[i++ % misses.length]!);
  })
  .add('baseline: JSON.parse se1/search body', () => {
    JSON.parse(validText);
  })
  .add('baseline: bare ajv, valid se1/search body', () => {
    rawAjv(Object.assign({}, validBody));
  })
  .add('validate se1/search (valid, params echoed)', () => {
    validate(SE1, validBody);
  })
  .add('validate se1/search (invalid, 5 errors)', () => {
    validate(SE1, invalidBody);
  })
  .add('validate batch of 100 urls', () => {
    validate(BATCH, batchBody);
  });

await bench.run();
console.table(bench.table());
