/**
 * Commerce simulator site: one catalogue (commerce-data.ts) under every commerce token, each
 * token in its own markup style (commerce-pages.ts). It answers at the URLs the token's entry
 * in test/sites/targets.json describes — the templates are read back into matchers, and the
 * mapped cookies and headers are read from the request — and at the default convention's
 * `/{token}/{route}?query=...` URLs. What it honours, so tests can see a parameter arrive:
 *
 * - a store (`store_id`, from wherever the entry puts it) of `S2` lowers prices by 1;
 * - department1's API answers 401 unless `key` equals the `visitorId` cookie its home page set
 *   (a flow whose session step read that cookie);
 * - social1's `x-shop-region: GB` prices in GBP;
 * - query `blocked` is a captcha page; a query starting `blocked-once` is one the first time that
 *   URL is asked, then the results of its other words (`blocked-once outdoor`); a query starting
 *   `js-challenge` is a JavaScript challenge until the request carries the cookie its script sets
 *   (a browser passes it, a plain client never does), then the results of its other words.
 *
 * `GET /commerce/_requests` lists the commerce requests seen (path, cookie, mapped headers).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMERCE_TARGETS } from '../../core/targets/commerce/routes.js';
import { findProduct, PAGE_SIZE, priceAt, search } from './commerce-data.js';
import { CAPTCHA_PAGE, JS_CHALLENGE_PAGE, listingPage, productPage, type PageContext, type Style } from './commerce-pages.js';
import type { SiteContext, SiteHandler } from './types.js';

interface Entry {
  baseUrl: string;
  templates?: Record<string, string>;
  page?: { first?: number; step?: number };
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
  values?: Record<string, Record<string, string>>;
  session?: { url: string };
}

export const SIM_TARGETS: Record<string, Entry> = JSON.parse(readFileSync(new URL('./targets.json', import.meta.url), 'utf8'));

/** The shipped mapping pointed at a simulator on another origin (tests run it on port 0). */
export function simTargets(origin: string): Record<string, Entry> {
  return Object.fromEntries(Object.entries(SIM_TARGETS).map(([k, v]) => [k, { ...v, baseUrl: v.baseUrl.replace('http://127.0.0.1:8090', origin) }]));
}

/** Markup style and money format per token. */
const LOOK: Record<string, { product: Style; listing: Style; currency: string; show: (n: number) => string }> = {};
const usd = (n: number): string => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const euro = (n: number): string => `${n.toLocaleString('de-DE', { minimumFractionDigits: 2 })} €`;
const look = (tokens: string[], product: Style, listing: Style, currency = 'USD', show = usd): void => {
  for (const t of tokens) LOOK[t] = { product, listing, currency, show };
};
look(['mkt2', 'forum1'], 'jsonld-graph', 'jsonld');
look(['grocery1'], 'jsonld', 'jsonld');
look(['pet1'], 'jsonld-broken', 'jsonld');
look(['latam1'], 'jsonld-group', 'jsonld', 'ARS', (n) => `$ ${n.toLocaleString('es-AR', { minimumFractionDigits: 2 })}`);
look(['mkt3'], 'microdata', 'microdata', 'GBP', (n) => `£${n.toFixed(2)}`);
look(['mxgrocery1'], 'microdata', 'microdata', 'MXN');
look(['supermarket1'], 'microdata', 'microdata', 'EUR', euro);
look(['bigbox1'], 'next-data', 'next-data');
look(['homeimprovement1'], 'preloaded-state', 'preloaded-state');
look(['electronics1'], 'initial-state', 'initial-state');
look(['fashion1'], 'initial-state', 'initial-state', 'EUR', euro);
look(['mkt4'], 'cards', 'cards', 'PLN', (n) => `${n.toLocaleString('pl-PL', { minimumFractionDigits: 2, useGrouping: true })} zł`);
look(['supermarket2'], 'cards', 'cards');
look(['department1'], 'api', 'api');
look(['social1'], 'jsonld', 'api');

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template read back: `/{domain}/s?k={query}` → a path pattern and query-string patterns. */
interface Matcher {
  kind: string;
  path: RegExp;
  pathNames: string[];
  query: { key: string; re: RegExp; names: string[] }[];
}

