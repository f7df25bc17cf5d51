/**
 * The browser's SSRF guard proxy (farm/net/guard-proxy.ts) against real servers on port 0:
 * issue 16's three defects — an https:// upstream proxy got plaintext, plain WebSocket upgrades
 * lost their Upgrade header, upstream connections had no timeouts — and its refusals.
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GuardProxy, REFUSED_HEADER } from '../../farm/net/guard-proxy.js';
import { parseProxy } from '../../farm/net/proxies.js';
import { rawRequest } from '../helpers/raw-http.js';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../helpers/tls-fixture.js';

/** `target.test` is a trusted name for 127.0.0.1; every other private address is refused. */
const policy = { allowPrivate: false, hosts: { 'target.test': '127.0.0.1' } };
const cleanup: Array<() => Promise<void> | void> = [];

function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

let targetPort: number;
let wsPort: number;

beforeAll(async () => {
  const target = createHttpServer((req, res) => res.end(`target ${req.method} ${req.url}`));
  targetPort = await listen(target);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wsPort = (wss.address() as { port: number }).port;
  wss.on('connection', (ws) => ws.send('hello over ws'));
  cleanup.push(() => void target.close(), () => void wss.close());
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

/** An https:// forward proxy: answers absolute-form requests itself, tunnels CONNECT to 127.0.0.1. */
async function startTlsProxy(): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createHttpsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url} auth=${req.headers['proxy-authorization'] ?? ''}`);
    res.end(`via tls proxy ${req.url}`);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url} auth=${req.headers['proxy-authorization'] ?? ''}`);
    const port = Number(String(req.url).split(':').pop());
    const up = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      client.pipe(up).pipe(client);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  const port = await listen(server);
  cleanup.push(() => void server.close());
  return { port, seen };
}

async function startGuard(upstream: string | null, opts: Parameters<typeof GuardProxy.start>[2] = {}): Promise<GuardProxy> {
  const guard = await GuardProxy.start(policy, upstream ? parseProxy(upstream) : null, opts);
  cleanup.push(() => guard.close());
  return guard;
}

const portOf = (guard: GuardProxy) => Number(new URL(guard.url).port);

describe('guard proxy', () => {
  test('direct: forwards an allowed host, refuses a private one with the refusal header', async () => {
    const guard = await startGuard(null);
    const ok = await rawRequest(portOf(guard), `GET http://target.test:${targetPort}/page HTTP/1.1\r\nHost: target.test\r\nConnection: close\r\n\r\n`);
    expect(ok.statuses).toEqual([200]);
    expect(ok.text).toContain('target GET /page');
    const refused = await rawRequest(portOf(guard), `GET http://127.0.0.1:${targetPort}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(refused.statuses).toEqual([403]);
    expect(refused.text.toLowerCase()).toContain(`${REFUSED_HEADER}: 1`);
    expect(guard.wasRefused('127.0.0.1')).toBe(true);
  });

  test('an https:// upstream proxy is spoken to over TLS, for requests and tunnels, with its credentials', async () => {
    const tlsProxy = await startTlsProxy();
    const guard = await startGuard(`https://user:secret@127.0.0.1:${tlsProxy.port}`, { upstreamCa: TEST_TLS_CERT });
    const forwarded = await rawRequest(portOf(guard), `GET http://target.test:${targetPort}/a HTTP/1.1\r\nHost: target.test\r\nConnection: close\r\n\r\n`);
    expect(forwarded.statuses).toEqual([200]);
    expect(forwarded.text).toContain(`via tls proxy http://target.test:${targetPort}/a`);
    const tunnelled = await rawRequest(
      portOf(guard),
      `CONNECT target.test:${targetPort} HTTP/1.1\r\nHost: target.test:${targetPort}\r\n\r\nGET /b HTTP/1.1\r\nHost: target.test\r\nConnection: close\r\n\r\n`,
    );
    expect(tunnelled.statuses).toEqual([200, 200]);
    expect(tunnelled.text).toContain('target GET /b');
    const auth = `Basic ${Buffer.from('user:secret').toString('base64')}`;
    expect(tlsProxy.seen).toEqual([`GET http://target.test:${targetPort}/a auth=${auth}`, `CONNECT target.test:${targetPort} auth=${auth}`]);
  });

  test('a plain ws:// upgrade through the guard keeps its Upgrade header and switches protocols', async () => {
    const guard = await startGuard(null);
    const answer = await rawRequest(
      portOf(guard),
      `GET http://target.test:${wsPort}/ HTTP/1.1\r\nHost: target.test:${wsPort}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      800,
    );
    expect(answer.statuses).toEqual([101]);
    expect(answer.text).toContain('hello over ws');
    const refused = await rawRequest(
      portOf(guard),
      `GET http://127.0.0.1:${wsPort}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    expect(refused.statuses).toEqual([403]);
  });

  test('an upstream that never completes its handshake, or never answers, is dropped (connect and idle timeouts)', async () => {
    // Accepts TCP and says nothing: a TLS upstream never reaches secureConnect; a target never answers.
    const silent = createNetServer((s) => s.on('error', () => undefined));
    const silentPort = await listen(silent);
    cleanup.push(() => void silent.close());
    const viaTls = await startGuard(`https://127.0.0.1:${silentPort}`, { connectTimeoutMs: 300, idleTimeoutMs: 300 });
    const stuck = await rawRequest(portOf(viaTls), `CONNECT target.test:${targetPort} HTTP/1.1\r\nHost: target.test\r\n\r\n`, 5000);
    expect(stuck.statuses).toEqual([502]);
    const direct = await startGuard(null, { connectTimeoutMs: 300, idleTimeoutMs: 300 });
    const idle = await rawRequest(portOf(direct), `GET http://target.test:${silentPort}/ HTTP/1.1\r\nHost: target.test\r\nConnection: close\r\n\r\n`, 5000);
    expect(idle.statuses).toEqual([502]);
  });
});
