import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDeliveryAgents,
  decideRetry,
  fastRetryPolicy,
  isForbiddenAddress,
  postWebhook,
  signBody,
  verifySignature,
  webhookBody,
  webhookPayload,
  type AttemptResult,
} from '../../farm/delivery/index.js';
import { retryAfterMs as parseRetryAfter } from '../../core/retry.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

// The receiver-side procedure exactly as documented in farm/delivery/README.md.
function verifyGleaner(header: string, rawBody: Buffer, secret: string, nowSec = Math.floor(Date.now() / 1000)): boolean {
  const fields = header.split(',').map((kv) => kv.trim().split('='));
  const t = Number(fields.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSec - t) > 300) return false;
  const mac = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return fields.some(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '') && timingSafeEqual(Buffer.from(v!, 'hex'), mac));
}

const SECRET = 'whsec_test_secret';
const BODY = webhookBody({ jobId: '1747000000000000001', status: 'done', finishedAt: 1_747_000_012_345, apiBaseUrl: 'https://gleaner.test' });
const opts = { event: 'job.done' as const, deliveryId: 'dlv-1', allowPrivate: true, timeoutMs: 5_000 };

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterEach(() => {
  rx.requests.length = 0;
});
afterAll(async () => {
  await rx.close();
  await closeDeliveryAgents();
});

describe('signBody', () => {
  it('produces t=<unix>,v1=<hex hmac-sha256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex');
    expect(signBody('{"a":1}', 'k', 1_700_000_000)).toEqual(`t=1700000000,v1=${expected}`);
    expect(signBody(Buffer.from('{"a":1}'), 'k', 1_700_000_000)).toEqual(`t=1700000000,v1=${expected}`);
  });

  it('refuses a millisecond timestamp', () => {
    expect(() => signBody('x', 'k', Date.now())).toThrow(RangeError);
  });

  it('verifySignature accepts fresh, refuses stale, tampered and wrong-secret', () => {
    const header = signBody('body', 'k', 1_000_000);
    expect(verifySignature(header, 'body', 'k', { now: 1_000_100 })).toEqual(true);
    expect(verifySignature(header, 'body', 'k', { now: 1_000_301 })).toEqual(false);
    expect(verifySignature(header, 'bodY', 'k', { now: 1_000_000 })).toEqual(false);
    expect(verifySignature(header, 'body', 'K', { now: 1_000_000 })).toEqual(false);
  });
});

describe('webhook payload', () => {
  it('is the documented body', () => {
    expect(JSON.parse(BODY)).toEqual({
      event: 'job.done',
      job_id: '1747000000000000001',
      status: 'done',
      finished_at: 1_747_000_012,
      results_url: 'https://gleaner.test/v1/async/scrape/1747000000000000001',
    });
    expect(
      webhookPayload({
        jobId: '1747000000000000002',
        status: 'faulted',
        finishedAt: 1_747_000_000_000,
        apiBaseUrl: 'https://gleaner.test/',
        storage: { type: 's3', url: 's3://b/p' },
        error: { code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'Every attempt to fetch the target failed.' },
      }),
    ).toEqual({
      event: 'job.faulted',
      job_id: '1747000000000000002',
      status: 'faulted',
      finished_at: 1_747_000_000,
      results_url: 'https://gleaner.test/v1/async/scrape/1747000000000000002',
      storage: { type: 's3', url: 's3://b/p' },
      error: { code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'Every attempt to fetch the target failed.' },
    });
  });
});

