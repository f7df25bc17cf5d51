/**
 * Worker side: a flow's cookies on the browser paths. The flow's jar (tough-cookie) is the
 * record; a browser context gets the jar's cookies for a page's URL when it is made (contexts
 * are keyed by them, browser/contexts.ts), and what the browser stored while fetching a page
 * comes back to the jar, so the flow's next step (native or not) sends them as Chrome would.
 */
import { Cookie, type CookieJar } from 'tough-cookie';
import type { BrowserCookie } from '../browser/context-lease.js';
import type { Tab } from '../browser/tab.js';
import type { PageRequest } from './page-fetch.js';

/** A browser cookie as the context reports it (the shape of Playwright's `context.cookies()`). */
export interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1: a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/**
 * The cookies of a browser page step: the jar's for its URL, and those of the step's own
 * `cookie` header (a currency or store preference), which wins for a name both hold. The header
 * cannot travel as an extra HTTP header: Chromium replaces it with the context's cookies
 * whenever the context has any (a session's), and the step's choice is silently lost.
 */
export function browserCookies(jar: CookieJar, req: PageRequest): BrowserCookie[] {
  const byName = new Map<string, BrowserCookie>();
  for (const c of jar.getCookiesSync(req.url)) byName.set(c.key, { name: c.key, value: c.value, url: req.url });
  for (const [name, value] of headerCookies(req.headers)) byName.set(name, { name, value, url: req.url });
  return [...byName.values()];
}

/** The context key of a cookie set (undefined: none). */
export function cookieKeyOf(cookies: readonly BrowserCookie[]): string | undefined {
  return cookies.length ? cookies.map((c) => `${c.domain ?? c.url}|${c.name}=${c.value}`).sort().join(';') : undefined;
}

/** The request without its `cookie` header: on the browser paths its cookies go to the context. */
export function withoutCookieHeader(req: PageRequest): PageRequest {
  if (!req.headers || !Object.keys(req.headers).some((k) => k.toLowerCase() === 'cookie')) return req;
  return { ...req, headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'cookie')) };
}

/**
 * The cookies the browser would send to any of `urls`, read through the tab's own session
 * (`Network.getCookies`, the browser's own matching) rather than `context.cookies(urls)`, which
 * fetches every cookie of the context over the browser session and matches them in JavaScript
 * on each call (its cost grows with the context's cookies, and it is one more library round
 * trip per page). A missing SameSite reads as Lax, as the library reports it.
 */
export async function tabCookies(tab: Tab, urls: readonly string[]): Promise<StoredCookie[]> {
  const { cookies } = await tab.cdp.send('Network.getCookies', { urls: [...urls] });
  return cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.session ? -1 : c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite ?? 'Lax',
  }));
}

/** Puts what a browser context holds into the flow's jar (domain, path, expiry and flags kept). */
export async function storeBrowserCookies(jar: CookieJar, cookies: readonly StoredCookie[]): Promise<void> {
  for (const c of cookies) {
    const hostOnly = !c.domain.startsWith('.');
    const domain = hostOnly ? c.domain : c.domain.slice(1);
    const cookie = new Cookie({
      key: c.name,
      value: c.value,
      domain,
      path: c.path,
      hostOnly,
      secure: c.secure,
      httpOnly: c.httpOnly,
      sameSite: c.sameSite.toLowerCase(),
      ...(c.expires > 0 ? { expires: new Date(c.expires * 1000) } : {}),
    });
    const url = `${c.secure ? 'https' : 'http'}://${domain}${c.path}`;
    await jar.setCookie(cookie, url, { ignoreError: true });
  }
}

/** `name=value` pairs of a request's `cookie` header (any case), in order. */
function headerCookies(headers: PageRequest['headers']): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, line] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() !== 'cookie') continue;
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      const name = eq > 0 ? part.slice(0, eq).trim() : '';
      if (name) out.push([name, part.slice(eq + 1).trim()]);
    }
  }
  return out;
}
