/** Fetch planning: exact upstream URLs for every se1/se2 parameter, pagination, and the default planner. */
import { describe, expect, it } from 'vitest';
import { GleanerError } from '../../core/errors.js';
import { routeById } from '../../core/registry/index.js';
import type { RouteSpec } from '../../core/registry/types.js';
import { planFlows, type FetchStep, type Flow } from '../../core/targets/index.js';

/** Each flow's page request, as the one-fetch planners of these routes make them. */
const pagesOf = (flows: Flow[]) => flows.map((f) => ({ url: String((f.steps[f.steps.length - 1] as FetchStep).url), page: f.page }));

const SIM = 'http://127.0.0.1:8090';
const TARGETS = {
  se1: { baseUrl: `${SIM}/se1` },
  se2: { baseUrl: `${SIM}/se2/` },
  video: { baseUrl: `${SIM}/video` },
  llm1: { baseUrl: `${SIM}/llm1` },
  mkt1: { baseUrl: `${SIM}/mkt1` },
  mkt3: { baseUrl: 'https://{subdomain}.shop.example.{domain}/mkt3' },
  social1: { baseUrl: `${SIM}/social1` },
};

function route(id: string): RouteSpec {
  const r = routeById(id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
}
const plan = (id: string, params: Record<string, unknown>, targets: Record<string, { baseUrl: string }> = TARGETS) => pagesOf(planFlows(route(id), params, targets));
const urls = (id: string, params: Record<string, unknown>) => plan(id, params).map((p) => [p.page, p.url]);

describe('se1 planning', () => {
  it('a bare search is one fetch of page 1', () => {
    expect(plan('se1/search', { query: 'green tea', pages: 1, start_page: 1 })).toEqual([{ url: `${SIM}/se1/search?q=green%20tea`, page: 1 }]);
  });

  it('every se1/search parameter has its effect, verbatim ones exactly as sent', () => {
    const params = {
      query: 'a&b',
      domain: 'de',
      locale: 'de_DE',
      results_language: 'fr',
      location: 'DE',
      safe_search: true,
      tbm: 'nws',
      tbs: 'qdr:d',
      udm: '14',
      cr: 'countryFR|countryBE',
      nfpr: '1',
      filter: 0,
      aomd: '1',
      fpstate: 'aig',
      disable_scripts: true,
      expand_aio: true,
    };
    expect(urls('se1/search', params)).toEqual([
      [1, `${SIM}/se1/search?q=a%26b&domain=de&hl=de-DE&lr=lang_fr&gl=de&safe=active&tbm=nws&tbs=qdr%3Ad&udm=14&cr=countryFR%7CcountryBE&nfpr=1&filter=0&aomd=1&fpstate=aig&gbv=1&expand_aio=1`],
    ]);
    expect(urls('se1/search', { query: 'x', safe_search: false, results_language: 'zh_tw', expand_aio: false, disable_scripts: false })).toEqual([
      [1, `${SIM}/se1/search?q=x&lr=lang_zh-TW&safe=off`],
    ]);
  });

  it('domain fills a {domain} placeholder (default com) instead of a query parameter; location stays independent', () => {
    const targets = { se1: { baseUrl: 'https://www.example.{domain}' } };
    expect(plan('se1/search', { query: 'x', domain: 'co.uk', location: 'US' }, targets)).toEqual([{ url: 'https://www.example.co.uk/search?q=x&gl=us', page: 1 }]);
    expect(plan('se1/search', { query: 'x' }, targets)).toEqual([{ url: 'https://www.example.com/search?q=x', page: 1 }]);
  });

  it('pages and start_page fetch consecutive pages, each its own plan', () => {
    expect(urls('se1/search', { query: 'x', start_page: 3, pages: 3 })).toEqual([
      [3, `${SIM}/se1/search?q=x&start=20`],
      [4, `${SIM}/se1/search?q=x&start=30`],
      [5, `${SIM}/se1/search?q=x&start=40`],
    ]);
    expect(urls('se1/ads', { query: 'x', pages: 2, adstest: true, locale: 'en' })).toEqual([
      [1, `${SIM}/se1/search?q=x&hl=en&adtest=on`],
      [2, `${SIM}/se1/search?q=x&hl=en&start=10&adtest=on`],
    ]);
  });

  it('limit_per_page fetches the listed pages with their own result counts', () => {
    expect(urls('se1/search', { query: 'x', pages: 5, limit_per_page: [{ page: 1, limit: 20 }, { page: 3, limit: 50 }, { page: 1, limit: 5 }] })).toEqual([
      [1, `${SIM}/se1/search?q=x&num=20`],
      [3, `${SIM}/se1/search?q=x&num=50&start=100`],
    ]);
  });

  it('AI Mode, shopping, product, maps, hotels, lens and trends', () => {
    expect(urls('se1/aimode', { query: 'why is the sky blue' })).toEqual([[1, `${SIM}/se1/search?q=why%20is%20the%20sky%20blue&udm=50`]]);
    expect(urls('se1/shopping/search', { query: 'shoes', limit: 20, min_price: 10, max_price: 100, sort_by: 'p', tbs: 'mr:1,cat:5', pages: 2, start_page: 1 })).toEqual([
      [1, `${SIM}/se1/search?q=shoes&tbm=shop&num=20&tbs=${encodeURIComponent('mr:1,cat:5,price:1,ppr_min:10,ppr_max:100,p_ord:p')}`],
      [2, `${SIM}/se1/search?q=shoes&tbm=shop&num=20&start=20&tbs=${encodeURIComponent('mr:1,cat:5,price:1,ppr_min:10,ppr_max:100,p_ord:p')}`],
    ]);
    expect(urls('se1/shopping/search', { query: 'shoes', tbs: 'mr:1,cat:5' })).toEqual([[1, `${SIM}/se1/search?q=shoes&tbm=shop&tbs=mr%3A1%2Ccat%3A5`]]);
    expect(urls('se1/shopping/product', { query: '4487', locale: 'en_US', domain: 'fr' })).toEqual([[1, `${SIM}/se1/shopping/product/4487?domain=fr&hl=en-US`]]);
    expect(urls('se1/maps', { query: 'coffee shops', hotel_dates: '2025-06-01,2025-06-03', hotel_occupancy: 2, start_page: 2, pages: 1 })).toEqual([
      [2, `${SIM}/se1/maps/search/coffee%20shops?start=20&dates=2025-06-01%2C2025-06-03&occupancy=2`],
    ]);
    expect(urls('se1/travel/hotels', { query: 'paris', adults: 2, children: 1, hotel_classes: [4, 5], hotel_dates: '2025-06-01,2025-06-03', hotel_occupancy: 3, locale: 'fr' })).toEqual([
      [1, `${SIM}/se1/travel/search?q=paris&hl=fr&adults=2&children=1&hotel_class=4%2C5&dates=2025-06-01%2C2025-06-03&occupancy=3`],
    ]);
    expect(urls('se1/lens', { query: 'https://img.example/a.jpg', keywords: 'red shoe' })).toEqual([
      [1, `${SIM}/se1/lens/uploadbyurl?url=https%3A%2F%2Fimg.example%2Fa.jpg&q=red%20shoe`],
    ]);
    expect(urls('se1/trends/explore', { query: 'tea', locale: 'en' })).toEqual([[1, `${SIM}/se1/trends/explore?q=tea&hl=en`]]);
    expect(urls('se1', { url: `${SIM}/se1/search?q=x&start=10` })).toEqual([[1, `${SIM}/se1/search?q=x&start=10`]]);
  });

  it('a missing target is TARGET_NOT_CONFIGURED naming GLEANER_TARGETS (a job queued before a reload removed it)', () => {
    let err: unknown;
    try {
      plan('se1/search', { query: 'x' }, {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GleanerError);
    expect((err as GleanerError).toWire()).toEqual({
      code: 'TARGET_NOT_CONFIGURED',
      message: `No upstream is configured for target 'se1': add {"se1": {"baseUrl": "https://..."}} to the GLEANER_TARGETS file.`,
      data: { target: 'se1' },
    });
  });
});

describe('se2 planning', () => {
  it('locale, location, safe_search and pages', () => {
    expect(urls('se2/search', { query: 'x y', locale: 'en_GB', location: 'gb', safe_search: 'strict', domain: 'com', pages: 2 })).toEqual([
      [1, `${SIM}/se2/search?q=x%20y&domain=com&setlang=en-GB&cc=GB&adlt=strict`],
      [2, `${SIM}/se2/search?q=x%20y&domain=com&setlang=en-GB&cc=GB&first=11&adlt=strict`],
    ]);
    expect(urls('se2', { url: 'https://www.engine.example/search?q=x', locale: 'de_DE' })).toEqual([[1, 'https://www.engine.example/search?q=x&setlang=de-DE']]);
    expect(urls('se2', { url: 'https://www.engine.example/search?q=x' })).toEqual([[1, 'https://www.engine.example/search?q=x']]);
  });
});

describe('default planner (other families)', () => {
  it('query routes fetch {base}/{path after the target token}?query=... with the other parameters sorted', () => {
    expect(urls('social1/shop/search', { query: 'mug', country: 'US' })).toEqual([[1, `${SIM}/social1/shop/search?query=mug&country=US`]]);
  });

  it('{domain} and {subdomain} placeholders take their parameters', () => {
    expect(urls('mkt3/product', { query: 'P-1', domain: 'de', subdomain: 'shop' })).toEqual([[1, 'https://shop.shop.example.de/mkt3/product?query=P-1']]);
  });

  it('url routes fetch the url as given; universal fetches params.url', () => {
    expect(urls('mkt1', { url: 'https://market.example/dp/1?x=1', pages: 1 })).toEqual([[1, 'https://market.example/dp/1?x=1']]);
    expect(urls('universal', { url: 'https://site.example/a' })).toEqual([[1, 'https://site.example/a']]);
  });

  it('a missing target is an internal error naming GLEANER_TARGETS', () => {
    expect(() => plan('media/video/metadata', { query: 'a' }, {})).toThrow(/GLEANER_TARGETS/);
  });
});
