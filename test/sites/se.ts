/**
 * Search-engine simulator site (se1, se2). Mount with `baseUrl` `{origin}/se1` and `{origin}/se2`
 * (test/sites/targets.json); it answers only paths under `/se1/` and `/se2/`:
 *
 * - `/se1/search` — web results (`q`, `start`, `num`, `hl`, `gl`, `gbv=1` basic page,
 *   `expand_aio=1`, `adtest=on`), AI Mode with `udm=50`, shopping grid with `tbm=shop`
 *   (`tbs` `ppr_min`/`ppr_max`/`p_ord`), News with `tbm=nws` and Images with `tbm=isch` /
 *   `udm=2` (each in its basic-HTML form with `gbv=1`);
 * - `/se1/shopping/product/{id}`, `/se1/travel/search` (`adults`, `hotel_class`, `start`),
 *   `/se1/lens/uploadbyurl` (`url`, `q`), `/se1/maps/search/{q}`, `/se1/trends/explore`;
 * - `/se2/search` — web results (`q`, `first`, `setlang`, `cc`); `/se2/images/search` — image
 *   results (`q`; `nojs=1` the page without scripts).
 *
 * Failure switches, for taking an engine down in tests: a query (or image URL / product id)
 * containing `__fail__` answers 503; `__flaky__` answers 503 to the first request of that exact
 * path+query and 200 after; `__captcha__` answers 200 with a page no parser recognises;
 * `__empty__` answers a results page with no results.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { se1Docs, se2Docs } from './se-data.js';
import { se1ImagesPage, se1NewsPage } from './se1-tabs.js';
import { se1BasicPage, se1WebPage } from './se1-web.js';
import {
  hotels,
  se1AiModePage,
  se1HotelsPage,
  se1LensPage,
  se1MapsPage,
  se1ProductPage,
  se1ShoppingPage,
  se1TrendsPage,
  shoppingResults,
} from './se1-verticals.js';
import { se2ImagesPage } from './se2-layouts.js';
import { se2Page } from './se2-web.js';
import type { SiteContext, SiteHandler } from './types.js';

function send(res: ServerResponse, status: number, html: string): true {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
  return true;
}

const CAPTCHA = '<!doctype html><html><head><title>Unusual traffic</title></head><body><div id="captcha-form"><p>Our systems have detected unusual traffic. Please confirm you are not a robot.</p></div></body></html>';

/** Applies the failure switches; returns true when the response was sent. */
function failure(res: ServerResponse, url: URL, ctx: SiteContext, subject: string): boolean {
  if (subject.includes('__fail__')) return send(res, 503, '<!doctype html><html><body><h1>Service Unavailable</h1></body></html>');
  if (subject.includes('__flaky__') && (ctx.hits.get(url.pathname + url.search) ?? 1) <= 1) {
    return send(res, 503, '<!doctype html><html><body><h1>Try again</h1></body></html>');
  }
  if (subject.includes('__captcha__')) return send(res, 200, CAPTCHA);
  return false;
}

const int = (v: string | null, dflt: number) => (v !== null && /^\d+$/.test(v) ? Number(v) : dflt);

function se1(res: ServerResponse, url: URL, ctx: SiteContext): boolean {
  const sp = url.searchParams;
  const path = url.pathname.slice('/se1'.length);
  const hl = sp.get('hl') ?? 'en';
  const q = sp.get('q') ?? '';
  const product = path.match(/^\/shopping\/product\/([^/]+)$/);
  if (product) return failure(res, url, ctx, product[1]) || send(res, 200, se1ProductPage(decodeURIComponent(product[1]), hl));
  if (path === '/lens/uploadbyurl') {
    const image = sp.get('url') ?? '';
    return failure(res, url, ctx, image) || send(res, 200, se1LensPage(image, sp.get('q'), hl));
  }
  const maps = path.match(/^\/maps\/search\/([^/]+)\/?$/);
  if (maps) {
    const mq = decodeURIComponent(maps[1]);
    return failure(res, url, ctx, mq) || send(res, 200, se1MapsPage(mq, hl, int(sp.get('start'), 0)));
  }
  if (path === '/trends/explore') return failure(res, url, ctx, q) || send(res, 200, se1TrendsPage(q, hl));
  if (path === '/travel/search') {
    if (failure(res, url, ctx, q)) return true;
    const classes = sp.get('hotel_class')?.split(',').map(Number) ?? null;
    const start = int(sp.get('start'), 0);
    const list = hotels(q, int(sp.get('adults'), 2), classes).slice(start, start + 20);
    return send(res, 200, se1HotelsPage(q, hl, list, start));
  }
  if (path !== '/search') return false;
  if (failure(res, url, ctx, q)) return true;
  if (sp.get('udm') === '50') return send(res, 200, se1AiModePage(q, hl));
  if (sp.get('tbm') === 'nws') return send(res, 200, se1NewsPage(q, sp.get('gbv') === '1' ? 'basic' : 'card'));
  if (sp.get('tbm') === 'isch' || sp.get('udm') === '2') return send(res, 200, se1ImagesPage(q, sp.get('gbv') === '1' ? 'basic' : 'json'));
  if (sp.get('tbm') === 'shop') {
    const num = int(sp.get('num'), 12);
    return send(res, 200, se1ShoppingPage(q, hl, shoppingResults(q, sp.get('tbs'), int(sp.get('start'), 0), num)));
  }
  const num = int(sp.get('num'), 10);
  const page = Math.floor(int(sp.get('start'), 0) / num) + 1;
  const gl = sp.get('gl') ?? undefined;
  const docs = q.includes('__empty__') ? [] : se1Docs(q, page, num, gl);
  const opts = { query: q, page, num, hl, gl, expandAio: sp.get('expand_aio') === '1', adtest: sp.get('adtest') === 'on', docs };
  return send(res, 200, sp.get('gbv') === '1' ? se1BasicPage(opts) : se1WebPage(opts));
}

function se2(res: ServerResponse, url: URL, ctx: SiteContext): boolean {
  const sp = url.searchParams;
  const q = sp.get('q') ?? '';
  if (url.pathname === '/se2/images/search') return failure(res, url, ctx, q) || send(res, 200, se2ImagesPage(q, sp.get('nojs') === '1' ? 'cells' : 'json'));
  if (url.pathname !== '/se2/search') return false;
  if (failure(res, url, ctx, q)) return true;
  const page = Math.floor((int(sp.get('first'), 1) - 1) / 10) + 1;
  let docs = q.includes('__empty__') ? [] : se2Docs(q, page);
  const cc = sp.get('cc');
  if (cc && page === 1 && docs.length > 0) docs = [se1Docs(q, 1, 1, cc)[0], ...docs.slice(0, 9)];
  return send(res, 200, se2Page({ query: q, page, setlang: sp.get('setlang') ?? undefined, docs }));
}

export const seSite: SiteHandler = (req: IncomingMessage, res: ServerResponse, url: URL, ctx: SiteContext) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (url.pathname.startsWith('/se1/')) return se1(res, url, ctx);
  if (url.pathname.startsWith('/se2/')) return se2(res, url, ctx);
  return false;
};