function pattern(text: string, segment: string): { re: string; names: string[] } {
  const names: string[] = [];
  const re = text.split(/(\{[A-Za-z_]\w*\})/).map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (!m) return esc(part);
    names.push(m[1] as string);
    return `(${segment})`;
  });
  return { re: re.join(''), names };
}

function matcherOf(prefix: string, kind: string, template: string): Matcher {
  const [path = '', qs = ''] = template.split('?');
  const p = pattern(prefix + path, '[^/]*');
  return {
    kind,
    path: new RegExp(`^${p.re}$`),
    pathNames: p.names,
    query: qs.split('&').filter(Boolean).map((pair) => {
      const [key = '', value = ''] = pair.split('=');
      const v = pattern(value, '.*');
      return { key, re: new RegExp(`^${v.re}$`), names: v.names };
    }),
  };
}

function cookiesOf(req: IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim()));
  }
  return out;
}

/** The request's parameters as the entry placed them: template captures, mapped cookies and headers. */
function readParams(m: Matcher, entry: Entry, url: URL, req: IncomingMessage): Record<string, string> | null {
  const hit = m.path.exec(url.pathname);
  if (!hit) return null;
  const out: Record<string, string> = {};
  m.pathNames.forEach((n, i) => (out[n] = decodeURIComponent(hit[i + 1] as string)));
  for (const q of m.query) {
    const v = url.searchParams.get(q.key);
    const qm = v === null ? null : q.re.exec(v);
    if (qm) q.names.forEach((n, i) => (out[n] = qm[i + 1] as string));
  }
  const cookies = cookiesOf(req);
  for (const [name, t] of Object.entries(entry.cookies ?? {})) {
    const v = cookies.get(name);
    const n = /^\{(\w+)\}$/.exec(t)?.[1];
    if (v !== undefined && n) out[n] = v;
  }
  for (const [name, t] of Object.entries(entry.headers ?? {})) {
    const v = req.headers[name.toLowerCase()];
    const n = /^\{(\w+)\}$/.exec(t)?.[1];
    if (typeof v === 'string' && n) out[n] = v;
  }
  // Leftover parameters arrive under their own names.
  for (const [k, v] of url.searchParams) out[k] ??= v;
  return out;
}

interface Logged {
  token: string;
  url: string;
  cookie: string | null;
  headers: Record<string, string>;
}
const logs = new WeakMap<SiteContext, Logged[]>();

