/**
 * Issue 24 item 4: failed Job API logins cost the caller, not the node. A flood of bad
 * passwords is limited per user and per address (429 with Retry-After) and runs a bounded
 * number of scrypt checks; a repeated bad header costs no scrypt at all; and the farm's DNS no
 * longer waits on libuv's thread pool, which scrypt shares: a fetch completes while every pool
 * thread is held. Real gateway on port 0, a real HTTP page, LMDB in a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, open, openSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_CHECKS, PER_ADDRESS, PER_USER } from '../../gateway/jobapi/login.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let page: Server;
let pagePort: number;
/** Paths the page server was asked for, in order. */
const served: string[] = [];

beforeAll(async () => {
  gw = await startGateway();
  page = createServer((req, res) => {
    served.push(req.url ?? '');
    res.end('<html><body><p>resolved off the pool</p></body></html>');
  });
  await new Promise<void>((ok) => page.listen(0, '127.0.0.1', ok));
  pagePort = (page.address() as { port: number }).port;
});
afterAll(async () => {
  page?.close();
  await gw?.close();
});

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const stats = (headers: Record<string, string>) => call(`http://127.0.0.1:${gw.server.dataPort}/v2/stats`, { headers });

async function counter(name: string, labels = ''): Promise<number> {
  const text = (await call(`${gw.url}/metrics`, { headers: gw.auth })).text;
  const m = new RegExp(`^${name}${labels ? `\\{${labels}\\}` : ''} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

describe('failed logins', () => {
  test('the same bad header again is 401 without another scrypt check', async () => {
    const before = await counter('gleaner_jobapi_password_checks_total');
    const headers = basic('nobody-here', 'wrong');
    for (let i = 0; i < 5; i++) expect((await stats(headers)).status).toBe(401);
    expect(await counter('gleaner_jobapi_password_checks_total')).toBe(before + 1);
  });

  test('a flood of 64 different bad passwords for one user: at most PER_USER checks, the rest 429 with Retry-After; a fetch completes meanwhile; the right user still gets in', async () => {
    // A user verified before the flood stays verified (cached) during it.
    expect((await stats(basic(TEST_USER, TEST_PASSWORD))).status).toBe(200);
    const before = await counter('gleaner_jobapi_password_checks_total');
    const flood = Promise.all(Array.from({ length: 64 }, (_, i) => stats(basic(TEST_USER, `wrong-${i}`))));
    const fetched = postJson(gw, '/v1/scrape', { url: `http://localhost:${pagePort}/` });
    const [answers, scrape] = await Promise.all([flood, fetched]);
    expect([scrape.status, scrape.text.includes('resolved off the pool')]).toEqual([200, true]);

    const unauthorized = answers.filter((a) => a.status === 401);
    const limited = answers.filter((a) => a.status === 429);
    expect(unauthorized.length + limited.length).toBe(64);
    expect(unauthorized.length).toBeLessThanOrEqual(PER_USER);
    expect(limited.length).toBeGreaterThanOrEqual(64 - PER_USER);
    for (const a of limited) {
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(a.body).toMatchObject({ title: 'TOO_MANY_REQUESTS', status: 429, message: expect.stringMatching(/^Too many failed logins for this user; retry after \d+ s\.$/) });
    }
    expect(await counter('gleaner_jobapi_password_checks_total')).toBeLessThanOrEqual(before + PER_USER);
    expect(await counter('gleaner_jobapi_logins_limited_total', 'by="user"')).toBeGreaterThanOrEqual(64 - PER_USER);
    // The verified header is still served from the cache.
    expect((await stats(basic(TEST_USER, TEST_PASSWORD))).status).toBe(200);
  });

  test('many user names from one address: limited per address after PER_ADDRESS failures', async () => {
    const answers = await Promise.all(Array.from({ length: PER_ADDRESS + 10 }, (_, i) => stats(basic(`user-${i}`, 'wrong'))));
    const limited = answers.filter((a) => a.status === 429);
    // Earlier tests' failures from this address count too: at least the surplus is refused.
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0].body.message).toMatch(/^Too many failed logins from this address; retry after \d+ s\.$/);
    expect(MAX_CHECKS).toBeLessThan(4); // the pool (4 threads) keeps room for everything else
  });
});

describe('farm DNS is off libuv\'s thread pool', () => {
  // With private addresses refused (production), every hop's name goes through the guard's
  // resolver (farm/net/resolver.ts); with them allowed (tests, demos) the plain path's own
  // client resolves. Both must answer while every pool thread is held.
  let closed: TestGateway;
  beforeAll(async () => {
    closed = await startGateway({ allowPrivate: false });
    // Warm both farms (worker threads load their modules through the pool) before it is held.
    expect((await postJson(closed, '/v1/scrape', { url: `http://localhost:${pagePort}/warm` })).body.title).toBe('TARGET_FORBIDDEN');
    expect((await postJson(gw, '/v1/scrape', { url: `http://localhost:${pagePort}/warm` })).status).toBe(200);
  });
  afterAll(async () => closed?.close());

  test('a fetch by host name reaches its site while every pool thread is blocked (answered once the charge commits)', async () => {
    // Hold every pool thread in open(2) of a FIFO with no writer: no CPU burnt, released below.
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-pool-'));
    const fifo = join(dir, 'hold');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    let released = 0;
    const held = Array.from({ length: threads }, () => new Promise<void>((done) => open(fifo, 'r', (err, fd) => {
      released++;
      if (!err) closeSync(fd);
      done();
    })));
    let answered: Promise<{ status: number }> | undefined;
    try {
      const deadline = new Promise<'stuck'>((done) => setTimeout(() => done('stuck'), 20_000));
      answered = postJson(gw, '/v1/scrape', { url: `http://localhost:${pagePort}/held` });
      const reached = new Promise<'reached'>((done) => {
        const poll = setInterval(() => served.includes('/held') && (clearInterval(poll), done('reached')), 20);
        void deadline.then(() => clearInterval(poll));
      });
      const [guarded, fetched] = await Promise.all([
        Promise.race([postJson(closed, '/v1/scrape', { url: `http://localhost:${pagePort}/held` }), deadline]),
        Promise.race([reached, deadline]),
      ]);
      // The guard resolved localhost (without the pool) and refused its loopback address.
      expect(guarded === 'stuck' ? 'the guarded lookup waited on the thread pool (20 s)' : [guarded.status, guarded.body.title]).toEqual([400, 'TARGET_FORBIDDEN']);
      // The open farm resolved and fetched the page. (Its answer then waits for the charge's
      // durable commit, which is LMDB work on the pool: it is answered once the pool frees.)
      expect(fetched === 'stuck' ? 'the fetch waited on the thread pool (20 s)' : fetched).toBe('reached');
      expect(released).toBe(0);
    } finally {
      closeSync(openSync(fifo, 'w')); // a writer: every blocked open returns
      await Promise.all(held);
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await answered!).status).toBe(200);
  });
});
