/**
 * The mkt1 simulator site: plays the large marketplace under `/mkt1/<domain>/` (so
 * GLEANER_TARGETS maps `mkt1` to `http://HOST:PORT/mkt1/{domain}`), with the storefront's own
 * URL vocabulary:
 *
 * - `/s?k=` search (`page`, `rh=n:..,p_36:..,p_123:..`, `me`, `s`, `safe_search`);
 * - `/dp/<id>` and `/<slug>/dp/<id>` product (`th=1&psc=1` selects a parent's default variation);
 * - `/gp/aod/ajax?asin=&pageno=&filters=` all-offers fragment;
 * - `/sp?seller=` seller profile;
 * - `/gp/bestsellers/<slug>[/<node>]`, `/zgbs/<slug>[/<node>]` (`pg`; past the last page 404;
 *   an unknown slug is the storefront's "Best Sellers in undefined" page);
 * - `/` home; `language=de_DE` switches the interface words; the `i18n-prefs` cookie the
 *   currency shown (`EUR 12.34`).
 *
 * Delivery location, as the storefront does it: every response without a `session-id` cookie
 * starts a session (`Set-Cookie: session-id`, `ubid-main`); the address-selection fragment
 * (`/portal-migration/hz/glow/get-rendered-address-selections`) carries the session's
 * `CSRF_TOKEN`; `POST /portal-migration/hz/glow/address-change` with that token in
 * `anti-csrftoken-a2z` and `{"zipCode": ...}` sets the session's postal code, which every page's
 * delivery line then names. A postal code made only of zeros ("00000") is the storefront's
 * false success: the reply says `isAddressUpdated: 1` and nothing is applied. A wrong token is
 * 403; a code that is not the marketplace's shape is `isValidAddress: 0`.
 *
 * Failure switches: a query, product or seller id containing `__fail__` answers 503,
 * `__captcha__` the robot check page; a search query containing `__drift__` is the search page
 * of its other words with its result cards renamed (a layout change the parser does not know).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MARKET_FACTS, MKT1_MARKETPLACES } from '../../core/targets/mkt1/marketplaces.js';
import { CITY, RATES } from './mkt1-data.js';
import { bestsellersPage, searchPage } from './mkt1-lists.js';
import { addressFragment, aodFragment, homePage, sellerPage } from './mkt1-pages.js';
import { productPage } from './mkt1-product.js';
import type { View } from './mkt1-shell.js';
import { captchaPage, notFoundPage, wordsFor } from './mkt1-shell.js';
import type { SiteContext, SiteHandler } from './types.js';

interface Session {
  token: string;
  /** Delivery postal code per marketplace domain. */
  zips: Record<string, string>;
}

interface State {
  next: number;
  sessions: Map<string, Session>;
}

// One state per simulator instance (its context object), so parallel simulators never share sessions.
const STATES = new WeakMap<SiteContext, State>();

function stateOf(ctx: SiteContext): State {
  let st = STATES.get(ctx);
  if (!st) {
    st = { next: 1, sessions: new Map() };
    STATES.set(ctx, st);
  }
  return st;
}

function cookiesOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return out;
}

function send(res: ServerResponse, status: number, body: string, type: string, cookies: string[]): true {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...(cookies.length ? { 'set-cookie': cookies } : {}) });
  res.end(body);
  return true;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function addressChange(req: IncomingMessage, body: string, session: Session, domain: string): { status: number; json: Record<string, unknown> } {
  if (req.headers['anti-csrftoken-a2z'] !== session.token) return { status: 403, json: { isAddressUpdated: 0, errorMessage: 'invalid csrf token' } };
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { status: 400, json: { isAddressUpdated: 0, errorMessage: 'malformed body' } };
  }
  const zip = typeof data.zipCode === 'string' ? data.zipCode.trim() : '';
  const rule = MKT1_MARKETPLACES[domain];
  if (data.locationType !== 'LOCATION_INPUT' || !zip || (rule && !rule.pattern.test(zip))) return { status: 200, json: { isValidAddress: 0, isAddressUpdated: 0 } };
  // The storefront's false success: answered as applied, not applied.
  if (!/^[0\s-]+$/.test(zip)) session.zips[domain] = zip;
  return { status: 200, json: { isValidAddress: 1, isAddressUpdated: 1, address: { zipCode: zip, city: CITY[domain] ?? '' } } };
}

