/**
 * The rendered path against a bot-detection page (test/helpers/detect-page.ts), compared in the
 * same run with the local full Chromium started by hand (new headless mode, no automation
 * switches, no DevTools protocol): every check the reference passes, `run_js` must pass too.
 * The reference fails the user-agent checks by itself ("HeadlessChrome" is what new headless
 * mode says); Gleaner must pass those as well, and its document request must carry the
 * session profile's user agent, client hints and languages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { profileFor, sessionKeyOf, type DeviceName } from '../../farm/identity/profile.js';
import { startDetectServer, type DetectResults, type DetectServer } from '../helpers/detect-page.js';
import { task } from '../helpers/farm.js';

const FULL_CHROMIUM = '/usr/lib/chromium/chromium';
const HOST_TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

let detect: DetectServer;
let farm: Farm;
let reference: DetectResults;

async function byHand(run: string): Promise<DetectResults> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-reference-'));
  let child: ChildProcess | undefined;
  try {
    // A process group of its own: the helpers it starts (its storage service writes the profile)
    // go with it, so the profile is not written while it is removed.
    child = spawn(FULL_CHROMIUM, ['--headless=new', '--no-sandbox', `--user-data-dir=${dir}`, `${detect.origin}/detect?run=${run}&tz=${HOST_TZ}`], { stdio: 'ignore', detached: true });
    return await detect.waitForResult(run, 45_000);
  } finally {
    const exited = child && child.exitCode === null ? new Promise((r) => child!.once('exit', r)) : undefined;
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

async function gleaner(run: string, device: DeviceName): Promise<DetectResults> {
  const tz = profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device }).timezone;
  const out = await farm.run(task({ url: `${detect.origin}/detect?run=${run}&tz=${encodeURIComponent(tz)}`, run_js: true, device }, { timeoutMs: 60_000 }));
  expect(out.status).toBe(200);
  return detect.waitForResult(run, 30_000);
}

const failed = (r: DetectResults) => Object.entries(r).filter(([, v]) => !v.pass).map(([k, v]) => `${k}: ${v.seen}`);

beforeAll(async () => {
  detect = await startDetectServer();
  farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, contextsPerWorker: 2, chromium: FULL_CHROMIUM }) });
  reference = await byHand('reference');
}, 90_000);

afterAll(async () => {
  await farm?.close();
  await detect?.close();
});

describe.skipIf(!existsSync(FULL_CHROMIUM))('detection page', () => {
  test('run_js passes every check the hand-run Chromium passes, and the user-agent checks it fails', async () => {
    const ours = await gleaner('desktop', 'desktop');
    expect(Object.keys(ours).sort()).toEqual(Object.keys(reference).sort());
    expect(Object.keys(ours).length).toBeGreaterThanOrEqual(26);
    const referencePassed = Object.keys(reference).filter((k) => reference[k].pass);
    // The reference is a real browser: most checks hold for it (the exceptions are headless
    // mode's own tells), else the page is checking the wrong things.
    expect(referencePassed.length).toBeGreaterThanOrEqual(20);
    expect(failed(ours)).toEqual([]);
  }, 120_000);

  test('the document request carries the profile: user agent, client hints, Accept-Language', async () => {
    await gleaner('desktop-headers', 'desktop');
    const raw = detect.headers.get('desktop-headers')!;
    const h = Object.fromEntries(raw.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), raw[i + 1]]] : [])));
    const p = profileFor({ sessionKey: sessionKeyOf(undefined, undefined), device: 'desktop' });
    const ref = detect.headers.get('reference')!;
    const r = Object.fromEntries(ref.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), ref[i + 1]]] : [])));
    expect([h['user-agent'], h['accept-language'], h['sec-ch-ua'], h['sec-ch-ua-platform'], h['sec-ch-ua-mobile']]).toEqual([
      p.userAgent,
      p.acceptLanguage,
      p.userAgentData.brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', '),
      '"Linux"',
      '?0',
    ]);
    // What the hand-run browser sends, but for the word "Headless".
    expect(h['user-agent']).toBe(r['user-agent'].replace('HeadlessChrome/', 'Chrome/'));
    expect([h['sec-ch-ua'], h['accept-language'], h.accept, h['accept-encoding']]).toEqual([r['sec-ch-ua'], r['accept-language'], r.accept, r['accept-encoding']]);
  }, 120_000);

  test('a mobile session passes the in-page checks of its own identity', async () => {
    const ours = await gleaner('mobile', 'mobile');
    // Known limits of emulating a phone on this desktop browser (README "The browser"): workers
    // keep the host's `navigator.platform` and service/shared workers the browser-wide desktop
    // identity; the emulated window's outer size is Chromium's own.
    expect(failed(ours).filter((f) => !/^(shared-worker|service-worker|platform-worker|window-sizes):/.test(f))).toEqual([]);
  }, 120_000);
});
