/**
 * What a site sees of the plain path and of the rendered path (`run_js`), against what the local
 * Chromium itself sends to the same recording server in the same run (test/helpers/recorder/):
 * JA4, ALPN, HTTP/2 frames, header order and values, client hints. Nothing here is a hard-coded
 * fingerprint: a Chromium upgrade changes the reference and this test says what no longer
 * matches. The recorder's CA is trusted only through GLEANER_CA_FILE, on both paths.
 *
 * The plain path by default (`GLEANER_PLAIN_CLIENT=auto`) sends https navigations through
 * full Chromium's own network stack (worker/nav-page.ts): all ten facts equal. The native client
 * (`native`, and cleartext pages under `auto`) has one known and asserted difference
 * (net/emulation.ts): the library's newest Chrome TLS preset lacks two things Chromium 156
 * sends, the Trust Anchor Identifiers extension (0xca34) and the ML-DSA signature algorithms
 * (0x0904-0x0906); the test fails loudly when that changes (a library upgrade that closes the
 * gap, or a Chromium that adds more).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { send } from '../../farm/delivery/http.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { useCaFile } from '../../farm/net/trust.js';
import { task } from '../helpers/farm.js';
import { makeTestCa, type TestCa } from '../helpers/recorder/ca.js';
import { FULL_CHROMIUM, HEADLESS_SHELL, chromiumVisit, hasBrowser } from '../helpers/recorder/chromium.js';
import { factsOf, score, type Fact } from '../helpers/recorder/facts.js';
import { startRecorder, type RecordedRequest, type Recorder } from '../helpers/recorder/server.js';
import { until } from '../helpers/wait.js';

let rec: Recorder;
let h1: Recorder;
let stranger: Recorder;
let strangerCa: TestCa;
let guarded: Farm;
let open: Farm;
let native: Farm;
let reference: RecordedRequest;

/** What the library cannot send yet (see the file comment): the only allowed TLS difference. */
const MISSING_EXTENSIONS = ['ca34'];
const MISSING_SIGALGS = ['0904', '0905', '0906'];

beforeAll(async () => {
  rec = await startRecorder();
  h1 = await startRecorder({ h2: false, ca: rec.ca });
  strangerCa = makeTestCa('Not trusted');
  stranger = await startRecorder({ ca: strangerCa });
  const config = (allowPrivate: boolean, plainClient: 'auto' | 'native' = 'auto') => loadConfig({}, { allowPrivate, workers: 1, caFile: rec.ca.caFile, plainClient });
  // Private addresses refused: `localhost` is an operator-vouched name, so the guard resolves,
  // checks and pins it — the fingerprint must not change with the guard in the way.
  guarded = await createFarm({ config: config(false), hosts: { localhost: '127.0.0.1' }, limits: { retryBaseMs: 20, maxAttempts: 1 } });
  open = await createFarm({ config: config(true), limits: { retryBaseMs: 20, maxAttempts: 1 } });
  native = await createFarm({ config: config(false, 'native'), hosts: { localhost: '127.0.0.1' }, limits: { retryBaseMs: 20, maxAttempts: 1 } });
  reference = await chromiumVisit(FULL_CHROMIUM, rec, 'chromium');
}, 120_000);

afterAll(async () => {
  await Promise.all([guarded?.close(), open?.close(), native?.close()]);
  await Promise.all([rec?.close(), h1?.close(), stranger?.close()]);
  strangerCa?.remove();
});

const plain = (farm: Farm, url: string) => farm.run(task({ url, output: ['html'] }));

