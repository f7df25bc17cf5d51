/**
 * One request's bytes are bounded (issue 24 item 1): GLEANER_TASK_MAX_BYTES caps what one
 * task's pages may fetch in total, each fetch capped at what is left, so a request for the
 * most pages of the largest pages fails with a problem document after fetching no more than
 * the budget. Real gateway on port 0, real farm, a local site serving pages of exact sizes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULTS } from '../../core/config.js';
import { bigPage, startHeavySite, type HeavySite } from '../helpers/heavy-site.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';

const MB = 1_000_000;
const MiB = 1024 * 1024;

let site: HeavySite;
let gw: TestGateway;

beforeAll(async () => {
  site = await startHeavySite();
  gw = await startGateway({ workers: 2, syncTimeoutMs: 120_000 });
});

afterAll(async () => {
  await gw?.close();
  await site?.close();
});

describe('GLEANER_TASK_MAX_BYTES', () => {
  test('defaults to 128 MiB', () => {
    expect(DEFAULTS.taskMaxBytes).toBe(128 * MiB);
  });

  test('20 pages of 5 MB (100 MB) fit: every page comes back whole', async () => {
    const r = await postJson(gw, '/v1/scrape/mkt1', { url: `${site.url}/s?k=big${5 * MB}`, pages: 20, output: ['html'] });
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(20);
    for (const [i, page] of (r.body.results as Array<{ html: string; metadata: { page: number } }>).entries()) {
      expect(page.metadata.page).toBe(i + 1);
      expect(page.html === bigPage(5 * MB, i + 1)).toBe(true);
    }
  });

  test('the most pages (100) of 20 MiB are refused by the budget before their bytes accumulate', async () => {
    const hits = site.hits;
    const sent = site.bytesSent;
    const r = await postJson(gw, '/v1/scrape/mkt1', { url: `${site.url}/s?k=big${20 * MiB}`, pages: 100, output: ['html'] });
    expect(r.status).toBe(500);
    expect(r.body.title).toBe('RESPONSE_TOO_LARGE');
    expect(r.body.detail).toBe(`The pages of this request are larger than ${128 * MiB} bytes in total (GLEANER_TASK_MAX_BYTES); ask for fewer pages.`);
    // Six pages fit; the seventh is cut where the total passes the budget, and none follows.
    expect(site.hits - hits).toBe(7);
    // What the site wrote: the budget, plus what sat in socket buffers when the farm hung up.
    expect(site.bytesSent - sent).toBeLessThan(128 * MiB + 8 * MiB);
  });
});

describe('a smaller budget', () => {
  let small: TestGateway;
  beforeAll(async () => {
    small = await startGateway({ workers: 1, taskMaxBytes: 12 * MB });
  });
  afterAll(async () => {
    await small?.close();
  });

  test('two 5 MB pages fit, the third is refused, and the node goes on', async () => {
    const ok = await postJson(small, '/v1/scrape/mkt1', { url: `${site.url}/s?k=big${5 * MB}`, pages: 2, output: ['html'] });
    expect(ok.status).toBe(200);
    expect(ok.body.results.map((p: { html: string }) => p.html.length)).toEqual([5 * MB, 5 * MB]);
    const refused = await postJson(small, '/v1/scrape/mkt1', { url: `${site.url}/s?k=big${5 * MB}`, pages: 3, output: ['html'] });
    expect(refused.status).toBe(500);
    expect(refused.body.title).toBe('RESPONSE_TOO_LARGE');
    expect(refused.body.detail).toContain(`larger than ${12 * MB} bytes in total (GLEANER_TASK_MAX_BYTES)`);
    const after = await postJson(small, '/v1/scrape', { url: `${site.url}/small`, output: ['markdown'] });
    expect(after.status).toBe(200);
    expect(after.body.results[0].markdown).toMatch(/^# small\n/);
  });
});
