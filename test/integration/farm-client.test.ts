/**
 * The farm as an HTTP client. The plain path asks for compressed bodies as Chrome does
 * (`Accept-Encoding: gzip, deflate, br, zstd`) and its client inflates them, error pages
 * included; the size cap applies to the inflated bytes. Both paths name the Chrome major
 * version of the browser the farm runs. Real farm and Chromium, simulator pages compressed by
 * node:zlib.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { profileFor, sessionKeyOf } from '../../farm/identity/profile.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { failure, task } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let farm: Farm;

beforeAll(async () => {
  sim = await startSimulator();
  farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, maxResponseBytes: 5 * 1024 * 1024 }) });
});
afterAll(async () => {
  await farm?.close();
  await sim?.close();
});

test.each(['gzip', 'br', 'deflate'])('a %s body is inflated; the request said what it accepts', async (enc) => {
  const out = await farm.run(task({ url: `${sim.origin}/compressed?enc=${enc}`, output: ['html', 'markdown'] }));
  const r = out.results[0]!;
  expect([out.status, r.metadata.status_code]).toEqual([200, 200]);
  expect(r.html).toContain(`<h1>Compressed with ${enc}</h1><p id="ae">gzip, deflate, br, zstd</p>`);
  expect(r.markdown!.split('\n')[0]).toBe(`# Compressed with ${enc}`);
});

test('a compressed error page is inflated too (its page is the answer)', async () => {
  const out = await farm.run(task({ url: `${sim.origin}/compressed?enc=gzip&status=404` }));
  expect([out.status, out.results[0]!.html!.includes('<h1>Compressed with gzip</h1>')]).toEqual([404, true]);
});

test('the size cap counts inflated bytes: a 30 MB bomb of 30 KB fails as RESPONSE_TOO_LARGE', async () => {
  expect(await failure(farm.run(task({ url: `${sim.origin}/gzip-bomb?mb=30` })))).toEqual({
    code: 'RESPONSE_TOO_LARGE',
    message: `The upstream response is larger than ${5 * 1024 * 1024} bytes.`,
  });
  // And the worker carries on.
  expect((await farm.run(task({ url: `${sim.origin}/static` }))).status).toBe(200);
});

test('the user agent names the Chrome major version of the browser the farm runs, on both paths', async () => {
  const config = loadConfig({}, { allowPrivate: true });
  const major = /(\d+)\.\d+\.\d+\.\d+/.exec(execFileSync(config.chromium as string, ['--version'], { encoding: 'utf8' }))![1];
  const plain = await farm.run(task({ url: `${sim.origin}/headers`, device: 'mobile' }));
  const sent = JSON.parse(plain.results[0]!.html!) as Record<string, string>;
  expect(sent['user-agent']).toBe(`Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`);
  expect(profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device: 'mobile' }).userAgent).toBe(sent['user-agent']);
  const rendered = await farm.run(task({ url: `${sim.origin}/ua`, run_js: true }));
  expect(/<p id="ua">([^<]*)<\/p>/.exec(rendered.results[0]!.html!)?.[1]).toBe(`Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`);
}, 60_000);
