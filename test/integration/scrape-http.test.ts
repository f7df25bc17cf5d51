/**
 * The generic scraper through HTTP against the simulator and real Chromium: each output
 * format, script-only content, redirects, mobile, the sync deadline (408), exhausted retries
 * (500), address refusals and a missing location pool.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { COLD_RENDER_MS } from '../helpers/farm.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';

let sim: Simulator;
let gw: TestGateway;

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway({ syncTimeoutMs: 4_000 });
  // The short sync deadline is for the 408 test; the farm's threads (a fetch thread, a render
  // thread with its browser) start on first use, which on a loaded machine takes longer than
  // that. Warm both first: a request answered 408 while its thread starts is asked again.
  for (const run_js of [false, true]) {
    const until = Date.now() + COLD_RENDER_MS;
    let status = 0;
    while (status !== 200 && Date.now() < until) status = (await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static?warm=${run_js}`, run_js })).status;
    if (status !== 200) throw new Error(`the farm did not warm up (run_js ${run_js}: last status ${status})`);
  }
}, COLD_RENDER_MS * 2 + 10_000);
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

describe('outputs', () => {
  test('html and markdown: one key per requested format, the rest null; spec 2.3 envelope', async () => {
    const url = `${sim.origin}/static`;
    const a = await postJson(gw, '/v1/scrape', { url, output: ['html', 'markdown'] });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      status: 200,
      results: [
        {
          html: expect.stringContaining('<h1>Static heading</h1>'),
          markdown: expect.stringContaining('# Static heading'),
          screenshot: null,
          json: null,
          metadata: { page: 1, run_js: false, url, status_code: 200 },
        },
      ],
      params: { url, output: ['html', 'markdown'], json: null, location: null, device: 'desktop', run_js: false },
      metadata: { timestamp: expect.any(Number), request_id: expect.stringMatching(/^\d{19}$/) },
    });
    expect(a.body.results[0].markdown).toContain(`[a relative link](${sim.origin}/static/next)`);
    expect(a.body.results[0].markdown).toContain('| Name | Value |');
  });

  test('script-only content is absent without run_js and present with it', async () => {
    const url = `${sim.origin}/js-only`;
    const plain = await postJson(gw, '/v1/scrape', { url, output: ['html'] });
    expect(plain.body.results[0].html).toContain('<div id="app"></div>');
    const rendered = await postJson(gw, '/v1/scrape', { url, output: ['html', 'markdown'], run_js: true });
    expect(rendered.status).toBe(200);
    expect(rendered.body.results[0].html).toContain('<div id="app">Rendered by script</div>');
    expect(rendered.body.results[0].markdown).toContain('Rendered by script');
    expect(rendered.body.results[0].metadata.run_js).toBe(true);
  });

  test('screenshot is a base64 PNG', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, output: ['screenshot'], run_js: true });
    expect(a.status).toBe(200);
    const png = Buffer.from(a.body.results[0].screenshot, 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(a.body.results[0].html).toBeNull();
  });

  test('redirects: metadata.url is the final URL', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/redirect/3` });
    expect(a.body.results[0].metadata.url).toBe(`${sim.origin}/static`);
  });

  test.each(['http://[zz', 'http://[fe80::1%25eth0]/x', 'http://host:99999/'])(
    'a Location the redirect cannot follow (%s) is a clear problem naming it, not retried',
    async (location) => {
      const path = `/redirect-raw?to=${encodeURIComponent(location)}`;
      const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}${path}` });
      expect([a.status, a.body.title]).toEqual([500, 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
      expect(a.body.detail).toBe(`Every attempt to fetch the target failed (last: The target redirected to an invalid location ${JSON.stringify(location)}.).`);
      expect(sim.hits.get(path)).toBe(1);
    },
  );

  test('device mobile sends a phone user agent', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/headers`, device: 'mobile' });
    const seen = JSON.parse(a.body.results[0].html);
    expect(seen['user-agent']).toMatch(/Mobile/);
  });
});

describe('failures', () => {
  test('past the sync deadline: 408 REQUEST_FAILED_SCRAPE_TIMEOUT', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/slow?ms=20000` });
    expect([a.status, a.headers.get('content-type'), a.body.title]).toEqual([408, 'application/problem+json', 'REQUEST_FAILED_SCRAPE_TIMEOUT']);
  });

  test('every attempt failing: 500 REQUEST_FAILED_AFTER_MANY_RETRIES', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/status?code=503&k=http` });
    expect([a.status, a.body.title]).toEqual([500, 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
  });

  test('a location with no proxy pool is refused clearly', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, location: 'JP' });
    expect([a.status, a.body.title, a.body.detail]).toEqual([400, 'LOCATION_UNAVAILABLE', 'No proxy pool serves the location "JP".']);
  });

  test('private and metadata addresses are refused unless allowed (redirect hops: farm-ssrf suite)', async () => {
    const strict = await startGateway({ allowPrivate: false });
    try {
      const direct = await postJson(strict, '/v1/scrape', { url: `${sim.origin}/static` });
      expect([direct.status, direct.body.title]).toEqual([400, 'TARGET_FORBIDDEN']);
      const meta = await postJson(strict, '/v1/scrape', { url: 'http://169.254.169.254/latest/meta-data/' });
      expect(meta.body.title).toBe('TARGET_FORBIDDEN');
    } finally {
      await strict.close();
    }
  });
});
