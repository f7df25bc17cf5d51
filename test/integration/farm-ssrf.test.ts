/**
 * SSRF refusals with private addresses NOT allowed. The simulator listens on 127.0.0.1, so a
 * first hop must be allowed while later ones are refused: the farm's `hosts` option maps the
 * trusted name `sim.test` to 127.0.0.1 (an operator-vouched /etc/hosts entry, exempt from the
 * check); every other spelling of loopback is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import type { GleanerError } from '../../core/errors.js';
import { codeOf, failure, task } from '../helpers/farm.js';
import { STATIC_HTML } from '../sites/generic.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let farm: Farm;
/** Every plain navigation through Chromium's network stack (GLEANER_PLAIN_CLIENT=chromium). */
let viaChromium: Farm;
let trusted: string;

beforeAll(async () => {
  sim = await startSimulator();
  trusted = `http://sim.test:${sim.port}`;
  farm = await createFarm({
    config: loadConfig({}, { allowPrivate: false, workers: 1 }),
    hosts: { 'sim.test': '127.0.0.1' },
    limits: { retryBaseMs: 20 },
  });
  viaChromium = await createFarm({
    config: loadConfig({}, { allowPrivate: false, workers: 1, plainClient: 'chromium' }),
    hosts: { 'sim.test': '127.0.0.1' },
    limits: { retryBaseMs: 20 },
  });
});

afterAll(async () => {
  await Promise.all([farm?.close(), viaChromium?.close()]);
  await sim?.close();
});

const staticHits = () => sim.hits.get('/static') ?? 0;

const paths = [
  { name: 'plain, native client', runJs: false, chromium: false },
  { name: 'plain, through Chromium\'s network stack', runJs: false, chromium: true },
  { name: 'run_js', runJs: true, chromium: false },
];

describe.each(paths)('$name', ({ runJs, chromium }) => {
  let farm: Farm;
  beforeAll(() => {
    farm = chromium ? viaChromium : outer();
  });
  test('the trusted name is fetched', async () => {
    const out = await farm.run(task({ url: `${trusted}/static`, run_js: runJs }));
    expect(out.results[0].metadata).toEqual({ page: 1, run_js: runJs, url: `${trusted}/static`, status_code: 200 });
    if (!runJs) expect(out.results[0].html).toBe(STATIC_HTML);
    expect(out.usage.render).toBe(runJs);
  });

  test('a loopback IP literal is refused before any connection', async () => {
    const before = staticHits();
    expect(await failure(farm.run(task({ url: `${sim.origin}/static`, run_js: runJs })))).toEqual({
      code: 'TARGET_FORBIDDEN',
      message: 'The target 127.0.0.1 is not allowed: it is a private or reserved address.',
    });
    expect(staticHits()).toBe(before);
  });

  test.each(['[::ffff:127.0.0.1]', '[::1]', '169.254.169.254', '10.1.2.3', '[fd00:ec2::254]'])('%s is refused', async (host) => {
    expect(await codeOf(farm.run(task({ url: `http://${host}:${sim.port}/static`, run_js: runJs })))).toBe('TARGET_FORBIDDEN');
  });

  test('localhost (loopback by name) is refused, without telling the address it resolves to', async () => {
    const before = staticHits();
    const refused = (await farm.run(task({ url: `http://localhost:${sim.port}/static`, run_js: runJs })).catch((err: unknown) => err)) as GleanerError;
    expect([refused.code, refused.message, refused.data]).toEqual(['TARGET_FORBIDDEN', 'The target localhost is not allowed: it resolves to a private or reserved address.', { host: 'localhost' }]);
    expect(staticHits()).toBe(before);
  });

  test('an https URL whose name resolves to loopback is refused by its name (a refused CONNECT)', async () => {
    const before = staticHits();
    const refused = (await farm.run(task({ url: `https://localhost:${sim.port}/static`, run_js: runJs })).catch((err: unknown) => err)) as GleanerError;
    expect([refused.code, refused.message, refused.data]).toEqual(['TARGET_FORBIDDEN', 'The target localhost is not allowed: it resolves to a private or reserved address.', { host: 'localhost' }]);
    expect(staticHits()).toBe(before);
  });

  test.each(['localhost', 'ipv4', 'decimal', 'mapped', 'localhost-https'])('a redirect to loopback (%s) is refused at that hop', async (to) => {
    const before = staticHits();
    const path = `/redirect-private?to=${to}&js=${runJs}&via=${chromium}`;
    expect(await codeOf(farm.run(task({ url: `${trusted}${path}`, run_js: runJs })))).toBe('TARGET_FORBIDDEN');
    expect([sim.hits.get(path), staticHits()]).toEqual([1, before]);
  });

  test('non-http schemes are refused', async () => {
    expect(await failure(farm.run(task({ url: 'file:///etc/passwd', run_js: runJs })))).toEqual({
      code: 'TARGET_FORBIDDEN',
      message: 'The target file: is not allowed: only http and https are fetched.',
    });
  });
});

function outer(): Farm {
  return farm;
}

test('the browser does not load a subresource from a private address', async () => {
  const out = await farm.run(task({ url: `${trusted}/private-subresource`, run_js: true }));
  expect(out.results[0].html).toContain('<p id="status">private not loaded</p>');
  expect(sim.hits.get('/private.js')).toBeUndefined();
});