describe('postWebhook against a real receiver', () => {
  it('POSTs the exact body with event, delivery and a verifiable signature', async () => {
    const now = Math.floor(Date.now() / 1000);
    const result = await postWebhook(rx.url, BODY, SECRET, { ...opts, timestamp: now });
    expect(result).toEqual({ ok: true, status: 200 });
    expect(rx.requests.length).toEqual(1);
    const got = rx.requests[0]!;
    expect(got.method).toEqual('POST');
    expect(got.path).toEqual('/hook');
    expect(got.body.toString('utf8')).toEqual(BODY);
    expect(got.headers['content-type']).toEqual('application/json');
    expect(got.headers['gleaner-event']).toEqual('job.done');
    expect(got.headers['gleaner-delivery']).toEqual('dlv-1');
    expect(got.headers['gleaner-signature']).toEqual(signBody(BODY, SECRET, now));
    const header = String(got.headers['gleaner-signature']);
    expect(verifyGleaner(header, got.body, SECRET)).toEqual(true);
    expect(verifyGleaner(header, got.body, 'another secret')).toEqual(false);
    expect(verifyGleaner(header, Buffer.concat([got.body, Buffer.from(' ')]), SECRET)).toEqual(false);
    expect(verifyGleaner(header, got.body, SECRET, now + 301)).toEqual(false);
  });

  it('sends URL userinfo as Basic authorization, not in the request line', async () => {
    const url = rx.url.replace('http://', 'http://user%40x:p%3Ass@');
    expect(await postWebhook(url, BODY, SECRET, opts)).toEqual({ ok: true, status: 200 });
    expect(rx.requests[0]!.headers.authorization).toEqual(`Basic ${Buffer.from('user@x:p:ss').toString('base64')}`);
    expect(rx.requests[0]!.path).toEqual('/hook');
  });

  it('500 → retry', async () => {
    rx.failFirst(1, 500);
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({ ok: false, retry: true, status: 500, error: 'webhook receiver answered HTTP 500' });
  });

  it('404 → final', async () => {
    rx.failFirst(1, 404);
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({ ok: false, retry: false, status: 404, error: 'webhook receiver answered HTTP 404' });
  });

  it('408 → retry; 429 with Retry-After → retry after that long', async () => {
    rx.failFirst(1, 408);
    rx.failFirst(1, 429, { 'retry-after': '7' });
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({ ok: false, retry: true, status: 408, error: 'webhook receiver answered HTTP 408' });
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({
      ok: false,
      retry: true,
      status: 429,
      error: 'webhook receiver answered HTTP 429',
      retryAfterMs: 7000,
    });
  });

  it('Retry-After as an HTTP date, and unreadable values', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toEqual(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toEqual(0);
    expect(parseRetryAfter('soon', now)).toEqual(undefined);
    expect(parseRetryAfter(undefined, now)).toEqual(undefined);
  });

  it('a receiver that never answers → timeout, retry', async () => {
    rx.hangNext();
    expect(await postWebhook(rx.url, BODY, SECRET, { ...opts, timeoutMs: 300 })).toEqual({ ok: false, retry: true, error: 'timed out after 300 ms' });
    expect(rx.requests.length).toEqual(1);
  });

  it('an external abort → retry', async () => {
    rx.hangNext();
    const ac = new AbortController();
    const pending = postWebhook(rx.url, BODY, SECRET, { ...opts, signal: ac.signal });
    await rx.waitForRequests(1);
    ac.abort();
    expect(await pending).toEqual({ ok: false, retry: true, error: 'aborted before completion' });
  });

  it('does not follow a redirect', async () => {
    rx.reply({ status: 302, headers: { location: `${rx.origin}/elsewhere` } });
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({
      ok: false,
      retry: false,
      status: 302,
      error: `webhook receiver answered HTTP 302: redirect to ${rx.origin}/elsewhere not followed`,
    });
    expect(rx.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('reads a large answer only up to the cap and still reports the status', async () => {
    rx.reply({ status: 200, body: 'x'.repeat(1_000_000) });
    expect(await postWebhook(rx.url, BODY, SECRET, opts)).toEqual({ ok: true, status: 200 });
  });

  it('connection refused → retry', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    expect(await postWebhook(`http://127.0.0.1:${port}/hook`, BODY, SECRET, opts)).toEqual({
      ok: false,
      retry: true,
      error: `network error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('malformed and non-http URLs are final', async () => {
    expect(await postWebhook('not a url', BODY, SECRET, opts)).toEqual({ ok: false, retry: false, error: 'callback_url is not a valid URL' });
    expect(await postWebhook('ftp://127.0.0.1/x', BODY, SECRET, opts)).toEqual({
      ok: false,
      retry: false,
      error: 'unsupported scheme ftp: (http and https only)',
    });
  });

  it('is retried until the receiver answers 2xx, with one delivery id throughout', async () => {
    rx.failFirst(2, 503);
    const policy = fastRetryPolicy({ jitter: 'none' });
    const outcomes: AttemptResult[] = [];
    for (let attempt = 1; ; attempt++) {
      const r = await postWebhook(rx.url, BODY, SECRET, { ...opts, deliveryId: 'dlv-retry' });
      outcomes.push(r);
      const next = decideRetry(attempt, r, policy);
      if (!next.retry) break;
      // The outbox waits next.delayMs here; the receiver's answers do not depend on time.
      expect(next.delayMs).toBeGreaterThanOrEqual(0);
    }
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.status))).toEqual([503, 503, 'ok']);
    expect(rx.requests.map((r) => r.headers['gleaner-delivery'])).toEqual(['dlv-retry', 'dlv-retry', 'dlv-retry']);
    expect(rx.requests.map((r) => verifyGleaner(String(r.headers['gleaner-signature']), r.body, SECRET))).toEqual([true, true, true]);
  });
});

describe('private-address refusal (allowPrivate: false)', () => {
  const closed = { ...opts, allowPrivate: false };

  it('refuses IP-literal loopback without connecting', async () => {
    expect(await postWebhook(rx.url, BODY, SECRET, closed)).toEqual({
      ok: false,
      retry: false,
      error: 'refused: The target 127.0.0.1 is not allowed: it is a private or reserved address.',
    });
    expect(await postWebhook(`http://[::ffff:127.0.0.1]:${rx.port}/hook`, BODY, SECRET, closed)).toEqual({
      ok: false,
      retry: false,
      error: 'refused: The target [::ffff:7f00:1] is not allowed: it is a private or reserved address.',
    });
    expect(rx.requests.length).toEqual(0);
  });

  it('refuses a name that resolves to loopback, after DNS resolution', async () => {
    // The line reaches the job's owner: the address the name resolved to is not in it (issue 24.3).
    expect(await postWebhook(`http://localhost:${rx.port}/hook`, BODY, SECRET, closed)).toEqual({
      ok: false,
      retry: false,
      error: 'refused: The target localhost is not allowed: it resolves to a private or reserved address.',
    });
    expect(rx.requests.length).toEqual(0);
  });

  it('classifies addresses', () => {
    const table = [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '172.32.0.1', '192.168.1.1', '169.254.169.254',
      '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '8.8.8.8', '93.184.216.34',
      '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', 'ff02::1', '::ffff:10.0.0.1', '::ffff:8.8.8.8',
      '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1', '2606:4700:4700::1111', 'fe80::1%eth0', 'not-an-ip',
    ];
    expect(Object.fromEntries(table.map((a) => [a, isForbiddenAddress(a)]))).toEqual({
      '127.0.0.1': true, '10.1.2.3': true, '172.16.0.1': true, '172.31.255.255': true, '172.32.0.1': false,
      '192.168.1.1': true, '169.254.169.254': true, '100.64.0.1': true, '100.100.100.200': true, '0.0.0.0': true,
      '224.0.0.1': true, '255.255.255.255': true, '8.8.8.8': false, '93.184.216.34': false,
      '::1': true, '::': true, 'fe80::1': true, 'fd00:ec2::254': true, 'fc00::1': true, 'ff02::1': true,
      '::ffff:10.0.0.1': true, '::ffff:8.8.8.8': false, '64:ff9b::a00:1': true, '2002:7f00:1::': true,
      '2001:db8::1': true, '2606:4700:4700::1111': false, 'fe80::1%eth0': true, 'not-an-ip': true,
    });
  });
});
