/**
 * The browser's SSRF guard: a forward proxy on 127.0.0.1 inside the worker thread, used as the
 * `proxy` of every browser context when private addresses are refused. Chromium sends it every
 * request of the page (navigation, redirects, subresources, fetch/XHR, WebSocket) — Playwright
 * adds `<-loopback>` to the bypass list, so loopback goes through it too — and the guard
 * resolves each host itself, refuses forbidden addresses, and connects to the address it
 * checked (or chains to the context's upstream proxy, adding its credentials).
 *
 * Trade-off (documented in farm/README.md): all browser traffic of such contexts crosses this
 * worker's event loop, which costs some throughput; interception with CDP `Fetch` or
 * `page.route` would cost more (a round trip to Node per request) and `--host-resolver-rules`
 * cannot express "refuse private". With `allowPrivate` (tests, demos) the guard is not used.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { proxyAuthorization, type ProxyEntry } from './proxies.js';
import { resolveChecked, type NetPolicy } from './ssrf.js';

export const REFUSED_HEADER = 'x-gleaner-refused';

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'proxy-authorization',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export class GuardProxy {
  /** Hosts refused recently, so a failed navigation can be reported as TARGET_FORBIDDEN. */
  private readonly refused = new Map<string, number>();
  private readonly sockets = new Set<Socket | Duplex>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(policy: NetPolicy, upstream: ProxyEntry | null): Promise<GuardProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const guard = new GuardProxy(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => void guard.forward(req, res, policy, upstream));
    server.on('connect', (req, socket, head) => void guard.tunnel(req, socket, head, policy, upstream));
    server.on('connection', (s: Socket) => {
      guard.sockets.add(s);
      s.once('close', () => guard.sockets.delete(s));
    });
    return guard;
  }

  wasRefused(host: string): boolean {
    const at = this.refused.get(host.toLowerCase());
    return at !== undefined && Date.now() - at < 60_000;
  }

  private refuse(host: string): void {
    if (this.refused.size > 1000) this.refused.clear();
    this.refused.set(host.toLowerCase(), Date.now());
  }

  /** Absolute-form HTTP request (`GET http://host/path`). */
  private async forward(req: IncomingMessage, res: ServerResponse, policy: NetPolicy, upstream: ProxyEntry | null): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('scheme');
    } catch {
      res.writeHead(400).end();
      return;
    }
    let address: string;
    try {
      address = (await resolveChecked(target.hostname, policy)).address;
    } catch {
      this.refuse(target.hostname);
      res.writeHead(403, { [REFUSED_HEADER]: '1', 'content-type': 'text/plain' }).end('refused by the SSRF guard');
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers.host = target.host;
    const auth = upstream && proxyAuthorization(upstream);
    if (auth) headers['proxy-authorization'] = auth;
    const out = httpRequest({
      host: upstream ? upstream.host : address,
      port: upstream ? upstream.port : Number(target.port || 80),
      path: upstream ? target.href : target.pathname + target.search,
      method: req.method,
      headers,
    });
    out.on('response', (up) => {
      const resHeaders: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) resHeaders[k] = v;
      res.writeHead(up.statusCode ?? 502, resHeaders);
      up.pipe(res);
    });
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(out);
  }

  /** `CONNECT host:port` (https and WebSocket over TLS). */
  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer, policy: NetPolicy, upstream: ProxyEntry | null): Promise<void> {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const authority = req.url ?? '';
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, port] = m;
    let address: string;
    try {
      address = (await resolveChecked(host, policy)).address;
    } catch {
      this.refuse(host.replace(/^\[|\]$/g, ''));
      client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
      return;
    }
    const up = upstream ? netConnect(upstream.port, upstream.host) : netConnect(Number(port), address);
    this.sockets.add(up);
    up.once('close', () => this.sockets.delete(up));
    const fail = () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      up.destroy();
    };
    up.once('error', fail);
    up.once('connect', () => {
      if (!upstream) {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        splice(client, up, head);
        return;
      }
      const auth = proxyAuthorization(upstream);
      up.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
      let buffered = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buffered.length > 16_384) fail();
          return;
        }
        up.off('data', onData);
        const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString('latin1');
        if (!/^HTTP\/1\.[01] 2\d\d/.test(statusLine)) {
          fail();
          return;
        }
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = buffered.subarray(end + 4);
        if (rest.length > 0) client.write(rest);
        splice(client, up, head);
      };
      up.on('data', onData);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function splice(client: Duplex, up: Socket, head: Buffer): void {
  if (head.length > 0) up.write(head);
  client.pipe(up);
  up.pipe(client);
  up.on('error', () => client.destroy());
  client.on('error', () => up.destroy());
  up.on('close', () => client.destroy());
  client.on('close', () => up.destroy());
}
