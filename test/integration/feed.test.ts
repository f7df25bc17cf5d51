/**
 * Issue 24 B (the feed part) and 7 (the feed's submit and the Job API batch cap), against the
 * real gateway on port 0 with LMDB in a temp folder: a revoked key's open feed is closed and
 * its submits stop — the revocation made by the CLI in another process — and the feed's submit
 * applies the quota and the batch cap exactly as the HTTP route does.
 */
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ maxBatch: 3 });
});
afterAll(async () => gw?.close());

/** The offline CLI in its own process, on the gateway's data directory. */
function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), ...args], { cwd: root, env: { ...process.env, GLEANER_DATA_DIR: gw.dataDir }, encoding: 'utf8' }, (err, stdout, stderr) =>
      done({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

interface Feed {
  ws: WebSocket;
  messages: Array<Record<string, any>>;
  closed: Promise<{ code: number; reason: string }>;
  /** The first `op` answer whose ref is `ref`, or undefined when the socket closes first. */
  answer(ref: string): Promise<Record<string, any> | undefined>;
}

async function openFeed(key: string): Promise<Feed> {
  const ws = new WebSocket(`ws://127.0.0.1:${gw.server.port}/v1/feed?format=json`, { headers: { authorization: `Bearer ${key}` } });
  const messages: Array<Record<string, any>> = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: String(reason) })));
  await new Promise((ok, fail) => ws.once('open', ok).once('error', fail));
  return {
    ws,
    messages,
    closed,
    answer: (ref) =>
      new Promise((done) => {
        const check = (): void => {
          const hit = messages.find((m) => m.ref === ref && m.op);
          if (hit) {
            waiters.delete(check);
            done(hit);
          }
        };
        waiters.add(check);
        void closed.then(() => {
          waiters.delete(check);
          done(messages.find((m) => m.ref === ref && m.op));
        });
        check();
      }),
  };
}

