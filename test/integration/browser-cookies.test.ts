/**
 * What a fetch tab's browser stored comes back to the flow's jar (farm/worker/browser-cookies.ts
 * `tabCookies` + `storeBrowserCookies`): a real Chromium fetch tab (patchright-core, as the farm
 * drives it) navigates through a redirect to a page, each setting cookies of different scopes,
 * and the jar then holds exactly those the browser would send to the hops, with their flags.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'patchright-core';
import { CookieJar } from 'tough-cookie';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { defaultChromium } from '../../core/config.js';
import { navFetch } from '../../farm/browser/nav-fetch.js';
import { Tab } from '../../farm/browser/tab.js';
import { chromiumArgs, resolveExecutable } from '../../farm/chromium-args.js';
import { profileFor, sessionKeyOf } from '../../farm/identity/profile.js';
import { storeBrowserCookies, tabCookies } from '../../farm/worker/browser-cookies.js';

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/start') {
      res.writeHead(302, { location: '/shop/page', 'set-cookie': ['sid=abc; Path=/; HttpOnly', 'pref=eur; Path=/; Max-Age=3600; SameSite=Strict'] }).end();
      return;
    }
    if (req.url === '/shop/page') {
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': ['cart=2; Path=/shop', 'other=1; Path=/elsewhere'] }).end('<p>page</p>');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = resolveExecutable(defaultChromium());
  browser = await chromium.launch({ executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false }), headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('the cookies the browser stored on every hop reach the jar with their scope and flags; none of another path', async () => {
  const context = await browser.newContext();
  try {
    const profile = profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device: 'desktop' });
    const tab = await Tab.open(context, profile, false, 'fetch');
    const got = await navFetch(tab, { url: `${origin}/start`, headers: undefined, maxBytes: 1 << 20, manualRedirects: false, signal: AbortSignal.timeout(30_000) });
    expect(got.hops).toEqual([`${origin}/start`, `${origin}/shop/page`]);
    const stored = await tabCookies(tab, got.hops);
    const view = stored.map((c) => `${c.name}=${c.value} ${c.domain}${c.path} ${c.httpOnly ? 'httponly ' : ''}${c.sameSite} ${c.expires === -1 ? 'session' : 'expires'}`).sort();
    expect(view).toEqual(['cart=2 127.0.0.1/shop Lax session', 'pref=eur 127.0.0.1/ Strict expires', 'sid=abc 127.0.0.1/ httponly Lax session']);
    const jar = new CookieJar();
    await storeBrowserCookies(jar, stored);
    // The jar orders cookies of one path by when they were stored, and the browser's list has no set order.
    const sent = (url: string) => jar.getCookieStringSync(url).split('; ').sort();
    expect(sent(`${origin}/shop/next`)).toEqual(['cart=2', 'pref=eur', 'sid=abc']);
    expect(sent(`${origin}/`)).toEqual(['pref=eur', 'sid=abc']);
    expect(jar.getCookieStringSync(`${origin}/shop/next`).startsWith('cart=2; ')).toBe(true);
  } finally {
    await context.close();
  }
}, 60_000);
