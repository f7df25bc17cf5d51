/**
 * The operator console in a real browser: the gateway and the simulator on port 0, Debian's
 * headless Chromium through playwright-core. The test signs in with an admin key, submits
 * jobs over HTTP, and checks that the page's numbers move and equal `GET /v1/status`; that
 * recent jobs open their job object; that the live feed connects; and that the key never
 * appears in a URL.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defaultChromium } from '../../core/config.js';
import { chromiumArgs, resolveExecutable } from '../../farm/chromium-args.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let gw: TestGateway;
let browser: Browser;

/** The stable counters the page shows, by their path in the status document. */
const COUNTERS = [
  'jobs.last_hour.accepted',
  'jobs.last_hour.started',
  'jobs.last_hour.done',
  'jobs.last_hour.failed',
  'queue.depth',
  'latency_ms.sync.count',
  'outbox.pending',
] as const;

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway();
  const executablePath = resolveExecutable(defaultChromium());
  browser = await chromium.launch({ executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false }), headless: true });
});
afterAll(async () => {
  await browser?.close();
  await gw?.close();
  await sim?.close();
});

async function status(key = gw.key): Promise<any> {
  const res = await call(`${gw.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return res.body;
}

function pick(doc: any, path: string): string {
  const value = path.split('.').reduce((o, k) => o?.[k], doc);
  return value === null || value === undefined ? '' : String(value);
}

async function shown(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of COUNTERS) out[path] = (await page.getAttribute(`[data-stat="${path}"]`, 'data-value')) ?? '';
  out['pages.universal'] = (await page.textContent('[data-family="universal"] td:nth-child(3)')) ?? '';
  out['usage.today'] = (await page.textContent('[data-account="1"] td:nth-child(3)')) ?? '';
  out['quota'] = (await page.textContent('[data-account="1"] td:nth-child(5)')) ?? '';
  return out;
}

function expected(doc: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of COUNTERS) out[path] = pick(doc, path);
  out['pages.universal'] = String(doc.pages.last_hour.universal);
  const account = doc.accounts.find((a: any) => a.client_id === 1);
  out['usage.today'] = String(account.usage.today);
  out['quota'] = account.quota === null ? 'none' : '';
  return out;
}

/** Waits until the page shows what /v1/status says (the page polls every 2 s and on feed events). */
async function settle(page: Page): Promise<Record<string, string>> {
  const until = Date.now() + 20_000;
  for (;;) {
    const [want, got] = [expected(await status()), await shown(page)];
    if (JSON.stringify(want) === JSON.stringify(got) || Date.now() > until) {
      expect(got).toEqual(want);
      return got;
    }
    await page.waitForTimeout(200);
  }
}

describe('operator console', () => {
  test('/v1/status needs an admin key; the page itself carries no data', async () => {
    const plain = await gw.server.store.accounts.createAccount({ name: 'plain' });
    const { key } = await gw.server.store.accounts.createKey(plain.clientId, 'plain');
    const [anonymous, notAdmin, page] = await Promise.all([
      call(`${gw.url}/v1/status`),
      call(`${gw.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } }),
      call(`${gw.url}/console`),
    ]);
    expect([anonymous.status, notAdmin.status, notAdmin.body.title, page.status, page.headers.get('content-type')]).toEqual([401, 403, 'FORBIDDEN', 200, 'text/html; charset=utf-8']);
  });

  test('sign in, live numbers that follow submitted jobs and match /v1/status, job objects', async () => {
    const page = await browser.newPage();
    const urls: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${gw.url}/console`);

    await page.fill('#key', 'wrong-key-0123456789');
    await page.click('#signin button[type=submit]');
    await page.waitForSelector('#signin-error:has-text("401")');

    await page.fill('#key', gw.key);
    await page.click('#signin button[type=submit]');
    await page.waitForSelector('#dashboard:not([hidden])');
    await page.waitForSelector('#live:has-text("live")');
    const before = await settle(page);
    expect([before['jobs.last_hour.done'], before.quota]).toEqual(['0', 'none']);

    // Three async jobs and one sync scrape.
    const ids: string[] = [];
    for (const path of ['/static', '/static/next', '/']) {
      const res = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}${path}`, output: ['markdown'] });
      ids.push(res.body.metadata.request_id);
    }
    expect((await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` })).status).toBe(200);
    await until(async () => (await status()).jobs.last_hour.done >= 3, 'the three jobs counted done in the last hour', 30_000, 100);

    const after = await settle(page);
    expect([after['jobs.last_hour.accepted'], after['jobs.last_hour.done'], after['pages.universal'], after['usage.today'], after['latency_ms.sync.count']]).toEqual(['3', '3', '4', '4', '1']);
    // The feed delivered the jobs' events over the subprotocol sign-in.
    expect(Number(await page.textContent('#feed-count'))).toBeGreaterThanOrEqual(9);

    // Recent jobs: newest first; each opens its job object.
    await page.waitForSelector(`[data-job="${ids[0]}"][data-state="done"]`);
    expect(await page.$$eval('#jobs tbody tr', (rows) => rows.map((r) => r.getAttribute('data-job')))).toEqual([...ids].reverse());
    // Each row names what the job fetched and whose it is.
    const cells = await page.$$eval(`[data-job="${ids[1]}"] td`, (tds) => tds.map((td) => td.textContent));
    expect([cells[1], cells[2], cells[3], cells[4]]).toEqual(['universal', `${sim.origin}/static/next`, '1 bootstrap', 'done']);
    // Opening a job shows it where the user looks: a dialog over the page, inside the viewport,
    // even when the list is scrolled far down.
    await page.setViewportSize({ width: 1200, height: 700 });
    await page.$eval(`[data-job="${ids[1]}"]`, (tr) => tr.scrollIntoView());
    await page.click(`[data-job="${ids[1]}"] button`);
    await page.waitForSelector('#job[data-status="done"]');
    const box = await page.$eval('#job', (d) => { const r = d.getBoundingClientRect(); return { open: (d as HTMLDialogElement).open, top: r.top, bottom: r.bottom, h: window.innerHeight }; });
    expect([box.open, box.top >= 0, box.bottom <= box.h]).toEqual([true, true, true]);
    const body = JSON.parse((await page.textContent('#job-body')) ?? '{}');
    expect([body.job.id, body.job.route, body.collection.status, body.collection.results[0].metadata.url]).toEqual([ids[1], 'universal', 'done', `${sim.origin}/static/next`]);
    await page.click('#job-close');
    expect(await page.$eval('#job', (d) => (d as HTMLDialogElement).open)).toBe(false);

    // Charts are drawn from the history, with a unit, both axes and a legend naming each series.
    expect(Number(await page.getAttribute('#chart-jobs', 'data-max'))).toBe(3);
    const jobsChart = await page.$eval('#chart-jobs svg', (svg) => ({
      unit: svg.querySelector('.unit')?.textContent,
      y: Array.from(svg.querySelectorAll('.tick-y')).map((t) => t.textContent),
      x: Array.from(svg.querySelectorAll('.tick-x')).map((t) => t.textContent),
      legend: Array.from(svg.querySelectorAll('.legend-item text')).map((t) => t.textContent),
    }));
    expect(jobsChart).toEqual({ unit: 'jobs per minute', y: ['0', '2.5', '5'], x: ['−59 min', '−30 min', 'now'], legend: ['done', 'failed'] });
    expect(await page.$$eval('#chart-pages .legend-item text', (ts) => ts.map((t) => t.textContent))).toEqual(['universal', 'search engine', 'video', 'assistant', 'commerce']);

    // The key is never in a URL, and only in session storage.
    expect(urls.filter((u) => u.includes(gw.key))).toEqual([]);
    expect(await page.evaluate(() => [sessionStorage.getItem('gleaner.adminKey'), localStorage.length])).toEqual([gw.key, 0]);
    expect(errors).toEqual([]);

    await page.click('#signout');
    await page.waitForSelector('#signin:not([hidden])');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  test('errors count what callers saw by documented title; probes and 401s apart; jobs filter by state, route and account', async () => {
    const other = await gw.server.store.accounts.createAccount({ name: 'tenant two' });
    const { key: otherKey } = await gw.server.store.accounts.createKey(other.clientId, 'two');
    // Not errors: an MCP client probing GET /mcp (405), readiness probes, a wrong key (401, apart).
    await call(`${gw.url}/mcp`, { headers: gw.auth });
    await call(`${gw.url}/readyz`);
    await call(`${gw.url}/v1/status`, { headers: { authorization: 'Bearer wrong-key-0123456789' } });
    // Errors: a validation error, and a failed job of another account.
    await postJson(gw, '/v1/scrape', { url: 'http://host/a b' });
    const failed = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/status?code=503&x=failing` }, { authorization: `Bearer ${otherKey}` });
    const failedId = failed.body.metadata.request_id;
    const until = Date.now() + 60_000;
    while ((await status()).recent_jobs.find((j: any) => j.job_id === failedId)?.state !== 'failed') {
      if (Date.now() > until) throw new Error(`job ${failedId} did not fail in time`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const doc = await status();
    const titles = doc.errors.map((e: any) => e.title);
    expect(titles).toContain('VALIDATION_ERROR');
    expect(titles.filter((t: string) => !/^[A-Z_]+$/.test(t) || /^HTTP_|UNAUTHORIZED|METHOD_NOT_ALLOWED|SERVICE_UNAVAILABLE/.test(t))).toEqual([]);
    expect(doc.refused.unauthorized).toBeGreaterThanOrEqual(1);

    const page = await browser.newPage();
    await page.goto(`${gw.url}/console`);
    await page.evaluate((k) => sessionStorage.setItem('gleaner.adminKey', k), gw.key);
    await page.reload();
    await page.waitForSelector('#dashboard:not([hidden])');
    await page.waitForSelector('[data-title="VALIDATION_ERROR"]');
    expect(await page.textContent('[data-stat="refused.unauthorized"]')).toBe(String((await status()).refused.unauthorized));
    // The account filter lists the accounts; choosing one lists only its jobs.
    await page.waitForSelector(`#filter-account option[value="${other.clientId}"]`, { state: 'attached' });
    await page.selectOption('#filter-account', String(other.clientId));
    await page.waitForFunction((id) => Array.from(document.querySelectorAll('#jobs tbody tr')).every((tr) => tr.getAttribute('data-job') === id), failedId);
    const row = await page.$$eval(`[data-job="${failedId}"] td`, (tds) => tds.map((td) => td.textContent));
    expect([row[2], row[3], row[4], row[5]]).toEqual([`${sim.origin}/status?code=503&x=failing`, `${other.clientId} tenant two`, 'failed', 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
    // State and route filters.
    await page.selectOption('#filter-account', '');
    await page.selectOption('#filter-state', 'done');
    await page.fill('#filter-route', 'se1/*');
    await page.waitForSelector('#jobs tbody tr:has-text("no job matches")');
    await page.fill('#filter-route', 'universal');
    await page.waitForFunction(() => document.querySelectorAll('#jobs tbody tr[data-state="done"]').length >= 3);
    expect(await page.$$eval('#jobs tbody tr', (trs) => trs.every((tr) => tr.getAttribute('data-state') === 'done'))).toBe(true);
    await page.close();
  });
});
