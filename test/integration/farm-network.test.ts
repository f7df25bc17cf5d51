/**
 * Proxies, locations, retries and the size cap, through a real local forward proxy with Basic
 * auth, on both paths.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { failure, task } from '../helpers/farm.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { STATIC_HTML } from '../sites/generic.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let farm: Farm;
let defaultProxy: TestProxy;
let deProxy: TestProxy;
/** A proxy URL where nothing listens: every attempt through it fails at connect. */
let deadProxy: string;

beforeAll(async () => {
  sim = await startSimulator();
  defaultProxy = await startProxy({ username: 'user', password: 'p@ss:word' });
  deProxy = await startProxy({ username: 'de-user', password: 'secret' });
  const dead = await startProxy();
  deadProxy = dead.url;
  await dead.close();
  farm = await createFarm({
    config: loadConfig({}, {
      allowPrivate: true,
      workers: 1,
      contextsPerWorker: 2,
      maxResponseBytes: 1024 * 1024,
      proxies: { default: [defaultProxy.url], de: [deProxy.url], fr: [deadProxy], it: [deadProxy, defaultProxy.url] },
    }),
    limits: { retryBaseMs: 20 },
  });
});

afterAll(async () => {
  await farm?.close();
  await Promise.all([sim?.close(), defaultProxy?.close(), deProxy?.close()]);
});

describe('proxies', () => {
  test('no location: the default pool, with credentials, on the plain path', async () => {
    const url = `${sim.origin}/static?via=default-http`;
    const out = await farm.run(task({ url }));
    expect(out.results[0].html).toBe(STATIC_HTML);
    expect(defaultProxy.served.filter((s) => s.includes('via=default-http'))).toEqual([`GET ${url}`]);
    expect(defaultProxy.rejected).toBe(0);
  });

  test('location de: the de pool, with credentials, on both paths', async () => {
    const plain = `${sim.origin}/static?via=de-http`;
    const rendered = `${sim.origin}/static?via=de-browser`;
    await farm.run(task({ url: plain, location: 'DE' }));
    const out = await farm.run(task({ url: rendered, location: 'de', run_js: true }));
    expect(out.results[0].metadata.url).toBe(rendered);
    expect(deProxy.served.filter((s) => s.includes('via=de-'))).toEqual([`GET ${plain}`, `GET ${rendered}`]);
    expect(defaultProxy.served.filter((s) => s.includes('via=de-'))).toEqual([]);
  });

  test('the browser path uses the default pool too', async () => {
    const url = `${sim.origin}/js-only?via=default-browser`;
    const out = await farm.run(task({ url, run_js: true }));
    expect(out.results[0].html).toContain('Rendered by script');
    expect(defaultProxy.served.filter((s) => s.includes('via=default-browser'))).toEqual([`GET ${url}`]);
  });

  test('a location without a pool is LOCATION_UNAVAILABLE', async () => {
    expect(await failure(farm.run(task({ url: `${sim.origin}/static`, location: 'jp' })))).toEqual({
      code: 'LOCATION_UNAVAILABLE',
      message: 'No proxy pool serves the location "jp".',
    });
  });

  test('a dead proxy is retried on another proxy of the pool', async () => {
    // Pool it = [dead, default]: whichever comes first, one attempt lands on the live proxy.
    const url = `${sim.origin}/static?via=it`;
    const out = await farm.run(task({ url, location: 'it' }));
    expect(out.results[0].html).toBe(STATIC_HTML);
    expect(defaultProxy.served.filter((s) => s.includes('via=it'))).toEqual([`GET ${url}`]);
  });

  test('every attempt failing is REQUEST_FAILED_AFTER_MANY_RETRIES', async () => {
    const f = await failure(farm.run(task({ url: `${sim.origin}/static`, location: 'fr' })));
    expect('code' in f && f.code).toBe('REQUEST_FAILED_AFTER_MANY_RETRIES');
  });
});

describe('retries (location-less requests here go through the default proxy)', () => {
  test('5xx twice then success: three attempts, one result', async () => {
    const url = `${sim.origin}/flaky?fail=2&key=plain`;
    const out = await farm.run(task({ url }));
    expect([out.status, sim.hits.get('/flaky?fail=2&key=plain')]).toEqual([200, 3]);
  });

  test('5xx on every attempt: REQUEST_FAILED_AFTER_MANY_RETRIES after exactly 3 attempts', async () => {
    const f = await failure(farm.run(task({ url: `${sim.origin}/flaky?fail=9&key=plain-all` })));
    expect(f).toEqual({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'Every attempt to fetch the target failed (last: HTTP 503).' });
    expect(sim.hits.get('/flaky?fail=9&key=plain-all')).toBe(3);
  });

  test('the browser path retries too', async () => {
    const out = await farm.run(task({ url: `${sim.origin}/flaky?fail=1&key=browser`, run_js: true }));
    expect([out.status, sim.hits.get('/flaky?fail=1&key=browser')]).toEqual([200, 2]);
  });
});

describe('size cap', () => {
  test('plain path: RESPONSE_TOO_LARGE', async () => {
    const f = await failure(farm.run(task({ url: `${sim.origin}/huge?mb=3` })));
    expect(f).toEqual({ code: 'RESPONSE_TOO_LARGE', message: 'The upstream response is larger than 1048576 bytes.' });
  });

  test('browser path: RESPONSE_TOO_LARGE', async () => {
    const f = await failure(farm.run(task({ url: `${sim.origin}/huge?mb=3`, run_js: true })));
    expect(f).toEqual({ code: 'RESPONSE_TOO_LARGE', message: 'The upstream response is larger than 1048576 bytes.' });
  });
});