describe.runIf(hasBrowser(FULL_CHROMIUM))('the plain path against Chromium 156 (same run, same recorder)', () => {
  test('by default (https through Chromium\'s network stack): 10 network facts of 10 equal, and the page is the plain page', async () => {
    const out = await plain(guarded, `${rec.origin}/r/plain-auto`);
    expect(out.results[0].html).toContain('<h1>Recorded /r/plain-auto</h1>');
    expect(out.usage.render).toBe(false);
    const result = score(factsOf(await rec.waitFor('plain-auto')), factsOf(reference, { normalizeHeadless: true }), 'gleaner plain (auto)');
    console.log(result.table);
    expect(result.differing).toEqual([]);
    // Nothing but the document: no subresource, no second request.
    expect(rec.requests.filter((r) => r.tag === 'plain-auto').length).toBe(1);
  });

  test('the native client: 10 network facts, 8 equal; JA4 differs only by what the library cannot send', async () => {
    await plain(native, `${rec.origin}/r/plain`);
    const ours = factsOf(await rec.waitFor('plain'));
    const theirs = factsOf(reference, { normalizeHeadless: true });
    const result = score(ours, theirs, 'gleaner plain (native)');
    console.log(result.table);
    const sameFacts: Fact[] = ['ja4_ciphers', 'alpn', 'h2_settings', 'h2_window_update', 'h2_pseudo_order', 'header_order', 'header_values', 'client_hints'];
    for (const fact of sameFacts) expect([fact, ours[fact]]).toEqual([fact, theirs[fact]]);
    // The raw JA4s differ by exactly the extension and signature algorithms named above.
    const [, , oursExt, oursSig] = (await rec.waitFor('plain')).tls.ja4Raw.split('_');
    const [, , refExt, refSig] = reference.tls.ja4Raw.split('_');
    expect(refExt.split(',').filter((e) => !oursExt.split(',').includes(e))).toEqual(MISSING_EXTENSIONS);
    expect(oursExt.split(',').filter((e) => !refExt.split(',').includes(e))).toEqual([]);
    expect(refSig.split(',').filter((s) => !oursSig.split(',').includes(s))).toEqual(MISSING_SIGALGS);
    expect(result.equal).toBe(8);
  });

  test('the guard does not change the fingerprint: private networks allowed gives the same facts', async () => {
    await plain(open, `${rec.origin}/r/open`);
    const [a, b] = [factsOf(await rec.waitFor('plain-auto')), factsOf(await rec.waitFor('open'))];
    expect(b).toEqual(a);
  });

  test('over HTTP/1.1 (a server without h2): Chrome\'s header names, case and order', async () => {
    const ref = await chromiumVisit(FULL_CHROMIUM, h1, 'chromium-h1');
    await plain(guarded, `${h1.origin}/r/plain-h1`);
    const ours = await h1.waitFor('plain-h1');
    expect([ours.protocol, ours.tls.alpn]).toEqual(['http/1.1', 'http/1.1']);
    const names = (r: RecordedRequest) => r.headers.map(([n]) => n);
    expect(names(ours)).toEqual(names(ref));
    // The native client: Chrome sends `Priority` over h2 only; the client writes the same list on both.
    await plain(native, `${h1.origin}/r/native-h1`);
    const theirs = await h1.waitFor('native-h1');
    const noPriority = (r: RecordedRequest) => names(r).filter((n) => n.toLowerCase() !== 'priority');
    expect(noPriority(theirs)).toEqual(noPriority(ref));
  });
});

