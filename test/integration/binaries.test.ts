/**
 * No browser, no ffmpeg, no surprise (issue 14 part 3): the probes of farm/binaries.ts, /readyz
 * naming what is missing, and a rendering request refused with the binary tried and how to
 * install one — on both APIs — while everything else keeps working.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { probeBrowser, probeFfmpeg } from '../../farm/index.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';

const MISSING_CHROMIUM = '/nonexistent/chromium-headless-shell';
const MISSING_FFMPEG = '/nonexistent/ffmpeg';
let sim: Simulator;
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-bin-'));
  sim = await startSimulator();
  gw = await startGateway({ chromium: MISSING_CHROMIUM, ffmpeg: MISSING_FFMPEG });
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('probes', () => {
  test('a missing file, a file that is not executable, a program that fails, one that works', async () => {
    expect(await probeBrowser(MISSING_CHROMIUM)).toMatchObject({ ok: false, path: MISSING_CHROMIUM, reason: `${MISSING_CHROMIUM} does not exist` });
    const plain = join(dir, 'chromium');
    writeFileSync(plain, '#!/bin/sh\necho nope >&2\nexit 3\n');
    expect((await probeBrowser(plain)).reason).toBe(`${plain} is not executable by this user`);
    chmodSync(plain, 0o755);
    expect((await probeBrowser(plain)).reason).toBe(`${plain} --version failed: nope`);
    const good = join(dir, 'ffmpeg');
    writeFileSync(good, '#!/bin/sh\necho "ffmpeg version 9.9 test build"\n');
    chmodSync(good, 0o755);
    expect(await probeFfmpeg(good)).toEqual({ ok: true, path: good, version: '9.9' });
    const missing = await probeFfmpeg(MISSING_FFMPEG);
    expect(missing.fix).toContain('apt-get install -y ffmpeg');
  });
});

describe('a service without browser and ffmpeg', () => {
  test('/readyz is ready and says what is missing and how to get it', async () => {
    const r = await call(`${gw.url}/readyz`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', browser: false, ffmpeg: false });
    expect(r.body.browser_reason).toBe(`${MISSING_CHROMIUM} does not exist; install Debian's headless shell (\`apt-get install -y chromium-headless-shell\`) or point GLEANER_CHROMIUM at a Chromium binary`);
    expect(r.body.ffmpeg_reason).toContain(`${MISSING_FFMPEG} was not found`);
  });

  test('run_js is refused with the binary tried and the fix; plain fetches work', async () => {
    const r = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, run_js: true });
    expect(r.status).toBe(503);
    expect(r.body.title).toBe('SERVICE_UNAVAILABLE');
    expect(r.body.detail).toBe(
      `This request needs a browser (run_js), which is not usable here: ${MISSING_CHROMIUM} does not exist. To fix: install Debian's headless shell (\`apt-get install -y chromium-headless-shell\`) or point GLEANER_CHROMIUM at a Chromium binary.`,
    );
    expect((await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` })).status).toBe(200);
  });

  test('the Job API says the same, with message', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
    const r = await call(`http://127.0.0.1:${gw.server.realtimePort}/v1/queries`, { method: 'POST', headers: basic, body: JSON.stringify({ source: 'universal', url: `${sim.origin}/static`, render: 'html' }) });
    expect(r.status).toBe(503);
    expect(r.body.message).toContain(MISSING_CHROMIUM);
  });
});
