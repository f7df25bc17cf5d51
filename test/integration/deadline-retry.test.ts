/**
 * The task's one cancellation object carries its deadline into the fetch retry loop (issue 24
 * item 6): an upstream `Retry-After` that would run past a sync request's deadline is not slept
 * into; the attempts end at once with REQUEST_FAILED_AFTER_MANY_RETRIES naming the wait the
 * target asked for, instead of a timeout at the deadline. Real gateway, real farm, a local
 * upstream answering 503 with `Retry-After`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let upstream: Server;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url?.startsWith('/once') && hits.filter((h) => h === req.url).length > 1) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>After the wait</h1></body></html>');
      return;
    }
    const wait = new URL(req.url ?? '/', 'http://x').searchParams.get('after') ?? '20';
    res.writeHead(503, { 'retry-after': wait, 'content-type': 'text/html' });
    res.end('<html><body>busy</body></html>');
  });
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // A sync deadline of 8 s: a 20 s Retry-After (under the 30 s the loop would otherwise honour) crosses it.
  gw = await startGateway({ syncTimeoutMs: 8_000 });
});
afterAll(async () => {
  await gw?.close();
  upstream?.close();
});

test('a Retry-After past the sync deadline ends the attempts at once, naming the asked wait', async () => {
  const r = await postJson(gw, '/v1/scrape', { url: `${origin}/busy?after=20` });
  expect([r.status, r.body.title, r.body.detail]).toEqual([
    500,
    'REQUEST_FAILED_AFTER_MANY_RETRIES',
    'Every attempt to fetch the target failed (last: HTTP 503; the target asked to retry in 20 s).',
  ]);
  // One attempt: the second would have been after the deadline.
  expect(hits.filter((h) => h === '/busy?after=20')).toHaveLength(1);
});

test('a Retry-After within the deadline is waited for, then the page is fetched again', async () => {
  const r = await postJson(gw, '/v1/scrape', { url: `${origin}/once?after=1`, output: ['markdown'] });
  expect([r.status, r.body.results[0].markdown]).toEqual([200, '# After the wait\n']);
  expect(hits.filter((h) => h === '/once?after=1')).toHaveLength(2);
});
