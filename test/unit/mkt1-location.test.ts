/**
 * mkt1 delivery location: the flow `check` verdicts on delivery lines of both header forms,
 * and the planned flows run by the farm's flow executor (in-process, test/helpers/flow-runner.ts)
 * against the simulator (port 0) — token, cookies, address change, the storefront's false
 * success, sessions — with the exact requests the simulator received.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeById } from '../../core/registry/index.js';
import type { Flow, StepResponse, Verdict } from '../../core/targets/flow.js';
import { locationCheck, shownLocation } from '../../core/targets/mkt1/location.js';
import { planMkt1 } from '../../core/targets/mkt1/plan.js';
import { PARSERS } from '../../core/targets/mkt1/parsers.js';
import { failure } from '../helpers/farm.js';
import { closeFlowRunner, flowRunner } from '../helpers/flow-runner.js';
import { startSimulator, type Simulator } from '../sites/server.js';

const page = (body: string, status = 200): StepResponse => ({ url: 'http://x/', status, body, headers: {} });
const header = (l1: string, l2: string) => `<div id="glow-ingress-block"><span class="nav-line-1" id="glow-ingress-line1"> ${l1} </span><span class="nav-line-2" id="glow-ingress-line2"> ${l2} </span></div>`;

describe('the location check', () => {
  const check = locationCheck('com', '10001', true)!;
  it('passes when either delivery line names the postal code (older two-line and 2024+ one-line headers)', () => {
    expect(check(page(header('Deliver to', 'New York 10001')), {})).toEqual({ ok: true });
    expect(check(page(header('Delivering to New York 10001', 'Update location')), {})).toEqual({ ok: true });
    expect(shownLocation(header('Deliver to', 'New York&nbsp;10001'))).toBe('Deliver to New York 10001');
  });

  it('fails an attempt, to be retried on a fresh session, when the page shows another place', () => {
    const verdict: Verdict = check(page(header('Deliver to', 'United States')), { address_updated: '1' });
    expect(verdict).toEqual({
      ok: false,
      retry: true,
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'The location was not applied: wanted delivery to 10001 (com), the page shows "Deliver to United States" although the address change answered isAddressUpdated 1',
      data: { wanted: '10001', shown: 'Deliver to United States', domain: 'com' },
    });
  });

  it('a page without a header (the all-offers fragment) is judged by the session probe', () => {
    expect(check(page('<div id="aod-container"></div>'), { shown: 'Deliver to New York 10001' })).toEqual({ ok: true });
    expect(check(page('<div id="aod-container"></div>'), {})).toMatchObject({ ok: false, retry: true, data: { shown: null } });
  });

  it('leaves failed fetches to the fetch; shortened codes: ZIP+4 shows five digits, UK and Canada the postal sector', () => {
    expect(check(page('<h1>Service Unavailable</h1>', 503), {})).toEqual({ ok: true });
    expect(locationCheck('com', '10001-1234', true)!(page(header('Deliver to', 'New York 10001')), {})).toEqual({ ok: true });
    expect(locationCheck('co.uk', 'SW1A 1AA', true)!(page(header('Deliver to', 'London SW1A 1')), {})).toEqual({ ok: true });
    expect(locationCheck('co.uk', 'SW1A 1AA', true)!(page(header('Deliver to', 'London SW1P 4')), {})).toMatchObject({ ok: false });
  });

  it('check_empty_geo without a location fails at once; without check_empty_geo an unapplied location is returned after the retries', () => {
    expect(locationCheck('de', undefined, true)!(page(header('Liefern an', 'Germany')), {})).toEqual({
      ok: false,
      retry: false,
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'check_empty_geo is set but no location was given: the page shows "Liefern an Germany"; give location (a postal code of the de marketplace)',
      data: { wanted: null, shown: 'Liefern an Germany', domain: 'de' },
    });
    expect(locationCheck('de', '10115', false)!(page(header('Liefern an', 'Germany')), {})).toMatchObject({ ok: false, retry: true, lastResort: 'return' });
    expect(locationCheck('de', undefined, false)).toBeUndefined();
  });
});

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeFlowRunner();
  await sim.close();
});

/** Runs a planned flow in the farm's executor; `made` lists what the simulator received. */
async function walk(flow: Flow) {
  const seen = sim.log.length;
  const run = await flowRunner().run(flow);
  return { page: run.page, vars: run.vars, made: sim.log.slice(seen) };
}

const targets = () => ({ mkt1: { baseUrl: `${sim.origin}/mkt1/{domain}` } });
const flowsOf = (id: string, params: Record<string, unknown>) => planMkt1(routeById(id)!, params, targets());