function send(res: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

export const commerceSite: SiteHandler = (req, res, url, ctx) => {
  if (url.pathname === '/commerce/_requests') return send(res, 200, JSON.stringify(logs.get(ctx) ?? []), 'application/json');
  const token = Object.keys(COMMERCE_TARGETS).find((t) => url.pathname === `/${t}` || url.pathname.startsWith(`/${t}/`));
  if (!token) return false;
  const entry = SIM_TARGETS[token] ?? { baseUrl: `http://127.0.0.1:8090/${token}` };
  const prefix = new URL(entry.baseUrl).pathname.replace(/\/$/, '');
  const log = logs.get(ctx) ?? [];
  logs.set(ctx, log);
  log.push({ token, url: url.pathname + url.search, cookie: req.headers.cookie ?? null, headers: Object.fromEntries(Object.keys(entry.headers ?? {}).map((h) => [h, String(req.headers[h.toLowerCase()] ?? '')])) });

  const rest = url.pathname.slice(prefix.length);
  if (entry.session && (rest === '' || rest === '/')) return send(res, 200, '<!doctype html><title>Home</title><h1>Home</h1>', undefined, { 'set-cookie': `visitorId=V-${token}; Path=/` });
  const found = matchRoute(token, entry, prefix, url, req);
  if (!found) return false;
  return answer(res, token, entry, prefix, found, url, req, ctx);
};

interface Found {
  kind: string;
  params: Record<string, string>;
  /** The query-string key that carries the page (`page` in the default convention). */
  pageKey: string;
}

function matchRoute(token: string, entry: Entry, prefix: string, url: URL, req: IncomingMessage): Found | null {
  const item = new RegExp(`^${esc(prefix)}/item/([^/]+)$`).exec(url.pathname);
  if (item) {
    const params = readParams(matcherOf(prefix, 'item', `/item/{query}`), entry, url, req) ?? {};
    return { kind: 'item', params, pageKey: 'page' };
  }
  for (const [kind, t] of Object.entries(entry.templates ?? {})) {
    const m = matcherOf(prefix, kind, t);
    const params = readParams(m, entry, url, req);
    if (params) return { kind, params, pageKey: m.query.find((q) => q.names.includes('page'))?.key ?? 'page' };
  }
  // The default convention: /{token}/{route}?query=...&page=N.
  const kind = url.pathname.slice(`/${token}/`.length);
  if (['product', 'search', 'category', 'shop/product', 'shop/search'].includes(kind)) return { kind, params: Object.fromEntries(url.searchParams), pageKey: 'page' };
  return null;
}

function answer(res: ServerResponse, token: string, entry: Entry, prefix: string, found: Found, url: URL, req: IncomingMessage, ctx: SiteContext): true {
  const { kind, params } = found;
  const query = params.query ?? '';
  if (query === 'blocked' || (query.startsWith('blocked-once') && (ctx.hits.get(url.pathname + url.search) ?? 0) <= 1)) return send(res, 200, CAPTCHA_PAGE);
  if (query.startsWith('js-challenge') && cookiesOf(req).get('sim_clearance') !== 'passed') return send(res, 200, JS_CHALLENGE_PAGE);
  if (token === 'department1' && kind !== 'item' && entry.session && params.visitor_id !== cookiesOf(req).get('visitorId')) {
    return send(res, 401, JSON.stringify({ error: 'missing or wrong visitor key' }), 'application/json');
  }
  const base = look0(token);
  const gb = params.country === 'GB';
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const store = params.store_id;
  const pageCtx = (n: number, total: number): PageContext => ({
    home: `${origin}${prefix}/`,
    link: (id) => `${origin}${prefix}/item/${id}`,
    currency: gb ? 'GBP' : base.currency,
    show: gb ? (v) => `£${v.toFixed(2)}` : base.show,
    price: (p) => priceAt(p, store),
    query,
    page: n,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    nextUrl: null,
  });
  if (kind === 'item' || kind === 'product' || kind === 'shop/product') {
    const p = findProduct(query);
    if (!p) return send(res, 404, '<!doctype html><title>Not found</title><h1>No such product</h1>');
    const style = kind === 'shop/product' ? 'api' : base.product;
    return send(res, 200, productPage(style, p, pageCtx(1, 1)), style === 'api' ? 'application/json' : undefined);
  }
  const first = entry.templates?.[kind] ? (entry.page?.first ?? 1) : 1;
  const step = entry.templates?.[kind] ? (entry.page?.step ?? 1) : 1;
  const raw = params.page === undefined ? first : Number(params.page);
  const n = Number.isFinite(raw) ? Math.floor((raw - first) / step) + 1 : 1;
  const all = search(query);
  const items = all.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
  const c = pageCtx(n, all.length);
  if (n * PAGE_SIZE < all.length) {
    const next = new URL(url.href);
    next.searchParams.set(found.pageKey, String(first + n * step));
    c.nextUrl = next.href.replace(/^http:\/\/[^/]+/, origin);
  }
  const style = kind === 'shop/search' ? 'api' : base.listing;
  return send(res, 200, listingPage(style, items, c), style === 'api' ? 'application/json' : undefined);
}

function look0(token: string): (typeof LOOK)[string] {
  return LOOK[token] ?? { product: 'jsonld', listing: 'jsonld', currency: 'USD', show: usd };
}
