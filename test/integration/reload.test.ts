/**
 * Reload (SIGHUP, gateway/reload.ts) through the real service: new proxies and targets reach
 * the farm's workers (a new pool) while a request already in flight on the old pool finishes
 * normally; a broken file is refused and changes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readReloadable } from '../../gateway/reload.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let proxy: TestProxy;
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-reload-'));
  [sim, proxy] = await Promise.all([startSimulator(), startProxy()]);
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), proxy?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test('new proxies and targets apply at once; the request in flight on the old workers completes', async () => {
  const before = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, location: 'de' });
  expect(before.body.title).toBe('LOCATION_UNAVAILABLE');
  const search = await postJson(gw, '/v1/search', { query: 'trail shoes' });
  // No engine configured yet: 501 (the node cannot serve search at all), not a failed search.
  expect(search.status).toBe(501);

  const slow = postJson(gw, '/v1/scrape', { url: `${sim.origin}/slow?ms=1500` });
  // In flight on the old pool: the site has the request.
  await until(() => sim.hits.get('/slow?ms=1500') === 1, 'the slow request to reach the site');
  const reloaded = gw.server.reload({ targets: { se1: { baseUrl: `${sim.origin}/se1` } }, proxies: { de: [proxy.url] }, storage: {} });

  const after = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static?via=de`, location: 'de' });
  expect(after.status).toBe(200);
  expect(proxy.served.some((s) => s.includes('/static?via=de'))).toBe(true);
  const searched = await postJson(gw, '/v1/search', { query: 'trail shoes' });
  expect(searched.status).toBe(200);
  expect(searched.body.results.length).toBeGreaterThan(0);

  const old = await slow;
  expect(old.status).toBe(200);
  expect(old.body.results[0].html).toContain('Slow page after 1500 ms');
  await reloaded; // the old pool drained and closed
  expect(gw.server.farm.stats().workers).toBe(1);
});

test('the files are checked before anything changes', () => {
  const bad = join(dir, 'storage.json');
  writeFileSync(bad, JSON.stringify({ ftp: {} }));
  expect(() => readReloadable({ GLEANER_STORAGE: bad })).toThrow(/GLEANER_STORAGE: unknown key "ftp"/);
  const broken = join(dir, 'proxies.json');
  writeFileSync(broken, '{"de": [');
  expect(() => readReloadable({ GLEANER_PROXIES: broken })).toThrow(/GLEANER_PROXIES: .* is not valid JSON/);
  const good = join(dir, 'targets.json');
  writeFileSync(good, JSON.stringify({ se1: { baseUrl: 'http://127.0.0.1:1/se1' } }));
  expect(readReloadable({ GLEANER_TARGETS: good }).targets).toEqual({ se1: { baseUrl: 'http://127.0.0.1:1/se1' } });
});
