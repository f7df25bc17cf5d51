/**
 * Issue 16's input defects, each against the real gateway on port 0: lone surrogates (1),
 * unbounded json.schema nesting (2), ambiguous framing (3, raw sockets), oversized heads (4,
 * raw sockets), reserved context keys and the feed's 403 (7). Titles (5) are pinned in
 * problem-titles.test.ts.
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';
import { rawRequest } from '../helpers/raw-http.js';
import { MAX_HEADER_FIELDS, MAX_HEAD_BYTES, MAX_TARGET_BYTES } from '../../gateway/head.js';

let gw: TestGateway;
let port: number;
const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}` };

beforeAll(async () => {
  gw = await startGateway();
  port = gw.server.port;
});
afterAll(async () => gw?.close());

function expectInvalid(answer: HttpAnswer, pointer: string | RegExp, detail?: string | RegExp): void {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  expect(answer.body.title).toBe('VALIDATION_ERROR');
  expect(answer.body.errors).toHaveLength(1);
  const [error] = answer.body.errors as Array<{ pointer: string; detail: string }>;
  if (typeof pointer === 'string') expect(error.pointer).toBe(pointer);
  else expect(error.pointer).toMatch(pointer);
  if (detail !== undefined) expect(error.detail).toMatch(detail);
}

const LONE = 'abc\udfff';
const SURROGATE_DETAIL = 'is not well-formed Unicode text (it contains a lone UTF-16 surrogate)';

describe('defect 1: a lone surrogate is 400 with the field pointer, everywhere', () => {
  test('the body carries the escape (JSON.stringify writes \\udfff)', () => {
    expect(JSON.stringify({ query: LONE })).toBe('{"query":"abc\\udfff"}');
  });

  test('sync scrape, search, async video, batch', async () => {
    expectInvalid(await postJson(gw, '/v1/scrape', { url: `http://127.0.0.1/${LONE}` }), '#/url', SURROGATE_DETAIL);
    expectInvalid(await postJson(gw, '/v1/search', { query: LONE }), '#/query', SURROGATE_DETAIL);
    expectInvalid(await postJson(gw, '/v1/async/scrape/media/video/metadata', { query: LONE }), '#/query', SURROGATE_DETAIL);
    expectInvalid(await postJson(gw, '/v1/async/scrape/batch/media/video/metadata', { query: ['ok', LONE] }), '#/query/1', SURROGATE_DETAIL);
    expectInvalid(await postJson(gw, '/v1/scrape', { url: 'http://127.0.0.1/', [LONE]: 1 }), '#/abc\ufffd', /member name/);
    // Nothing was queued.
    expect(gw.server.store.jobs.queueDepth()).toBe(0);
  });

  test('job feed submit', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/feed?format=json`, { headers: gw.auth });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<Record<string, any>>((resolve) => ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.op) resolve(msg);
    }));
    ws.send(JSON.stringify({ op: 'submit', ref: 'r1', path: '/v1/async/scrape/media/video/metadata', body: { query: LONE } }));
    const msg = await answer;
    ws.close();
    expect([msg.op, msg.ref, msg.status, msg.body.title, msg.body.errors]).toEqual(['error', 'r1', 400, 'VALIDATION_ERROR', [{ pointer: '#/query', detail: SURROGATE_DETAIL }]]);
  });

  test('Job API realtime and push-pull', async () => {
    const realtime = `http://127.0.0.1:${gw.server.realtimePort}/v1/queries`;
    const data = `http://127.0.0.1:${gw.server.dataPort}/v1/queries`;
    const headers = { ...basic, 'content-type': 'application/json' };
    expectInvalid(await call(realtime, { method: 'POST', headers, body: JSON.stringify({ source: 'universal', url: `http://127.0.0.1/${LONE}` }) }), '#/url', SURROGATE_DETAIL);
    expectInvalid(await call(data, { method: 'POST', headers, body: JSON.stringify({ source: 'se1_search', query: LONE }) }), '#/query', SURROGATE_DETAIL);
    expectInvalid(
      await call(data, { method: 'POST', headers, body: JSON.stringify({ source: 'se1_search', query: 'x', context: [{ key: 'nfpr', value: LONE }] }) }),
      '#/context/0/value',
      SURROGATE_DETAIL,
    );
  });
});

/** A JSON Schema nested `levels` deep through `properties`. */
function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('defect 2: json.schema depth is capped at validation', () => {
  test('3,300 levels (within 65535 characters) is 400 on sync, async and batch; nothing stored', async () => {
    const deep = nestedSchema(1650); // 3,300 levels of objects
    expect(JSON.stringify(deep).length).toBeLessThan(65535);
    const json = { schema: deep };
    for (const [path, body] of [
      ['/v1/scrape', { url: 'http://127.0.0.1/', output: ['json'], json }],
      ['/v1/async/scrape', { url: 'http://127.0.0.1/', output: ['json'], json }],
      ['/v1/async/scrape/batch', { url: ['http://127.0.0.1/'], output: ['json'], json }],
    ] as const) {
      const answer = await postJson(gw, path, body);
      expectInvalid(answer, /^#\/json\/schema\//, /nests deeper than 64 levels/);
    }
    expect(gw.server.store.jobs.queueDepth()).toBe(0);
  });

  test('past 32 levels the json.schema field itself is refused with its limit', async () => {
    const answer = await postJson(gw, '/v1/scrape', { url: 'http://127.0.0.1/', output: ['json'], json: { schema: nestedSchema(20) } });
    expectInvalid(answer, '#/json/schema', /at most 32 levels/);
  });

  test('a schema of 15 nested objects is accepted by validation', async () => {
    const ok = await postJson(gw, '/v1/async/scrape', { url: 'http://127.0.0.1:9/', output: ['json'], json: { schema: nestedSchema(15) } });
    expect(ok.status).toBe(202);
  });
});

const body = '{"url":"http://127.0.0.1/"}';

describe('defect 3: ambiguous framing is refused and the connection closed (raw sockets)', () => {
  test('two Content-Length fields: 400 MALFORMED_REQUEST, then closed', async () => {
    const a = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(a.statuses).toEqual([400]);
    expect(JSON.parse(a.firstBody)).toMatchObject({ title: 'MALFORMED_REQUEST', status: 400, detail: 'The request has 2 Content-Length fields. The connection is closed (RFC 9112 6.3).' });
    expect(a.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(a.end).toBe('closed');
  });

  test('conflicting Content-Length with a smuggled request: the smuggled request never runs', async () => {
    const smuggled = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const a = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: ${5 + smuggled.length}\r\n\r\nhello${smuggled}`);
    expect(a.statuses).not.toContain(200);
    expect(a.end).not.toBe('open');
  });

  test('a Content-Length that is not a number is refused; Transfer-Encoding other than chunked is 400', async () => {
    // uWS's own parser closes on some malformed lengths before we see them: refused either way.
    for (const value of [`+${body.length}`, `${body.length}, ${body.length}`, `0x${body.length.toString(16)}`]) {
      const a = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: ${value}\r\n\r\n${body}`);
      expect(a.statuses.filter((s) => s !== 400)).toEqual([]);
      if (a.statuses.length > 0) expect(JSON.parse(a.firstBody).title).toBe('MALFORMED_REQUEST');
      expect(a.end).not.toBe('open');
    }
    const b = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`);
    expect([b.statuses, JSON.parse(b.firstBody).title, b.end]).toEqual([[400], 'MALFORMED_REQUEST', 'closed']);
  });

  test('Content-Length with Transfer-Encoding: closed without running anything', async () => {
    const a = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(a.statuses.filter((s) => s !== 400)).toEqual([]);
    expect(a.end).not.toBe('open');
  });

  test('one chunked body still works', async () => {
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const a = await rawRequest(port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`);
    expect(a.statuses).toEqual([401]); // framing accepted; no key
  });
});

