import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { EXTRA_ARGS, PLAYWRIGHT_DISABLED_FEATURES, PLAYWRIGHT_ENABLED_FEATURES, chromiumArgs, resolveExecutable } from '../../farm/chromium-args.js';
import { deviceFor } from '../../farm/devices.js';
import { requestHeaders } from '../../farm/identity/headers.js';
import { profileFor } from '../../farm/identity/profile.js';
import { decodeBody } from '../../farm/net/decode.js';
import { ProxyRotation, parseProxy, proxyPoolFor } from '../../farm/net/proxies.js';
import type { FetchStep, Flow, Step } from '../../core/targets/flow.js';
import { TaskAbort } from '../../farm/worker/abort.js';
import { CancelBoard } from '../../farm/worker/cancels.js';
import { readsJarAfter } from '../../farm/worker/flow-attempt.js';
import { outputFormats } from '../../farm/worker/outputs.js';
import { until } from '../helpers/wait.js';

describe('proxies', () => {
  const proxies = { default: ['http://u:p%40ss@10.0.0.1:3128'], de: ['http://de1:8080', 'http://de2:8080'] };

  test('parseProxy splits server and credentials', () => {
    expect(parseProxy('http://u:p%40ss@10.0.0.1:3128')).toEqual({
      url: 'http://u:p%40ss@10.0.0.1:3128',
      server: 'http://10.0.0.1:3128',
      host: '10.0.0.1',
      port: 3128,
      username: 'u',
      password: 'p@ss',
    });
  });

  test('location picks the country pool; postal locations and none use default', () => {
    expect(proxyPoolFor(proxies, 'DE', 'country')?.map((p) => p.host)).toEqual(['de1', 'de2']);
    expect(proxyPoolFor(proxies, '10115', 'postal')?.map((p) => p.host)).toEqual(['10.0.0.1']);
    expect(proxyPoolFor(proxies, null, 'country')?.map((p) => p.host)).toEqual(['10.0.0.1']);
    expect(proxyPoolFor({}, undefined, 'country')).toBeNull();
    expect(() => proxyPoolFor(proxies, 'fr', 'country')).toThrowError('No proxy pool serves the location "fr".');
  });

  test('attempts rotate through the pool', () => {
    const pool = proxyPoolFor(proxies, 'de', 'country');
    const r = new ProxyRotation(pool);
    const hosts = [0, 1, 2, 3].map((n) => r.pick(n)?.host);
    expect([hosts[0] !== hosts[1], hosts[0] === hosts[2], hosts[1] === hosts[3]]).toEqual([true, true, true]);
    expect(new ProxyRotation(null).pick(0)).toBeNull();
  });

  test('a seeded rotation is the same in every thread: attempt n is the same proxy for the same seed', () => {
    const pool = proxyPoolFor(proxies, 'de', 'country');
    const hosts = (seed: number) => [0, 1, 2, 3].map((n) => new ProxyRotation(pool, seed).pick(n)?.host);
    expect(hosts(123456789)).toEqual(hosts(123456789));
    expect(hosts(2)).toEqual([...hosts(1).slice(1), hosts(1)[0]]);
  });
});

describe('chromium args', () => {

  test('full chromium: disabled features merged with Playwright list; host rules; guard flag', () => {
    expect(chromiumArgs({ executablePath: '/usr/bin/chromium', hosts: { 'sim.test': '127.0.0.1' }, guarded: true })).toEqual([
      ...EXTRA_ARGS,
      '--lang=en-US',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'RenderDocument'].join(',')}`,
      '--in-process-gpu',
      '--enable-features=CDPScreenshotNewSurface,NetworkServiceInProcess2',
      '--host-resolver-rules=MAP sim.test 127.0.0.1',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ]);
    expect(chromiumArgs({ executablePath: '/usr/bin/chromium', hosts: {}, guarded: false, userAgent: 'UA x' }).at(-1)).toBe('--user-agent=UA x');
  });

  test('our --disable-features repeats the installed patchright-core list exactly (fails loudly on an upgrade that changes it)', () => {
    const bundle = readFileSync(createRequire(import.meta.url).resolve('patchright-core/lib/coreBundle'), 'utf8');
    const start = bundle.indexOf('disabledFeatures = [');
    const list = bundle.slice(start, bundle.indexOf('].filter(Boolean)', start));
    expect(start).toBeGreaterThan(0);
    expect([...list.matchAll(/^\s*"([A-Za-z0-9]+)",?$/gm)].map((m) => m[1])).toEqual([...PLAYWRIGHT_DISABLED_FEATURES]);
  });

  test('headless shell: our extras, the default profile\'s language and the in-process services (off only when asked)', () => {
    const shell = chromiumArgs({ executablePath: '/usr/bin/chromium-headless-shell', hosts: {}, guarded: false });
    expect(shell).toEqual([...EXTRA_ARGS, '--lang=en-US', '--in-process-gpu', '--enable-features=CDPScreenshotNewSurface,NetworkServiceInProcess2']);
    expect(chromiumArgs({ executablePath: '/usr/bin/chromium-headless-shell', hosts: {}, guarded: false, inProcessServices: false })).toEqual([...EXTRA_ARGS, '--lang=en-US']);
  });

  test('our --enable-features repeats the installed patchright-core switch exactly', () => {
    const bundle = readFileSync(createRequire(import.meta.url).resolve('patchright-core/lib/coreBundle'), 'utf8');
    const switches = [...bundle.matchAll(/"--enable-features=([A-Za-z0-9,]*)"/g)].map((m) => m[1]!.split(','));
    expect(switches).toEqual([[...PLAYWRIGHT_ENABLED_FEATURES]]);
  });

  test('a tiny exec-less shell wrapper resolves to its binary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'farm-'));
    const bin = join(dir, 'real-browser');
    writeFileSync(bin, '');
    const wrapper = join(dir, 'wrapper');
    writeFileSync(wrapper, `#!/bin/sh -e\n\n${bin} "$@"\n`);
    chmodSync(wrapper, 0o755);
    const other = join(dir, 'other');
    writeFileSync(other, `#!/bin/sh\nexport X=1\n${bin} "$@"\n`);
    expect([resolveExecutable(wrapper), resolveExecutable(other), resolveExecutable(bin)]).toEqual([bin, other, bin]);
  });
});

