/**
 * A fetch tab's two protocol sessions (farm/browser/tab.ts): the library's own session has
 * `Network` off (`quietLibraryNetwork`) unless the library answers proxy credentials on it, and
 * what that moves still works on a real Chromium — a step's extra headers reach the site
 * through the tab's own session and leave with the step; the hosts a navigation went to are
 * named by nav-fetch.ts itself (a guard refusal is told from them, nav-page.ts).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'patchright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { defaultChromium } from '../../core/config.js';
import { quietableLibrarySession } from '../../farm/browser/direct-session.js';
import { navFetch } from '../../farm/browser/nav-fetch.js';
import { Tab, TabRun } from '../../farm/browser/tab.js';
import { chromiumArgs, resolveExecutable } from '../../farm/chromium-args.js';
import { profileFor, sessionKeyOf } from '../../farm/identity/profile.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

let server: Server;
let origin: string;
let port: number;
let browser: Browser;
let proxy: TestProxy;
/** `path x-step=…` per request the site received. */
const seen: string[] = [];

const profile = profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device: 'desktop' });
const fetchOnce = (tab: Tab, path: string, headers?: Record<string, string>) =>
  navFetch(tab, { url: path.startsWith('http') ? path : `${origin}${path}`, headers, maxBytes: 1 << 20, manualRedirects: false, signal: AbortSignal.timeout(20_000) });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.url} x-step=${req.headers['x-step'] ?? '-'}`);
    if (req.url === '/away') return void res.writeHead(302, { location: `http://localhost:${port}/there` }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  proxy = await startProxy({ username: 'u', password: 'p' });
  const executablePath = resolveExecutable(defaultChromium());
  browser = await chromium.launch({ executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false }), headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  server?.close();
});

async function withContext<T>(fn: (context: BrowserContext) => Promise<T>, options: Parameters<Browser['newContext']>[0] = {}): Promise<T> {
  const context = await browser.newContext(options);
  try {
    return await fn(context);
  } finally {
    await context.close();
  }
}

test("a fetch tab's library session reports no request; the page comes back", async () => {
  await withContext(async (context) => {
    const tab = await Tab.open(context, profile, false, 'fetch');
    expect(quietableLibrarySession(tab.page)).toBeDefined();
    const requests: string[] = [];
    tab.page.on('request', (r) => requests.push(r.url()));
    const bodies: string[] = [];
    for (const path of ['/q1', '/q2', '/q3']) bodies.push(String((await fetchOnce(tab, path)).body));
    expect(bodies).toEqual(['<p>/q1</p>', '<p>/q2</p>', '<p>/q3</p>']);
    expect(requests).toEqual([]);
  });
}, 60_000);

test("a step's extra headers reach the site through the tab's own session, and only on that step", async () => {
  await withContext(async (context) => {
    const tab = await Tab.open(context, profile, false, 'fetch');
    seen.length = 0;
    await fetchOnce(tab, '/h1', { 'x-step': 'one' });
    await fetchOnce(tab, '/h2');
    await fetchOnce(tab, '/h3', { 'x-step': 'three' });
    await fetchOnce(tab, '/h4', { 'x-step': 'three' });
    await fetchOnce(tab, '/h5');
    expect(seen).toEqual(['/h1 x-step=one', '/h2 x-step=-', '/h3 x-step=three', '/h4 x-step=three', '/h5 x-step=-']);
  });
}, 60_000);

test('the hosts a navigation went to, redirects included, are in the run', async () => {
  await withContext(async (context) => {
    const tab = await Tab.open(context, profile, false, 'fetch');
    tab.run = new TabRun(1 << 20, () => undefined);
    const got = await fetchOnce(tab, '/away');
    expect([got.url, String(got.body)]).toEqual([`http://localhost:${port}/there`, '<p>/there</p>']);
    expect([...tab.run.navHosts]).toEqual(['127.0.0.1', 'localhost']);
  });
}, 60_000);

test('with proxy credentials the library keeps its session (it answers the challenge there): the fetch goes through the proxy', async () => {
  const { username, password } = new URL(proxy.url);
  const server = `http://127.0.0.1:${proxy.port}`;
  await withContext(
    async (context) => {
      const tab = await Tab.open(context, profile, false, 'fetch');
      expect(quietableLibrarySession(tab.page)).toBeUndefined();
      const got = await fetchOnce(tab, `${origin}/via-proxy`, { 'x-step': 'p' });
      expect(String(got.body)).toBe('<p>/via-proxy</p>');
      expect(proxy.served).toContain(`GET ${origin}/via-proxy`);
      expect(seen).toContain('/via-proxy x-step=p');
    },
    { proxy: { server, username, password } },
  );
}, 60_000);
