/**
 * Plain pages through Chromium's own network stack (farm/browser/nav-fetch.ts,
 * farm/worker/nav-page.ts), with `GLEANER_PLAIN_CLIENT=chromium` so that the cleartext servers
 * here take that path (under the default `auto` only https navigations do; fingerprint.test.ts
 * covers those against the recorder). What a plain fetch promises holds on this path too:
 * the document and nothing else, redirects, cookies across hops, status codes, decoding, the
 * size cap, proxies with credentials, retries, the deadline — and never a cached answer.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { processTree } from '../../bench/farm/measure.js';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { failure, task, waitFor } from '../helpers/farm.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

let farm: Farm;
let proxied: Farm;
let proxy: TestProxy;
let origin: string;
const hits = new Map<string, number>();
const cookiesSeen = new Map<string, string>();
/** Cache-related request headers seen on /page (a conditional or no-cache request is not Chrome's first navigation). */
const cacheHeadersSeen = new Set<string>();
let server: ReturnType<typeof createServer>;

const CAP = 256 * 1024;
const PAGE = '<!doctype html><html><head><title>t</title><link rel="stylesheet" href="/sub/s.css"><script src="/sub/a.js"></script></head><body><h1>Hello</h1><img src="/sub/i.png"><iframe src="/sub/frame"></iframe></body></html>';

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', origin);
  const key = `${url.pathname}${url.search}`;
  hits.set(key, (hits.get(key) ?? 0) + 1);
  if (req.headers.cookie) cookiesSeen.set(key, req.headers.cookie);
  if (url.pathname === '/page') for (const h of ['if-none-match', 'if-modified-since', 'cache-control', 'pragma']) if (req.headers[h] !== undefined) cacheHeadersSeen.add(h);
  const html = (body: string, headers: Record<string, string> = {}): void => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  switch (url.pathname) {
    case '/page':
      return html(PAGE, { 'cache-control': 'max-age=3600', etag: '"v1"' });
    case '/hop1':
      return void res.writeHead(302, { location: '/hop2', 'set-cookie': 'hop=1; Path=/' }).end();
    case '/hop2':
      return void res.writeHead(301, { location: `/final?from=hop2` }).end();
    case '/final':
      return html(`<p>final, cookie ${req.headers.cookie ?? 'none'}</p>`);
    case '/missing':
      return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
    case '/json':
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
    case '/gzip':
      return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync('<p>zipped</p>'));
    case '/bomb':
      // 40 KB on the wire, 4 MB decoded.
      return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(4 * 1024 * 1024, 'a')));
    case '/declared':
      return void res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(CAP + 10) }).end(Buffer.alloc(CAP + 10, 'b'));
    case '/flaky':
      if ((hits.get(key) ?? 0) <= 1) return void res.writeHead(503).end('busy');
      return html('<p>second time</p>');
    case '/hang':
      return; // never answers
    default:
      return void res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = await startProxy({ username: 'u', password: 'p@ss' });
  const config = (extra: object) => loadConfig({}, { allowPrivate: true, workers: 1, plainClient: 'chromium', maxResponseBytes: CAP, ...extra });
  farm = await createFarm({ config: config({}), limits: { retryBaseMs: 20 } });
  proxied = await createFarm({ config: config({ proxies: { default: [proxy.url] } }), limits: { retryBaseMs: 20 } });
}, 60_000);

afterAll(async () => {
  await Promise.all([farm?.close(), proxied?.close()]);
  await proxy?.close();
  server?.close();
});

const get = (path: string, extra: Record<string, unknown> = {}, on = farm) => on.run(task({ url: `${origin}${path}`, ...extra }, { timeoutMs: 45_000 }));