describe('devices', () => {
  test('mobile and desktop profiles; unknown means desktop', () => {
    expect([deviceFor('mobile'), deviceFor('desktop'), deviceFor(undefined)]).toEqual(['mobile', 'desktop', 'desktop']);
    const mobile = profileFor({ sessionKey: 'a', device: 'mobile' });
    const brands = mobile.userAgentData.brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');
    // A navigation, as Chrome 156 sends one (test/integration/fingerprint.test.ts compares with the local Chromium).
    expect(requestHeaders(mobile, { method: 'GET', url: 'https://a.example/', cookie: 'x=1' })).toEqual([
      ['sec-ch-ua', brands],
      ['sec-ch-ua-mobile', '?1'],
      ['sec-ch-ua-platform', '"Android"'],
      ['upgrade-insecure-requests', '1'],
      ['user-agent', mobile.userAgent],
      ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'],
      ['sec-fetch-site', 'none'],
      ['sec-fetch-mode', 'navigate'],
      ['sec-fetch-user', '?1'],
      ['sec-fetch-dest', 'document'],
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['accept-language', 'en-US,en;q=0.9'],
      ['cookie', 'x=1'],
      ['priority', 'u=0, i'],
    ]);
    // Over cleartext HTTP (always HTTP/1.1) Chrome sends no `priority`; a step's own header goes last.
    expect(requestHeaders(mobile, { method: 'GET', url: 'http://a.example/', headers: { 'x-app': '1' } }).slice(-3)).toEqual([
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['accept-language', 'en-US,en;q=0.9'],
      ['x-app', '1'],
    ]);
    // A flow's JSON call is a script's fetch(): Chrome's other order, its own accept and content type.
    expect(requestHeaders(mobile, { method: 'POST', url: 'https://a.example/api', headers: { 'Content-Type': 'application/json', accept: 'application/json', 'x-app': '1' } })).toEqual([
      ['sec-ch-ua-platform', '"Android"'],
      ['user-agent', mobile.userAgent],
      ['sec-ch-ua', brands],
      ['content-type', 'application/json'],
      ['sec-ch-ua-mobile', '?1'],
      ['accept', 'application/json'],
      ['origin', 'https://a.example'],
      ['sec-fetch-site', 'same-origin'],
      ['sec-fetch-mode', 'cors'],
      ['sec-fetch-dest', 'empty'],
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['accept-language', 'en-US,en;q=0.9'],
      ['x-app', '1'],
      ['priority', 'u=1, i'],
    ]);
  });
});

