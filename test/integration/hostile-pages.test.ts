/**
 * Deeply nested pages through the whole service (issue 24 A): the repro was
 * `'<p>' + '<div>'.repeat(n) + 'x' + '</div>'.repeat(n)` with `output: ["markdown"]`, which
 * took 52 s at n = 320,000 and wedged the farm at 1,000,000. Every parse is now capped in
 * depth and linear (core/parsers/depth.ts); a thread busy with such a page gets no new task
 * (farm/balance.ts), so a small request sent meanwhile is answered while the big ones run.
 * Real gateway on port 0, real farm, a local site.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHeavySite, type HeavySite } from '../helpers/heavy-site.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { until } from '../helpers/wait.js';

let site: HeavySite;
/** Answers the deep page on every path (the commerce routes' own URLs carry no `k`). */
let deepSite: HeavySite;
let gw: TestGateway;

beforeAll(async () => {
  site = await startHeavySite();
  deepSite = await startHeavySite({ fallback: 'deep320000' });
  gw = await startGateway({ workers: 2, syncTimeoutMs: 120_000, targets: { mkt2: { baseUrl: deepSite.url } } });
});

afterAll(async () => {
  await gw?.close();
  await site?.close();
  await deepSite?.close();
});

describe('a deeply nested page', () => {
  test('320,000 levels (3.5 MB): Markdown, and the dedicated parsers of mkt1 and a commerce route', async () => {
    const md = await postJson(gw, '/v1/scrape', { url: `${site.url}/p?k=deep320000`, output: ['markdown'] });
    expect(md.status).toBe(200);
    expect(md.body.results[0].markdown).toBe('x\n');

    const mkt1 = await postJson(gw, '/v1/scrape/mkt1', { url: `${site.url}/s?k=deep320000`, output: ['json'] });
    expect(mkt1.status).toBe(200);
    expect(mkt1.body.results[0].metadata.parse_status).toBe('unrecognised');

    const product = await postJson(gw, '/v1/scrape/mkt2/product', { query: 'deep', output: ['json', 'markdown'] });
    expect(product.status).toBe(200);
    expect(product.body.results[0].metadata.parse_status).toBe('unrecognised');
    expect(product.body.results[0].markdown).toBe('x\n');
  });

  test('320,000 levels: json with a schema (the offline extractor reads the capped tree)', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } } };
    const r = await postJson(gw, '/v1/scrape', { url: `${site.url}/p?k=deep320000`, output: ['json'], json: { schema } });
    expect(r.status).toBe(200);
    expect(r.body.results[0].json).toEqual({});
    expect(r.body.results[0].metadata).toMatchObject({ json_source: 'offline', unfilled: ['/title', '/price'] });
  });

  test('1,000,000 levels (11 MB): Markdown', async () => {
    const md = await postJson(gw, '/v1/scrape', { url: `${site.url}/p?k=deep1000000`, output: ['markdown'] });
    expect(md.status).toBe(200);
    expect(md.body.results[0].markdown).toBe('x\n');
  });

  test('two jobs of 1,000,000-deep pages hold both workers; a 1 KB scrape sent meanwhile answers 200 while they run', async () => {
    const heavy = { url: `${site.url}/s?k=deep1000000`, pages: 3, output: ['json'] };
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const a = await postJson(gw, '/v1/async/scrape/mkt1', heavy);
      expect(a.status).toBe(202);
      ids.push(a.body.metadata.request_id);
    }
    const farm = gw.server.farm;
    // Both fetch threads busy in a page's parse (their event loops have stopped beating).
    await until(() => farm.stats().stalled === 2, 'both workers to be stalled in the heavy pages', 60_000);

    const small = await postJson(gw, '/v1/scrape', { url: `${site.url}/small`, output: ['markdown'] });
    expect(small.status).toBe(200);
    expect(small.body.results[0].markdown).toMatch(/^# small\n\nlorem ipsum /);
    // Answered while the heavy jobs still run.
    expect(await Promise.all(ids.map(async (id) => (await gw.server.store.jobs.get(id))?.status))).toEqual(['running', 'running']);

    // And the heavy jobs finish on their own, every page parsed (as not an mkt1 page).
    const done = await until(
      async () => {
        const jobs = await Promise.all(ids.map((id) => gw.server.store.jobs.get(id)));
        return jobs.every((j) => j?.status === 'done') ? Promise.all(ids.map(async (id) => (await gw.server.store.jobs.result(id))?.results)) : undefined;
      },
      'the heavy jobs to finish',
      240_000,
      250,
    );
    for (const results of done) expect(results?.map((r) => r.metadata.parse_status)).toEqual(['unrecognised', 'unrecognised', 'unrecognised']);
  });
});