describe('the document and nothing else', () => {
  test('the page as served, charged as a plain page; no subresource, no frame requested', async () => {
    const out = await get('/page');
    expect(out.results[0].html).toBe(PAGE);
    expect(out.results[0].metadata).toEqual({ page: 1, run_js: false, url: `${origin}/page`, status_code: 200 });
    expect(out.usage.render).toBe(false);
    expect([...hits.keys()].filter((k) => k.startsWith('/sub/'))).toEqual([]);
  }, 60_000);

  test('the same URL again goes to the site again (the browser cache is never the answer)', async () => {
    const before = hits.get('/page') ?? 0;
    await get('/page');
    await get('/page');
    expect((hits.get('/page') ?? 0) - before).toBe(2);
    expect([...cacheHeadersSeen]).toEqual([]);
  });

  test('a URL rendered, fetched and rendered again in one context goes to the site every time, never as a conditional request', async () => {
    const before = hits.get('/page') ?? 0;
    await get('/page', { run_js: true });
    await get('/page');
    await get('/page', { run_js: true });
    await get('/page');
    expect((hits.get('/page') ?? 0) - before).toBe(4);
    expect([...cacheHeadersSeen]).toEqual([]);
  }, 60_000);

  test('a non-HTML body, a 404 and a gzip body come back as they are', async () => {
    expect((await get('/json', { output: ['html'] })).results[0].html).toBe('{"a":1}');
    const missing = await get('/missing');
    expect([missing.status, missing.results[0].metadata.status_code]).toEqual([404, 404]);
    expect((await get('/gzip')).results[0].html).toBe('<p>zipped</p>');
  });
});

describe('redirects and cookies', () => {
  test('the browser follows the hops; a cookie set on the first is sent on the last; metadata.url is the final URL', async () => {
    const out = await get('/hop1');
    expect(out.results[0].metadata.url).toBe(`${origin}/final?from=hop2`);
    expect(out.results[0].html).toBe('<p>final, cookie hop=1</p>');
    expect([hits.get('/hop1'), hits.get('/hop2'), hits.get('/final?from=hop2')]).toEqual([1, 1, 1]);
  });

  test('the chain again, and its target on its own, go to the site (a kept 301 is never the answer)', async () => {
    const count = () => [hits.get('/hop1') ?? 0, hits.get('/hop2') ?? 0, hits.get('/final?from=hop2') ?? 0];
    const before = count();
    await get('/hop1');
    await get('/hop1');
    await get('/final?from=hop2');
    expect(count().map((n, i) => n - before[i]!)).toEqual([2, 2, 3]);
  });
});

describe('limits', () => {
  test('a decoded body over the cap is RESPONSE_TOO_LARGE (a compression bomb included), as is a declared length over it', async () => {
    const message = `The upstream response is larger than ${CAP} bytes.`;
    expect(await failure(get('/bomb'))).toEqual({ code: 'RESPONSE_TOO_LARGE', message });
    expect(await failure(get('/declared'))).toEqual({ code: 'RESPONSE_TOO_LARGE', message });
  });

  test('a 503 is retried; the second attempt answers', async () => {
    const out = await get('/flaky');
    expect([out.status, hits.get('/flaky')]).toEqual([200, 2]);
  });

  test('a page that never answers ends at the deadline, and the farm serves the next one', async () => {
    const f = await failure(farm.run(task({ url: `${origin}/hang` }, { timeoutMs: 3000 })));
    expect(f).toMatchObject({ code: 'REQUEST_FAILED_SCRAPE_TIMEOUT' });
    expect((await get('/gzip')).results[0].html).toBe('<p>zipped</p>');
  });
});

describe('proxies', () => {
  test('the default pool with credentials: the browser goes through it', async () => {
    const out = await get('/gzip?via=proxy', {}, proxied);
    expect(out.results[0].html).toBe('<p>zipped</p>');
    expect(proxy.served.filter((s) => s.includes('via=proxy'))).toEqual([`GET ${origin}/gzip?via=proxy`]);
  });
});

const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
const browsers = (): number[] => processTree(process.pid).filter((p) => /chrom/.test(cmdline(p)) && !cmdline(p).includes('--type=') && !/crashpad/.test(cmdline(p)));

