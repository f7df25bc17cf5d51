/**
 * The farm end to end on real things: the target simulator, real Chromium, real workers.
 * Output formats, script-only content, redirects, devices, non-HTML bodies, media blocking.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { extractJson } from '../../core/extraction/index.js';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import { profileFor, sessionKeyOf, type DeviceName } from '../../farm/identity/profile.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { routeById } from '../../core/registry/index.js';
import { planFlows, type FetchStep, type Flow } from '../../core/targets/index.js';

/** Each flow's page request, as the one-fetch planners of these routes make them. */
const pagesOf = (flows: Flow[]) => flows.map((f) => ({ url: String((f.steps[f.steps.length - 1] as FetchStep).url), page: f.page }));
import { codeOf, task } from '../helpers/farm.js';
import { JS_ONLY_HTML, STATIC_HTML } from '../sites/generic.js';
import { startSimulator, type Simulator } from '../sites/server.js';

/** The profile of a sessionless, direct request. */
const direct = (device: DeviceName) => profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device });

let sim: Simulator;
let farm: Farm;

beforeAll(async () => {
  sim = await startSimulator();
  const targets = { mkt1: { baseUrl: `${sim.origin}/mkt1/{domain}` } };
  farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 2, contextsPerWorker: 2, targets }) });
});

afterAll(async () => {
  await farm?.close();
  await sim?.close();
});