describe('defect 4: oversized heads are answered 414 / 431 (raw sockets)', () => {
  test('a target over the limit is 414 URI_TOO_LONG', async () => {
    const a = await rawRequest(port, `GET /v1/scrapers?x=${'a'.repeat(MAX_TARGET_BYTES)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([a.statuses, JSON.parse(a.firstBody).title, a.end]).toEqual([[414], 'URI_TOO_LONG', 'closed']);
  });

  test('more header fields than the limit is 431 HEADERS_TOO_LARGE', async () => {
    const fields = Array.from({ length: MAX_HEADER_FIELDS }, (_, i) => `X-F${i}: v\r\n`).join('');
    const a = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${fields}\r\n`);
    expect([a.statuses, JSON.parse(a.firstBody).title, a.end]).toEqual([[431], 'HEADERS_TOO_LARGE', 'closed']);
    const under = Array.from({ length: MAX_HEADER_FIELDS - 1 }, (_, i) => `X-F${i}: v\r\n`).join('');
    expect((await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${under}\r\n`, 300)).statuses).toEqual([200]);
  });

  test('a head over the byte limit is 431 HEADERS_TOO_LARGE, up to what uWS reads at once (64 KiB)', async () => {
    for (const size of [MAX_HEAD_BYTES, 60 * 1024]) {
      const a = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(size)}\r\n\r\n`);
      expect([a.statuses, JSON.parse(a.firstBody).title, a.end]).toEqual([[431], 'HEADERS_TOO_LARGE', 'closed']);
    }
  });

  test('a 1 MB header or URL: uWS closes the connection (documented limit), nothing hangs', async () => {
    const header = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1 << 20)}\r\n\r\n`, 5000);
    const url = await rawRequest(port, `GET /${'a'.repeat(1 << 20)} HTTP/1.1\r\nHost: x\r\n\r\n`, 5000);
    for (const a of [header, url]) {
      expect(a.statuses).toEqual([]);
      expect(a.end).not.toBe('open');
    }
  });

  test('the README documents the limits', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const n of [MAX_TARGET_BYTES, MAX_HEADER_FIELDS, MAX_HEAD_BYTES]) expect(readme).toContain(n.toLocaleString('en-US'));
  });
});

describe('defect 7: reserved context keys; the feed refusal is a problem document', () => {
  test('context key __proto__ (and constructor) is refused with its pointer', async () => {
    const data = `http://127.0.0.1:${gw.server.dataPort}/v1/queries`;
    const headers = { ...basic, 'content-type': 'application/json' };
    for (const key of ['__proto__', 'constructor']) {
      const text = `{"source":"se1_search","query":"x","context":[{"key":"nfpr","value":true},{"key":${JSON.stringify(key)},"value":"1"}]}`;
      const answer = await call(data, { method: 'POST', headers, body: text });
      expectInvalid(answer, '#/context/1/key', `"${key}" is a reserved name, not a parameter`);
    }
  });

  test('the feed upgrade of a non-admin key is 403 FORBIDDEN with a problem body', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'not-admin' });
    const { key } = await gw.server.store.accounts.createKey(account.clientId);
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/feed`, { headers: { authorization: `Bearer ${key}` } });
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: text }));
      });
      ws.on('open', () => reject(new Error('upgraded')));
      ws.on('error', () => undefined);
    });
    expect([answer.status, answer.type]).toEqual([403, 'application/problem+json']);
    expect(JSON.parse(answer.body)).toMatchObject({ title: 'FORBIDDEN', status: 403, detail: 'The job feed is for admin keys.' });
  });
});

describe('security gap: one address classifier on every path', () => {
  let closed: TestGateway;
  beforeAll(async () => {
    closed = await startGateway({ allowPrivate: false });
  });
  afterAll(async () => closed?.close());

  test('10.0.0.1 behind a local NAT64, 6to4 and Teredo are TARGET_FORBIDDEN on the plain and browser paths', async () => {
    for (const host of ['[64:ff9b:1::a00:1]', '[2002:a00:1::1]', '[2001:0:4136:e378:8000:63bf:f5ff:fffe]', '[::ffff:0:a00:1]']) {
      for (const runJs of [false, true]) {
        const answer = await postJson(closed, '/v1/scrape', { url: `http://${host}/`, run_js: runJs });
        expect([host, runJs, answer.status, answer.body.title]).toEqual([host, runJs, 400, 'TARGET_FORBIDDEN']);
      }
    }
  });
});