export const mkt1Site: SiteHandler = async (req, res, url, ctx) => {
  const m = /^\/mkt1\/([a-z.]+)(\/.*)?$/.exec(url.pathname);
  if (!m || !Object.hasOwn(MARKET_FACTS, m[1] as string)) return false;
  const domain = m[1] as string;
  const path = m[2] ?? '/';
  const sp = url.searchParams;
  const st = stateOf(ctx);
  const cookies = cookiesOf(req);
  const set: string[] = [];
  let session = cookies['session-id'] ? st.sessions.get(cookies['session-id']) : undefined;
  if (!session) {
    const sid = `130-${String(st.next++).padStart(7, '0')}-0000001`;
    session = { token: `sim-csrf-${sid}`, zips: {} };
    st.sessions.set(sid, session);
    set.push(`session-id=${sid}; Path=/; HttpOnly`, `ubid-main=131-${sid.slice(4)}; Path=/`);
  }
  const facts = MARKET_FACTS[domain]!;
  const preferred = cookies['i18n-prefs']?.toUpperCase();
  const v: View = {
    domain,
    base: `/mkt1/${domain}`,
    currency: preferred && Object.hasOwn(RATES, preferred) ? preferred : facts.currency,
    home: facts.currency,
    words: wordsFor(domain, sp.get('language')),
    zip: session.zips[domain],
    city: CITY[domain] ?? 'Capital',
    countryName: facts.countryName,
    token: session.token,
  };
  const html = (status: number, body: string) => send(res, status, body, 'text/html; charset=utf-8', set);
  const subject = sp.get('k') ?? sp.get('asin') ?? sp.get('seller') ?? path;
  if (subject.includes('__fail__')) return html(503, '<!doctype html><html><body><h1>Service Unavailable</h1></body></html>');
  if (subject.includes('__captcha__')) return html(200, captchaPage());

  if (path === '/portal-migration/hz/glow/get-rendered-address-selections') return html(200, addressFragment(v));
  if (path === '/portal-migration/hz/glow/address-change') {
    if (req.method !== 'POST') return html(405, '<h1>Method Not Allowed</h1>');
    const r = addressChange(req, await readBody(req), session, domain);
    return send(res, r.status, JSON.stringify(r.json), 'application/json', set);
  }
  if (path === '/' || path === '') return html(200, homePage(v));
  if (path === '/s' && subject.includes('__drift__')) {
    // A layout change: the result cards under a name the parser does not know.
    const words = new URLSearchParams(sp);
    words.set('k', subject.replace('__drift__', '').trim());
    return html(200, searchPage(v, words).replaceAll('data-component-type="s-search-result"', 'data-component-type="s-result-card-v2"'));
  }
  if (path === '/s') return html(200, searchPage(v, sp));
  const dp = /^(?:\/[^/]+)?\/dp\/([^/?]+)/.exec(path);
  if (dp) {
    const page = productPage(v, decodeURIComponent(dp[1] as string), sp.get('th') === '1' && sp.get('psc') === '1');
    return page ? html(200, page) : html(404, notFoundPage(v));
  }
  if (/^\/gp\/aod\/ajax\/?/.test(path)) {
    const frag = aodFragment(v, sp.get('asin') ?? '', Math.max(1, Number(sp.get('pageno') ?? '1') || 1), sp.get('filters'));
    return frag ? html(200, frag) : html(404, notFoundPage(v));
  }
  if (path === '/sp') {
    const page = sellerPage(v, sp.get('seller') ?? '');
    return page ? html(200, page) : html(404, notFoundPage(v));
  }
  const best = /^\/(?:gp\/bestsellers|(?:[^/]+\/)?zgbs)\/([^/?]+)(?:\/(\d+))?/.exec(path);
  if (best) {
    const r = bestsellersPage(v, decodeURIComponent(best[1] as string), best[2], Math.max(1, Number(sp.get('pg') ?? '1') || 1));
    return html(r.status, r.html);
  }
  return html(404, notFoundPage(v));
};
