/**
 * mkt1 planning: the exact upstream request of every route and parameter (pagination, the
 * delivery-location setup steps with their cookies, headers and body, sessions), and the
 * sort_by/condition rules.
 */
import { describe, expect, it } from 'vitest';
import { routeById } from '../../core/registry/index.js';
import type { RouteSpec } from '../../core/registry/types.js';
import type { FetchStep, Flow } from '../../core/targets/flow.js';
import { ADDRESS_CHANGE_BODY, FRAGMENT_PATH, SESSION_TTL_MS } from '../../core/targets/mkt1/location.js';
import { planMkt1 } from '../../core/targets/mkt1/plan.js';
import { validate } from '../../core/schema/index.js';
import { checkTarget } from '../../core/targets/mkt1/rules.js';

const SIM = 'http://127.0.0.1:8090';
const TARGETS = { mkt1: { baseUrl: `${SIM}/mkt1/{domain}` } };

function route(id: string): RouteSpec {
  const r = routeById(id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
}
/** mkt1 flows are fetch steps only. */
const plan = (id: string, params: Record<string, unknown>, targets: Record<string, { baseUrl: string }> = TARGETS) => planMkt1(route(id), params, targets) as (Omit<Flow, 'steps'> & { steps: FetchStep[] })[];
const pageStep = (f: Flow) => f.steps.at(-1) as FetchStep & { url: string };
const urls = (id: string, params: Record<string, unknown>, targets?: Record<string, { baseUrl: string }>) => plan(id, params, targets).map((f) => [f.page, pageStep(f).url]);

describe('mkt1 URL vocabulary', () => {
  it('search: k, the rh refinement (category, price in cents, caller refinement), me, s, page N > 1, language', () => {
    const params = {
      query: 'usb c', domain: 'de', category_id: '123', min_price: 10, max_price: 25.5, refinement: 'p_72:1248879011', merchant_id: 'A1SELLER',
      sort_by: 'price_asc', locale: 'de-de', pages: 2, start_page: 1,
    };
    expect(urls('mkt1/search', params)).toEqual([
      [1, `${SIM}/mkt1/de/s?k=usb%20c&rh=n%3A123%2Cp_36%3A1000-2550%2Cp_72%3A1248879011&me=A1SELLER&s=price-asc-rank&language=de_DE`],
      [2, `${SIM}/mkt1/de/s?k=usb%20c&rh=n%3A123%2Cp_36%3A1000-2550%2Cp_72%3A1248879011&me=A1SELLER&s=price-asc-rank&page=2&language=de_DE`],
    ]);
  });

  it('search: open price ranges, the storefront sort values, safe_search, start_page, yen in whole units', () => {
    expect(urls('mkt1/search', { query: 'lamp', max_price: 15, sort_by: 'review-rank', safe_search: false, pages: 1, start_page: 3 })).toEqual([
      [3, `${SIM}/mkt1/com/s?k=lamp&rh=p_36%3A-1500&s=review-rank&safe_search=false&page=3`],
    ]);
    expect(urls('mkt1/search', { query: 'lamp', domain: 'co.jp', min_price: 1200, sort_by: 'newest' })).toEqual([[1, `${SIM}/mkt1/co.jp/s?k=lamp&rh=p_36%3A1200-&s=date-desc-rank`]]);
    const sorts = ['relevance', 'price_desc', 'review', 'bestsellers'].map((s) => new URL(pageStep(plan('mkt1/search', { query: 'x', sort_by: s })[0]!).url).searchParams.get('s'));
    expect(sorts).toEqual(['relevanceblender', 'price-desc-rank', 'review-rank', 'exact-aware-popularity-rank']);
  });

  it('product: /dp/<id>; autoselect_variant adds th=1&psc=1; always one page', () => {
    expect(urls('mkt1/product', { query: 'B0SIMLMP01' })).toEqual([[1, `${SIM}/mkt1/com/dp/B0SIMLMP01`]]);
    expect(urls('mkt1/product', { query: 'B0SIMCMP00', domain: 'co.uk', autoselect_variant: true, locale: 'en_GB' })).toEqual([
      [1, `${SIM}/mkt1/co.uk/dp/B0SIMCMP00?th=1&psc=1&language=en_GB`],
    ]);
  });

  it('pricing: the all-offers fragment with pageno on every page, condition as its filters JSON', () => {
    expect(urls('mkt1/pricing', { query: 'B0SIMLMP01', pages: 2, start_page: 1 })).toEqual([
      [1, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1`],
      [2, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=2`],
    ]);
    expect(urls('mkt1/pricing', { query: 'B0SIMLMP01', condition: 'new' })).toEqual([
      [1, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1&filters=${encodeURIComponent('{"all":true,"new":true}')}`],
    ]);
    const used = new URL(pageStep(plan('mkt1/pricing', { query: 'X', condition: 'used' })[0]!).url).searchParams.get('filters');
    expect(JSON.parse(used ?? '')).toEqual({ all: true, usedLikeNew: true, usedVeryGood: true, usedGood: true, usedAcceptable: true });
    expect(new URL(pageStep(plan('mkt1/pricing', { query: 'X', condition: 'all' })[0]!).url).searchParams.has('filters')).toBe(false);
  });

  it('sellers and bestsellers: /sp?seller=, /gp/bestsellers/<query>[/<category_id>] with pg=N from page 2', () => {
    expect(urls('mkt1/sellers', { query: 'A1SIMSELLER01', locale: 'fr_FR', domain: 'fr' })).toEqual([[1, `${SIM}/mkt1/fr/sp?seller=A1SIMSELLER01&language=fr_FR`]]);
    expect(urls('mkt1/bestsellers', { query: 'lighting', category_id: '1000001', pages: 2, start_page: 1 })).toEqual([
      [1, `${SIM}/mkt1/com/gp/bestsellers/lighting/1000001`],
      [2, `${SIM}/mkt1/com/gp/bestsellers/lighting/1000001?pg=2`],
    ]);
  });

  it('a base URL without {domain} carries domain= instead', () => {
    expect(urls('mkt1/product', { query: 'B0SIMLMP01', domain: 'de' }, { mkt1: { baseUrl: `${SIM}/market` } })).toEqual([[1, `${SIM}/market/dp/B0SIMLMP01?domain=de`]]);
  });

  it('mkt1 by URL: the URL as given, with the parameters that fit its page kind', () => {
    const search = `${SIM}/mkt1/de/s?k=lamp&rh=n%3A1`;
    expect(urls('mkt1', { url: search, pages: 2, start_page: 1, sort_by: 'price_desc', max_price: 20 })).toEqual([
      [1, `${SIM}/mkt1/de/s?k=lamp&rh=n%3A1%2Cp_36%3A-2000&s=price-desc-rank`],
      [2, `${SIM}/mkt1/de/s?k=lamp&rh=n%3A1%2Cp_36%3A-2000&s=price-desc-rank&page=2`],
    ]);
    expect(urls('mkt1', { url: 'https://www.example.co.uk/Some-Lamp/dp/B0SIMLMP01/ref=x', autoselect_variant: true, pages: 3, locale: 'en_GB' })).toEqual([
      [1, 'https://www.example.co.uk/Some-Lamp/dp/B0SIMLMP01/ref=x?th=1&psc=1&language=en_GB'],
    ]);
    expect(urls('mkt1', { url: `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01`, condition: 'new', pages: 1, start_page: 2 })[0]).toEqual([
      2, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&filters=%7B%22all%22%3Atrue%2C%22new%22%3Atrue%7D&pageno=2`,
    ]);
    expect(urls('mkt1', { url: 'https://www.example.com/gp/help/x', pages: 2 })).toEqual([[1, 'https://www.example.com/gp/help/x']]);
    // A URL that names its page starts there, unless the request asked for another start.
    expect(urls('mkt1', { url: `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=3`, pages: 2, start_page: 1 })).toEqual([
      [3, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=3`],
      [4, `${SIM}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=4`],
    ]);
    expect(urls('mkt1', { url: `${SIM}/mkt1/com/s?k=lamp&page=3`, pages: 1, start_page: 5 })).toEqual([[5, `${SIM}/mkt1/com/s?k=lamp&page=5`]]);
    // No mkt1 entry in GLEANER_TARGETS: a URL request still plans, on the URL's own origin.
    expect(plan('mkt1', { url: 'https://www.example.de/s?k=x', location: '10115' }, {}).map((f) => f.steps.map((s) => s.url))).toEqual([
      [`https://www.example.de${FRAGMENT_PATH}`, 'https://www.example.de/portal-migration/hz/glow/address-change?actionSource=glow', 'https://www.example.de/s?k=x'],
    ]);
  });
});

describe('mkt1 delivery location as flow steps', () => {
  it('setup steps read the token and post the address change; the page step follows; one session per domain and postal code', () => {
    const [flow] = plan('mkt1/product', { query: 'B0SIMLMP03', domain: 'de', location: '10115', currency: 'eur' });
    const cookie = { cookie: 'i18n-prefs=EUR' };
    expect(flow!.steps.map((s) => ({ ...s, read: s.read ? Object.keys(s.read) : undefined }))).toEqual([
      { kind: 'fetch', name: 'session', setup: true, url: `${SIM}/mkt1/de${FRAGMENT_PATH}`, headers: cookie, read: ['csrf'] },
      {
        kind: 'fetch', name: 'address-change', setup: true, method: 'POST', url: `${SIM}/mkt1/de/portal-migration/hz/glow/address-change?actionSource=glow`,
        headers: { ...cookie, 'anti-csrftoken-a2z': '{{csrf}}', 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: ADDRESS_CHANGE_BODY, read: ['address_updated'],
      },
      { kind: 'fetch', name: 'page', page: true, url: `${SIM}/mkt1/de/dp/B0SIMLMP03`, headers: cookie, read: undefined },
    ]);
    expect(JSON.parse(ADDRESS_CHANGE_BODY.replace('{{zip}}', '10115'))).toEqual({
      locationType: 'LOCATION_INPUT', zipCode: '10115', storeContext: 'generic', deviceType: 'web', pageType: 'Gateway', actionSource: 'glow',
    });
    expect(flow!.vars).toEqual({ zip: '10115' });
    expect(flow!.session).toEqual({ key: `mkt1|${SIM}/mkt1/de|de|10115`, ttlMs: SESSION_TTL_MS });
    // Every mkt1 flow checks for the robot wall; with a location, also that it applied.
    expect(typeof flow!.check).toBe('function');
  });

  it('the token reader takes the fragment CSRF_TOKEN; the address reply is read from its JSON', () => {
    const [flow] = plan('mkt1/search', { query: 'lamp', location: '10001' });
    const read = flow!.steps[0]!.read!.csrf!;
    expect(read.from === 'fn' && read.read('<script>w.init({ isSignedIn : false, CSRF_TOKEN : "tok-123abc", IDs : {} });</script>', {})).toBe('tok-123abc');
    expect(read.from === 'fn' && read.read('<div>no token</div>', {})).toBeUndefined();
    expect(flow!.steps[1]!.read).toEqual({ address_updated: { from: 'json', path: ['isAddressUpdated'] } });
  });

  it('every page of a paged request has the same setup and session; pricing probes the delivery line once per session', () => {
    const flows = plan('mkt1/pricing', { query: 'B0SIMLMP01', location: 'SW1A 1AA', domain: 'co.uk', pages: 2, check_empty_geo: true });
    expect(flows.map((f) => [f.page, f.steps.map((s) => `${s.setup ? 'setup ' : ''}${s.method ?? 'GET'} ${String(s.url).replace(SIM, '')}`), f.session?.key])).toEqual([1, 2].map((n) => [
      n,
      [
        `setup GET /mkt1/co.uk${FRAGMENT_PATH}`,
        'setup POST /mkt1/co.uk/portal-migration/hz/glow/address-change?actionSource=glow',
        'setup GET /mkt1/co.uk/',
        `GET /mkt1/co.uk/gp/aod/ajax?asin=B0SIMLMP01&pageno=${n}`,
      ],
      `mkt1|${SIM}/mkt1/co.uk|co.uk|SW1A1AA|probe`,
    ]));
    const probe = flows[0]!.steps[2]!.read!.shown!;
    expect(probe.from === 'fn' && probe.read('<span id="glow-ingress-line1"> Deliver to </span><span id="glow-ingress-line2"> London SW1A 1 </span>', {})).toBe('Deliver to London SW1A 1');
    expect(flows.every((f) => typeof f.check === 'function')).toBe(true);
  });

  it('mkt1 by URL runs the setup on the marketplace the URL belongs to', () => {
    const [flow] = plan('mkt1', { url: `${SIM}/mkt1/de/s?k=lamp`, location: '10115' });
    expect(flow!.steps.map((s) => s.url)).toEqual([`${SIM}/mkt1/de${FRAGMENT_PATH}`, `${SIM}/mkt1/de/portal-migration/hz/glow/address-change?actionSource=glow`, `${SIM}/mkt1/de/s?k=lamp`]);
    const [other] = plan('mkt1', { url: 'https://www.example.fr/dp/B0SIMLMP01', location: '75001' });
    expect(other!.steps[0]!.url).toBe(`https://www.example.fr${FRAGMENT_PATH}`);
    expect(other!.session!.key).toBe('mkt1|https://www.example.fr|fr|75001');
  });

  it('without location: one page step, the currency cookie only; check_empty_geo alone still checks', () => {
    expect(plan('mkt1/sellers', { query: 'A1', currency: 'GBP' })).toEqual([{ page: 1, steps: [{ kind: 'fetch', name: 'page', page: true, url: `${SIM}/mkt1/com/sp?seller=A1`, headers: { cookie: 'i18n-prefs=GBP' } }], check: expect.any(Function) }]);
    const [flow] = plan('mkt1/product', { query: 'B0SIMLMP01', check_empty_geo: true });
    expect(flow!.steps.length).toBe(1);
    expect(typeof flow!.check).toBe('function');
  });
});

describe('mkt1 validation', () => {
  const errors = (routeId: string, body: Record<string, unknown>) => {
    const r = validate({ kind: 'scrape', routeId, mode: 'sync' }, body);
    return r.ok ? [] : r.errors.map((e) => e.pointer);
  };
  it('sort_by and condition take the values the planner can send (schema enums, listed by discovery)', () => {
    expect(errors('mkt1/search', { query: 'x', sort_by: 'price_asc' })).toEqual([]);
    expect(errors('mkt1/search', { query: 'x', sort_by: 'cheapest' })).toEqual(['#/sort_by']);
    expect(errors('mkt1/pricing', { query: 'x', condition: 'used_good' })).toEqual([]);
    expect(errors('mkt1/pricing', { query: 'x', condition: 'broken' })).toEqual(['#/condition']);
  });

  it('the target entry may hold {domain} only', () => {
    expect(checkTarget('mkt1', { baseUrl: 'https://www.example.{domain}' })).toEqual([]);
    expect(checkTarget('mkt1', { baseUrl: 'https://{subdomain}.example.{domain}' })).toEqual(['baseUrl holds an unknown placeholder {subdomain} (mkt1 fills {domain} only)']);
  });
});