describe('processes', () => {
  test('eight fetches at once in one context share one renderer process (farm/browser/fetch-openers.ts), with no GPU or network-service process; the pool sent them to the render thread from the start, so no fetch thread started', async () => {
    const before = new Set(browsers());
    const own = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, plainClient: 'chromium', maxResponseBytes: CAP }), limits: { retryBaseMs: 20 } });
    try {
      const outs = await Promise.all(Array.from({ length: 8 }, (_, i) => own.run(task({ url: `${origin}/json?n=${i}`, output: ['html'] }, { timeoutMs: 45_000 }))));
      expect(outs.map((o) => o.results[0].html)).toEqual(Array(8).fill('{"a":1}'));
      const browser = browsers().filter((p) => !before.has(p));
      expect(browser).toHaveLength(1);
      const renderers = processTree(browser[0]!).filter((p) => cmdline(p).includes('--type=renderer'));
      // The fetch tabs' process, and at most Chromium's spare renderer kept warm beside it.
      expect(renderers.length).toBeLessThanOrEqual(2);
      // The GPU and network services are threads of the browser process (farm/chromium-args.ts
      // IN_PROCESS_SERVICES): no process of either kind, and the fetches above went through it.
      const kinds = processTree(browser[0]!).map((p) => /--utility-sub-type=([\w.]+)/.exec(cmdline(p))?.[1] ?? /--type=([a-z-]+)/.exec(cmdline(p))?.[1]);
      expect(kinds.filter((k) => k === 'gpu-process' || k === 'network.mojom.NetworkService')).toEqual([]);
      expect(own.stats()).toMatchObject({ workers: 0, renderThreads: 1 });
    } finally {
      await own.close();
    }
  }, 90_000);

  test('with proxy credentials a context is retired after contextMaxFetches fetches: what Playwright keeps per navigation goes with it (farm/browser/contexts.ts)', async () => {
    const own = await createFarm({
      config: loadConfig({}, { allowPrivate: true, workers: 1, plainClient: 'chromium', maxResponseBytes: CAP, proxies: { default: [proxy.url] } }),
      limits: { retryBaseMs: 20, contextMaxFetches: 3 },
    });
    try {
      const contexts: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const out = await own.run(task({ url: `${origin}/json?retire=${i}`, output: ['html'] }, { timeoutMs: 45_000 }));
        expect(out.results[0].html).toBe('{"a":1}');
        contexts.push(own.stats().contexts);
      }
      // The third fetch retired its context, which closes once its last task is out.
      expect(contexts.slice(0, 2)).toEqual([1, 1]);
      await waitFor(() => own.stats().contexts === 0, 20_000, 'the retired context to close');
      expect(own.stats()).toMatchObject({ contexts: 0, pages: 0 });
      const next = await own.run(task({ url: `${origin}/json?retire=4`, output: ['html'] }, { timeoutMs: 45_000 }));
      expect([next.results[0].html, own.stats().contexts]).toEqual(['{"a":1}', 1]);
    } finally {
      await own.close();
    }
  }, 90_000);

  test("without proxy credentials fetches leave nothing in the context (the library's Network is off on its fetch tabs): it is not retired by them", async () => {
    const own = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, plainClient: 'chromium', maxResponseBytes: CAP }), limits: { retryBaseMs: 20, contextMaxFetches: 3 } });
    try {
      const contexts: number[] = [];
      for (let i = 1; i <= 5; i++) {
        const out = await own.run(task({ url: `${origin}/json?keep=${i}`, output: ['html'] }, { timeoutMs: 45_000 }));
        expect(out.results[0].html).toBe('{"a":1}');
        contexts.push(own.stats().contexts);
      }
      expect(contexts).toEqual([1, 1, 1, 1, 1]);
      // Still the same context: a cookie a site set in it on the first fetch is sent on the last.
      await own.run(task({ url: `${origin}/hop1?keep=set`, output: ['html'] }, { timeoutMs: 45_000 }));
      for (let i = 6; i <= 9; i++) await own.run(task({ url: `${origin}/json?keep=${i}`, output: ['html'] }, { timeoutMs: 45_000 }));
      expect(own.stats().contexts).toBe(1);
      expect(cookiesSeen.get('/json?keep=9')).toBe('hop=1');
    } finally {
      await own.close();
    }
  }, 90_000);
});