describe('planned location flows against the simulator', () => {
  it('sets the postal code in a session: the page shows it, the check passes, the regional buybox appears', async () => {
    const [flow] = flowsOf('mkt1/product', { query: 'B0SIMLMP03', domain: 'de', location: '10115', check_empty_geo: true });
    const run = await walk(flow!);
    expect(run.made).toEqual([
      'GET /mkt1/de/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal',
      'POST /mkt1/de/portal-migration/hz/glow/address-change?actionSource=glow',
      'GET /mkt1/de/dp/B0SIMLMP03',
    ]);
    expect(run.vars).toMatchObject({ zip: '10115', csrf: expect.stringMatching(/^sim-csrf-/), address_updated: '1' });
    expect(shownLocation(run.page.body)).toBe('Liefern an Berlin 10115');
    // The session is reused: a second page of the same postal code goes straight to the page.
    const again = await walk(flowsOf('mkt1/product', { query: 'B0SIMLMP01', domain: 'de', location: '10115', check_empty_geo: true })[0]!);
    expect(again.made).toEqual(['GET /mkt1/de/dp/B0SIMLMP01']);
    const json = PARSERS['mkt1/product']!({ html: run.page.body, url: run.page.url, page: 1, params: { domain: 'de' } }).json as Record<string, unknown>;
    expect([json.price, json.currency, json.price_buybox, json.stock]).toEqual([13.73, 'EUR', 13.73, 'Auf Lager']);
  });

  it('the 2024+ header of com names the code in line 1', async () => {
    const [flow] = flowsOf('mkt1/search', { query: 'lamp', location: '10001', check_empty_geo: true });
    const run = await walk(flow!);
    expect(shownLocation(run.page.body)).toBe('Delivering to New York 10001 Update location');
  });

  it("the storefront's false success (isAddressUpdated 1, nothing applied) is retried in fresh sessions, then fails", async () => {
    const [flow] = flowsOf('mkt1/product', { query: 'B0SIMLMP01', location: '00000', check_empty_geo: true });
    const seen = sim.log.length;
    expect(await failure(flowRunner().run(flow!))).toEqual({
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'The location was not applied: wanted delivery to 00000 (com), the page shows "Deliver to United States" although the address change answered isAddressUpdated 1',
    });
    // Three attempts, each with its own session handshake.
    expect(sim.log.slice(seen).filter((r) => r.startsWith('POST')).length).toBe(3);
  });

  it('without check_empty_geo a location that did not apply is retried, then the page is returned as shown', async () => {
    const [flow] = flowsOf('mkt1/product', { query: 'B0SIMLMP01', location: '00000' });
    const run = await walk(flow!);
    expect([run.vars.address_updated, shownLocation(run.page.body), run.made.filter((r) => r.startsWith('POST')).length]).toEqual(['1', 'Deliver to United States', 3]);
  });

  it('pricing reads the delivery line once, from the home page probe', async () => {
    const [flow] = flowsOf('mkt1/pricing', { query: 'B0SIMLMP01', domain: 'co.uk', location: 'SW1A 1AA', check_empty_geo: true });
    const run = await walk(flow!);
    expect(run.made.map((m) => m.split(' ')[0])).toEqual(['GET', 'POST', 'GET', 'GET']);
    expect(run.vars.shown).toBe('Deliver to London SW1A 1AA');
  });

  it('the address change needs the session token; a code of another shape is not valid', async () => {
    const url = `${sim.origin}/mkt1/com/portal-migration/hz/glow/address-change?actionSource=glow`;
    const body = '{"locationType":"LOCATION_INPUT","zipCode":"10001"}';
    const noToken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'anti-csrftoken-a2z': 'forged' }, body });
    expect([noToken.status, await noToken.json()]).toEqual([403, { isAddressUpdated: 0, errorMessage: 'invalid csrf token' }]);
    const [flow] = flowsOf('mkt1/product', { query: 'B0SIMLMP01', location: 'SW1A 1AA' });
    const run = await walk(flow!);
    expect(run.vars.address_updated).toBe('0');
  });

  it('the currency cookie shows prices in that currency', async () => {
    const [flow] = flowsOf('mkt1/product', { query: 'B0SIMLMP01', currency: 'EUR' });
    const run = await walk(flow!);
    expect(run.page.body).toContain('<span class="a-offscreen">EUR 26.99</span>');
    const json = PARSERS['mkt1/product']!({ html: run.page.body, url: run.page.url, page: 1, params: { currency: 'EUR' } }).json as Record<string, unknown>;
    expect([json.price, json.currency, json.price_strikethrough]).toEqual([26.99, 'EUR', 35.99]);
  });
});