describe.runIf(hasBrowser(FULL_CHROMIUM))('cleartext HTTP: the native client sends what Chromium sends', () => {
  test('header names, order and values of a navigation (no TLS, so no other fact to compare)', async () => {
    const seen = new Map<string, Array<[string, string]>>();
    const server = createServer((req, res) => {
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      seen.set(req.url ?? '', pairs);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>plain</h1>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const waiter = {
      origin,
      waitFor: async (tag: string) => {
        await until(() => seen.has(`/r/${tag}`), `a request for /r/${tag}`, 45_000);
        return { headers: seen.get(`/r/${tag}`)! } as RecordedRequest;
      },
    } as unknown as Recorder;
    try {
      const ref = (await chromiumVisit(FULL_CHROMIUM, waiter, 'chromium-http', origin)).headers;
      await plain(open, `${origin}/r/ours-http`);
      const ours = seen.get('/r/ours-http')!;
      const show = (list: Array<[string, string]>) => list.map(([n, v]) => `${n}: ${n.toLowerCase() === 'user-agent' ? v.replace('HeadlessChrome/', 'Chrome/') : v}`);
      expect(show(ours)).toEqual(show(ref));
    } finally {
      server.close();
    }
  }, 90_000);
});

describe.runIf(hasBrowser(FULL_CHROMIUM))('the rendered path (run_js) against Chromium 156 (same run, same recorder)', () => {
  // The recorder's CA reaches the browser only through GLEANER_CA_FILE (browser/trust.ts): this
  // page loading at all is the browser trusting the file.
  test('10 network facts of a rendered page, scored as the plain path: all equal', async () => {
    await guarded.run(task({ url: `${rec.origin}/r/rendered`, output: ['html'], run_js: true }, { timeoutMs: 60_000 }));
    const ours = factsOf(await rec.waitFor('rendered'));
    const theirs = factsOf(reference, { normalizeHeadless: true });
    const result = score(ours, theirs, 'gleaner run_js');
    console.log(result.table);
    expect(result.differing).toEqual([]);
    expect(result.equal).toBe(10);
  }, 90_000);
});

describe.runIf(hasBrowser(HEADLESS_SHELL))('for the record: the headless shell', () => {
  test('its own facts against full Chromium (what run_js on the shell would present)', async () => {
    const shell = await chromiumVisit(HEADLESS_SHELL, rec, 'shell');
    const result = score(factsOf(shell), factsOf(reference, { normalizeHeadless: true }), 'headless shell');
    console.log(result.table);
    // The shell omits the Trust Anchor Identifiers extension and Accept-Language.
    expect(result.differing).toContain('ja4');
  });
});

describe('bodies and trust', () => {
  test('br and zstd bodies are decoded', async () => {
    for (const enc of ['br', 'zstd', 'gzip']) {
      const out = await plain(guarded, `${rec.origin}/r/enc-${enc}?enc=${enc}`);
      expect([enc, out.results[0].html]).toEqual([enc, expect.stringContaining(`<h1>Recorded /r/enc-${enc}</h1>`)]);
    }
  });

  test('a certificate from a CA outside GLEANER_CA_FILE stays an error', async () => {
    const failed = await plain(guarded, `${stranger.origin}/r/untrusted`).catch((err: { code: string; message: string }) => err);
    expect(failed).toMatchObject({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: expect.stringContaining('certificate not trusted') });
    expect(stranger.requests).toEqual([]);
  });

  test('the browser trusts GLEANER_CA_FILE and nothing else; without the file the same page is a certificate error', async () => {
    const other = await guarded.run(task({ url: `${stranger.origin}/r/untrusted-rendered`, output: ['html'], run_js: true }, { timeoutMs: 60_000 })).catch((err: { code: string; message: string }) => err);
    expect(other).toMatchObject({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: expect.stringContaining('ERR_CERT_AUTHORITY_INVALID') });
    const bare = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1 }), limits: { retryBaseMs: 20, maxAttempts: 1 } });
    try {
      const failed = await bare.run(task({ url: `${rec.origin}/r/no-ca-file`, output: ['html'], run_js: true }, { timeoutMs: 60_000 })).catch((err: { code: string; message: string }) => err);
      expect(failed).toMatchObject({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: expect.stringContaining('ERR_CERT_AUTHORITY_INVALID') });
    } finally {
      await bare.close();
    }
    expect(rec.requests.filter((r) => r.tag === 'no-ca-file')).toEqual([]);
    expect(stranger.requests).toEqual([]);
  }, 120_000);

  test.runIf(hasBrowser(HEADLESS_SHELL))('the headless shell, when it is the configured browser, trusts GLEANER_CA_FILE the same way', async () => {
    const shell = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, caFile: rec.ca.caFile, chromium: HEADLESS_SHELL }), limits: { retryBaseMs: 20, maxAttempts: 1 } });
    try {
      const out = await shell.run(task({ url: `${rec.origin}/r/shell-rendered`, output: ['html'], run_js: true }, { timeoutMs: 60_000 }));
      expect(out.results[0].html).toContain('<h1>Recorded /r/shell-rendered</h1>');
    } finally {
      await shell.close();
    }
  }, 120_000);

  test('webhook and bucket clients trust GLEANER_CA_FILE too, and nothing else', async () => {
    useCaFile(rec.ca.caFile);
    const ok = await send({ method: 'POST', url: new URL(`${rec.origin}/r/hook`), headers: { 'content-type': 'application/json' }, body: '{"a":1}' }, { allowPrivate: true });
    expect(ok).toMatchObject({ ok: true, status: 200 });
    expect((await rec.waitFor('hook')).body).toBe('{"a":1}');
    const refused = await send({ method: 'POST', url: new URL(`${stranger.origin}/r/hook`), headers: {}, body: '{}' }, { allowPrivate: true });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/certificate|self.signed|issuer/i) });
  });
});