/** Resolves with `promise`, or fails naming `what` when `ms` pass first. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const deadline = new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`${what}: not within ${ms} ms`)), ms));
  return Promise.race([promise, deadline]);
}

async function adminKey(label: string): Promise<{ key: string; id: string }> {
  const account = await gw.server.store.accounts.createAccount({ name: label, admin: true });
  const { key, info } = await gw.server.store.accounts.createKey(account.clientId, label);
  return { key, id: info.id };
}

const SUBMIT = { op: 'submit', path: '/v1/async/scrape', body: { url: 'http://127.0.0.1:9/feed' } };

describe('B: a revoked key loses its open feed', () => {
  test('`gleaner keys revoke` in another process closes the socket (1008); the key gets 401 on REST', async () => {
    const { key, id } = await adminKey('revoke-by-cli');
    const feed = await openFeed(key);
    feed.ws.send(JSON.stringify({ ...SUBMIT, ref: 'before' }));
    expect((await feed.answer('before'))?.status).toBe(202);

    const revoked = await cli('keys', 'revoke', id);
    expect([revoked.status, revoked.stdout]).toEqual([0, `revoked ${id}\n`]);
    // The service notices the other process's commit by itself (no request on this socket).
    expect(await within(feed.closed, 5000, 'the feed of a revoked key was not closed')).toEqual({ code: 1008, reason: 'The key was revoked.' });
    expect((await call(`${gw.url}/v1/scrapers`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  test('a submit sent right after an in-process revocation is never accepted', async () => {
    const { key, id } = await adminKey('revoke-then-submit');
    const feed = await openFeed(key);
    let accepted = 0;
    const stop = gw.server.services.events.subscribe((e) => {
      if (e.type === 'accepted' && e.clientId === gw.server.store.accounts.authenticate(key)?.clientId) accepted++;
    });
    expect(await gw.server.store.accounts.revokeKey(id)).toBe(true);
    feed.ws.send(JSON.stringify({ ...SUBMIT, ref: 'after' }));
    const answer = await feed.answer('after');
    const closed = await within(feed.closed, 5000, 'the feed of a revoked key was not closed');
    stop();
    expect(answer).toBeUndefined();
    expect(closed.code).toBe(1008);
    expect(accepted).toBe(0);
    // A new upgrade with the key is refused.
    const refused = await new Promise<number>((done) => {
      const ws = new WebSocket(`ws://127.0.0.1:${gw.server.port}/v1/feed`, { headers: { authorization: `Bearer ${key}` } });
      ws.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
      ws.on('open', () => done(101));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(401);
  });

  test('other keys\' feeds stay open', async () => {
    const keep = await adminKey('kept');
    const gone = await adminKey('gone');
    const [a, b] = await Promise.all([openFeed(keep.key), openFeed(gone.key)]);
    expect((await cli('keys', 'revoke', gone.id)).status).toBe(0);
    await within(b.closed, 5000, 'the revoked feed was not closed');
    a.ws.send(JSON.stringify({ ...SUBMIT, ref: 'still' }));
    expect((await a.answer('still'))?.status).toBe(202);
    a.ws.close();
  });
});

describe('7: the feed\'s submit is admitted like POST on the route', () => {
  test('the batch cap (GLEANER_MAX_BATCH) is 413 on the feed as on HTTP; nothing queued', async () => {
    const { key } = await adminKey('batch-cap');
    const body = { url: ['http://127.0.0.1:9/1', 'http://127.0.0.1:9/2', 'http://127.0.0.1:9/3', 'http://127.0.0.1:9/4'] };
    const http = await postJson(gw, '/v1/async/scrape/batch', body, { authorization: `Bearer ${key}` });
    const feed = await openFeed(key);
    feed.ws.send(JSON.stringify({ op: 'submit', ref: 'big', path: '/v1/async/scrape/batch', body }));
    const answer = await feed.answer('big');
    feed.ws.close();
    expect([http.status, http.body.title, http.body.detail]).toEqual([413, 'PAYLOAD_TOO_LARGE', 'A batch takes at most 3 values; url has 4.']);
    expect([answer?.op, answer?.status, answer?.body.title, answer?.body.detail]).toEqual(['error', 413, 'PAYLOAD_TOO_LARGE', 'A batch takes at most 3 values; url has 4.']);
  });

  test('the quota is 429 QUOTA_EXCEEDED on the feed as on HTTP, for a batch as a whole', async () => {
    const { key } = await adminKey('quota');
    const clientId = gw.server.store.accounts.authenticate(key)!.clientId;
    await gw.server.store.quotas.setQuota(clientId, { pages_per_day: 2 });
    const body = { url: ['http://127.0.0.1:9/q1', 'http://127.0.0.1:9/q2', 'http://127.0.0.1:9/q3'] };
    const http = await postJson(gw, '/v1/async/scrape/batch', body, { authorization: `Bearer ${key}` });
    const feed = await openFeed(key);
    feed.ws.send(JSON.stringify({ op: 'submit', ref: 'q', path: '/v1/async/scrape/batch', body }));
    const answer = await feed.answer('q');
    feed.ws.close();
    expect([http.status, http.body.title]).toEqual([429, 'QUOTA_EXCEEDED']);
    expect([answer?.op, answer?.status, answer?.body.title, answer?.body.detail]).toEqual(['error', 429, 'QUOTA_EXCEEDED', http.body.detail]);
    expect(answer?.body.quota).toEqual(http.body.quota);
  });
});

describe('7: the Job API batch cap is GLEANER_MAX_BATCH', () => {
  test('4 values over a cap of 3 is 413 with max 3; 3 values are accepted', async () => {
    const url = `http://127.0.0.1:${gw.server.dataPort}/v1/queries/batch`;
    const headers = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
    const urls = ['http://127.0.0.1:9/j1', 'http://127.0.0.1:9/j2', 'http://127.0.0.1:9/j3', 'http://127.0.0.1:9/j4'];
    const over = await call(url, { method: 'POST', headers, body: JSON.stringify({ source: 'universal', url: urls }) });
    expect([over.status, over.body.title, over.body.detail]).toEqual([413, 'PAYLOAD_TOO_LARGE', 'A batch takes at most 3 values; got 4.']);
    const ok = await call(url, { method: 'POST', headers, body: JSON.stringify({ source: 'universal', url: urls.slice(0, 3) }) });
    expect([ok.status, ok.body.queries.length]).toEqual([200, 3]);
  });
});