describe('decodeBody', () => {
  test('charset from the header, else from <meta>, else utf-8', () => {
    const latin = Buffer.from('<html><head></head><body>caf\xe9</body></html>', 'latin1');
    expect(decodeBody(latin, 'text/html; charset=ISO-8859-1')).toEqual({ text: '<html><head></head><body>café</body></html>', isHtml: true, binary: false });
    const meta = Buffer.from('<html><head><meta charset="iso-8859-7"></head>\xe1</html>', 'latin1');
    expect(decodeBody(meta, 'text/html').text).toBe('<html><head><meta charset="iso-8859-7"></head>α</html>');
    expect(decodeBody(Buffer.from('{"a":"é"}'), 'application/json')).toEqual({ text: '{"a":"é"}', isHtml: false, binary: false });
  });

  test('the WHATWG sniffing order (encoding-sniffer): a BOM beats the header, the first <meta> wins, http-equiv and XML declarations count', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>café</p>')]);
    expect(decodeBody(bom, 'text/html; charset=windows-1252').text).toBe('<p>café</p>');
    const two = Buffer.from('<meta charset="iso-8859-7"><meta charset="iso-8859-5">\xe1', 'latin1');
    expect(decodeBody(two, 'text/html').text.endsWith('α')).toBe(true);
    const pragma = Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">\xc1', 'latin1');
    expect(decodeBody(pragma, 'text/html').text.endsWith('а')).toBe(true);
    // A <meta> naming UTF-16 means UTF-8 (the bytes are ASCII-compatible if it could be read).
    expect(decodeBody(Buffer.from('<meta charset="utf-16le"><p>é</p>'), 'text/html').text).toBe('<meta charset="utf-16le"><p>é</p>');
    const xml = Buffer.from('<?xml version="1.0" encoding="iso-8859-7"?><r>\xe1</r>', 'latin1');
    expect(decodeBody(xml, 'application/xml').text.endsWith('α</r>')).toBe(true);
    // A meta past the first 2 KiB is not looked for: UTF-8.
    const late = Buffer.from(`<p>${'x'.repeat(2100)}</p><meta charset="iso-8859-7">é`);
    expect(decodeBody(late, 'text/html').text.endsWith('é')).toBe(true);
  });

  test('binary bodies become base64; untyped markup is sniffed', () => {
    expect(decodeBody(Buffer.from([1, 2, 3]), 'image/png')).toEqual({ text: 'AQID', isHtml: false, binary: true });
    expect(decodeBody(Buffer.from('<!doctype html><p>x'), '').isHtml).toBe(true);
  });
});

describe('outputFormats', () => {
  test('default html; unknown values dropped', () => {
    expect([...outputFormats(undefined)]).toEqual(['html']);
    expect([...outputFormats(['markdown', 'json', 'bogus'])]).toEqual(['markdown', 'json']);
  });
});

describe('TaskAbort', () => {
  test('hooks run once on abort; removed hooks do not; the signal is made on demand and aborted too', () => {
    const abort = new TaskAbort();
    const calls: string[] = [];
    abort.onAbort(() => calls.push('a'));
    const remove = abort.onAbort(() => calls.push('b'));
    remove();
    const signal = abort.signal;
    abort.abort('why');
    abort.abort('again');
    abort.onAbort(() => calls.push('late'));
    expect([calls, abort.aborted, abort.reason, signal.aborted, signal.reason]).toEqual([['a', 'late'], true, 'why', true, 'why']);
    const later = new TaskAbort();
    later.abort('before');
    expect([later.signal.aborted, later.signal.reason]).toEqual([true, 'before']);
  });
});

describe('CancelBoard', () => {
  test('a cancel aborts the watched task; one that arrives before its task aborts it as it starts', async () => {
    const name = `farm-parts-${process.pid}-${Date.now()}`;
    const board = new CancelBoard(name, async () => false);
    const pool = new BroadcastChannel(name);
    const seen: number[] = [];
    const unwatch = board.watch(1, () => seen.push(1));
    pool.postMessage(2); // task 2 is not here yet
    pool.postMessage(1);
    // One sender's messages arrive in order: once 1 is seen, 2 has been remembered.
    await until(() => seen.includes(1), 'the cancel of task 1');
    board.watch(2, () => seen.push(2));
    unwatch();
    board.watch(3, () => seen.push(3))();
    pool.postMessage(3); // un-watched: remembered, never run
    // A watched task's cancel after it: when it runs, 3 has been handled.
    board.watch(4, () => seen.push(4));
    pool.postMessage(4);
    await until(() => seen.includes(4), 'the cancel of task 4');
    expect(seen).toEqual([1, 2, 4]);
    pool.close();
    board.close();
  });
});

describe('which fetch steps leave their jar read afterwards (flow-attempt.ts readsJarAfter)', () => {
  const page = (extra: Partial<FetchStep> = {}): FetchStep => ({ kind: 'fetch', name: 'page', url: 'https://shop.test/p', ...extra });
  const flow = (...steps: Step[]): Flow => ({ page: 1, steps });

  test('a lone page step without a session: nothing reads the jar after it', () => {
    expect(readsJarAfter(flow(page()), 0, false)).toBe(false);
    expect(readsJarAfter(flow(page({ read: { title: { from: 'body', pattern: /<title>(.*)<\/title>/ } } })), 0, false)).toBe(false);
  });

  test('a session, a cookie reader, follow-ups or a later fetch step read it', () => {
    expect(readsJarAfter(flow(page()), 0, true)).toBe(true);
    expect(readsJarAfter(flow(page({ read: { sid: { from: 'cookie', name: 'sid' } } })), 0, false)).toBe(true);
    expect(readsJarAfter(flow(page({ more: { next: () => undefined, max: 3 } })), 0, false)).toBe(true);
    const setup = page({ name: 'session', setup: true });
    expect([readsJarAfter(flow(setup, page()), 0, false), readsJarAfter(flow(setup, page()), 1, false)]).toEqual([true, false]);
  });
});