describe('plain HTTP (run_js false)', () => {
  test('html and markdown of a static page, with usage', async () => {
    const url = `${sim.origin}/static`;
    const out = await farm.run(task({ url, output: ['html', 'markdown'] }));
    expect(out.status).toBe(200);
    expect(out.results).toEqual([
      {
        html: STATIC_HTML,
        markdown: htmlToMarkdown(STATIC_HTML, url),
        screenshot: null,
        json: null,
        metadata: { page: 1, run_js: false, url, status_code: 200 },
      },
    ]);
    expect(out.usage).toEqual({
      pages: 1,
      render: false,
      requestBytes: expect.any(Number),
      responseBytes: Buffer.byteLength(STATIC_HTML),
      elapsedMs: expect.any(Number),
    });
  });

  test('output defaults to html only', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/static` }));
    expect(out.results.map((r) => [r.html, r.markdown, r.screenshot, r.json])).toEqual([[STATIC_HTML, null, null, null]]);
  });

  test('script-only content is absent without run_js', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/js-only` }));
    expect(out.results[0].html).toBe(JS_ONLY_HTML);
  });

  test('redirect chain: metadata.url is the final URL', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/redirect/3` }));
    expect(out.results[0].metadata).toEqual({ page: 1, run_js: false, url: `${sim.origin}/static`, status_code: 200 });
    expect(out.results[0].html).toBe(STATIC_HTML);
  });

  test('upstream status is passed through (404 is an answer, not a failure)', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/status?code=404` }));
    expect([out.status, out.results[0].metadata.status_code]).toEqual([404, 404]);
    expect(sim.hits.get('/status?code=404')).toBe(1);
  });

  test('mobile sends the mobile user agent; desktop the desktop one', async () => {
    const mobile = await farm.run(task({ url: `${sim.origin}/headers`, device: 'mobile' }));
    const desktop = await farm.run(task({ url: `${sim.origin}/headers` }));
    expect((JSON.parse(mobile.results[0].html as string) as Record<string, string>)['user-agent']).toBe(direct('mobile').userAgent);
    expect((JSON.parse(desktop.results[0].html as string) as Record<string, string>)['user-agent']).toBe(direct('desktop').userAgent);
  });

  test('non-HTML bodies: JSON as text, PNG and PDF as base64', async () => {
    const json = await farm.run(task({ url: `${sim.origin}/data.json`, output: ['html', 'markdown'] }));
    expect([json.results[0].html, json.results[0].markdown]).toEqual([
      '{"name":"sample","items":[1,2,3]}',
      '{"name":"sample","items":[1,2,3]}',
    ]);
    const png = await farm.run(task({ url: `${sim.origin}/image.png` }));
    expect(Buffer.from(png.results[0].html as string, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const pdf = await farm.run(task({ url: `${sim.origin}/doc.pdf` }));
    expect(Buffer.from(pdf.results[0].html as string, 'base64').subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
  });

  test('json output with a schema goes through extractJson', async () => {
    const url = `${sim.origin}/static`;
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const expected = await extractJson({ html: STATIC_HTML, url }, { schema, prompt: null }, { llm: undefined }).then(
      (r) => ({ ok: true as const, json: r.json, source: r.source, unfilled: r.unfilled }),
      (err: { code: string }) => ({ ok: false as const, code: err.code }),
    );
    const got = farm.run(task({ url, output: ['json'], json: { schema } }));
    if (!expected.ok) {
      expect(await codeOf(got)).toBe(expected.code);
      return;
    }
    const out = await got;
    expect(out.results[0].json).toEqual(expected.json);
    expect(out.results[0].metadata.json_source).toBe(expected.source);
    expect(out.results[0].html).toBeNull();
  });
});

describe('multi-page routes', () => {
  test('one result per planned page, each with its page number; usage counts pages', async () => {
    // mkt1: `location` is a postal code, so no country pool is needed (no proxies here: direct).
    const params = { query: 'lamp', pages: 2, start_page: 1, location: '10115', output: ['html'] };
    const planned = pagesOf(planFlows(routeById('mkt1/search')!, params, { mkt1: { baseUrl: `${sim.origin}/mkt1/{domain}` } }));
    const out = await farm.run(task(params, { routeId: 'mkt1/search' }));
    expect(out.results.map((r) => [r.metadata.page, r.metadata.url, r.metadata.run_js])).toEqual(
      planned.map((p) => [p.page, p.url, false]),
    );
    expect([planned.length, out.usage.pages, out.status]).toEqual([2, 2, out.results[0].metadata.status_code]);
    for (const p of planned) expect(sim.hits.get(p.url.slice(sim.origin.length))).toBe(1);
  });
});

describe('browser (run_js true)', () => {
  test('script-only content and late data are present; final URL and status', async () => {
    const url = `${sim.origin}/js-only`;
    const out = await farm.run(task({ url, run_js: true, output: ['html', 'markdown'] }));
    const html = out.results[0].html as string;
    expect(html).toContain('<div id="app">Rendered by script</div>');
    // Fetched 150 ms after load: only there because rendering waits for network quiet.
    expect(html).toContain('<p id="late">Late data</p>');
    expect(out.results[0].markdown).toBe(htmlToMarkdown(html, url));
    expect(out.results[0].metadata).toEqual({ page: 1, run_js: true, url, status_code: 200 });
    expect([out.status, out.usage.pages, out.usage.render]).toEqual([200, 1, true]);
  });

  test('redirect chain: metadata.url is the final URL', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/redirect/2`, run_js: true }));
    expect(out.results[0].metadata.url).toBe(`${sim.origin}/static`);
  });

  test('mobile emulates a phone: user agent, viewport, touch', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/ua`, run_js: true, device: 'mobile' }));
    const html = out.results[0].html as string;
    expect(/<p id="ua">([^<]*)<\/p>/.exec(html)?.[1]).toBe(direct('mobile').userAgent);
    expect(/<p id="vp">([^<]*)<\/p>/.exec(html)?.[1]).toBe(`${direct('mobile').viewport.width}x${direct('mobile').viewport.height} touch=${direct('mobile').maxTouchPoints}`);
    const desk = await farm.run(task({ url: `${sim.origin}/ua`, run_js: true }));
    expect(/<p id="vp">([^<]*)<\/p>/.exec(desk.results[0].html as string)?.[1]).toBe(`${direct('desktop').viewport.width}x${direct('desktop').viewport.height} touch=0`);
  });

  test('screenshot is a full-page PNG; only the requested keys are set', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/static`, run_js: true, output: ['screenshot'] }));
    const r = out.results[0];
    expect([r.html, r.markdown, r.json]).toEqual([null, null, null]);
    const png = Buffer.from(r.screenshot as string, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1366); // IHDR width = desktop viewport
  });

  test('fonts and media are blocked unless a screenshot is asked for', async () => {
    const fontHits = () => sim.hits.get('/fonts/face.woff2') ?? 0;
    await farm.run(task({ url: `${sim.origin}/media`, run_js: true }));
    expect([fontHits(), sim.hits.get('/media/clip.mp4') ?? 0, (sim.hits.get('/image.png') ?? 0) > 0]).toEqual([0, 0, true]);
    await farm.run(task({ url: `${sim.origin}/media`, run_js: true, output: ['screenshot'] }));
    expect(fontHits()).toBe(1);
  });
});
