/**
 * The browser's SSRF guard: a forward proxy on 127.0.0.1 inside the worker thread, used as the
 * `proxy` of every browser context when private addresses are refused. Chromium sends it every
 * request of the page (navigation, redirects, subresources, fetch/XHR, WebSocket) — Playwright
 * adds `<-loopback>` to the bypass list, so loopback goes through it too — and the guard
 * resolves each host itself, refuses forbidden addresses, and connects to the address it
 * checked (or chains to the context's upstream proxy, adding its credentials; over TLS when the
 * upstream is an `https://` proxy). Upstream connections have a connect and an idle timeout.
 * Plain `ws://` through the proxy arrives as an upgrade request and is relayed with its
 * `Upgrade` header (Chromium itself tunnels WebSockets with CONNECT).
 *
 * proxy-chain was tried in its place (issue 16) and not kept: it strips `Upgrade` as
 * hop-by-hop and has no upgrade handler either, and sets no timeouts on upstream connections;
 * it fixes only the https upstream, at the price of nine packages (farm/README.md).
 *
 * Trade-off (documented in farm/README.md): all browser traffic of such contexts crosses this
 * worker's event loop, which costs some throughput; interception with CDP `Fetch` or
 * `page.route` would cost more (a round trip to Node per request) and `--host-resolver-rules`
 * cannot express "refuse private". With `allowPrivate` (tests, demos) the guard is not used.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContextOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import { proxyAuthorization, type ProxyEntry } from './proxies.js';
import { HOP_BY_HOP, httpTarget, splice } from './proxy-wire.js';
import { resolveChecked, type NetPolicy } from './ssrf.js';

export const REFUSED_HEADER = 'x-gleaner-refused';

/** An upstream (target or proxy) that has not accepted the TCP/TLS connection by then is dropped. */
export const CONNECT_TIMEOUT_MS = 15_000;
/** An upstream connection idle this long (nothing either way) is dropped. */
export const IDLE_TIMEOUT_MS = 120_000;

export interface GuardOptions {
  /** Extra trust for an `https://` upstream proxy's certificate (tests; operators use public CAs). */
  upstreamCa?: SecureContextOptions['ca'];
  /** Overrides of CONNECT_TIMEOUT_MS and IDLE_TIMEOUT_MS (tests). */
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** Where a connection goes: the checked address of the target, or the upstream proxy. */
interface Hop {
  host: string;
  port: number;
  /** TLS to the hop itself (an `https://` upstream proxy), with this SNI name. */
  tls: string | undefined;
}

export class GuardProxy {
  /** Hosts refused recently, so a failed navigation can be reported as TARGET_FORBIDDEN. */
  private readonly refused = new Map<string, number>();
  private readonly sockets = new Set<Socket | Duplex>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly policy: NetPolicy,
    private readonly upstream: ProxyEntry | null,
    private readonly opts: GuardOptions,
  ) {}

  static async start(policy: NetPolicy, upstream: ProxyEntry | null, opts: GuardOptions = {}): Promise<GuardProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const guard = new GuardProxy(server, `http://127.0.0.1:${port}`, policy, upstream, opts);
    server.on('request', (req, res) => void guard.forward(req, res));
    server.on('connect', (req, socket, head) => void guard.tunnel(req, socket, head));
    // Node hands requests with `Upgrade` (a plain ws:// through the proxy) here, not to 'request'.
    server.on('upgrade', (req, socket, head) => void guard.upgrade(req, socket, head));
    server.on('connection', (s: Socket) => guard.track(s));
    return guard;
  }

  wasRefused(host: string): boolean {
    const at = this.refused.get(host.toLowerCase());
    return at !== undefined && Date.now() - at < 60_000;
  }

  private track(s: Socket | Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  /** The checked address of `host`, or undefined (and remembered) when it is refused. */
  private async check(host: string): Promise<string | undefined> {
    try {
      return (await resolveChecked(host, this.policy)).address;
    } catch {
      if (this.refused.size > 1000) this.refused.clear();
      this.refused.set(host.replace(/^\[|\]$/g, '').toLowerCase(), Date.now());
      return undefined;
    }
  }

  private hop(address: string, port: number): Hop {
    const up = this.upstream;
    if (!up) return { host: address, port, tls: undefined };
    return { host: up.host, port: up.port, tls: up.server.startsWith('https:') ? up.host : undefined };
  }

  /** A socket to the hop (TLS for an https:// upstream), with connect and idle timeouts. */
  private open(hop: Hop): Socket {
    const socket = hop.tls
      ? tlsConnect({ host: hop.host, port: hop.port, servername: hop.tls, ALPNProtocols: ['http/1.1'], ca: this.opts.upstreamCa })
      : netConnect(hop.port, hop.host);
    this.track(socket);
    this.timeouts(socket, hop.tls ? 'secureConnect' : 'connect');
    return socket;
  }

  /** Absolute-form HTTP request (`GET http://host/path`). */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = httpTarget(req);
    if (!target) return void res.writeHead(400).end();
    const address = await this.check(target.hostname);
    if (address === undefined) {
      res.writeHead(403, { [REFUSED_HEADER]: '1', 'content-type': 'text/plain' }).end('refused by the SSRF guard');
      return;
    }
    const hop = this.hop(address, Number(target.port || 80));
    const headers = this.outgoingHeaders(req, target, false);
    const options = { host: hop.host, port: hop.port, path: this.upstream ? target.href : target.pathname + target.search, method: req.method, headers };
    // Node's keep-alive agents pool these connections; a pooled socket got its timeouts when new.
    const out = hop.tls ? httpsRequest({ ...options, servername: hop.tls, ca: this.opts.upstreamCa }) : httpRequest(options);
    out.on('socket', (socket) => {
      if (!socket.connecting) return;
      this.track(socket);
      this.timeouts(socket, hop.tls ? 'secureConnect' : 'connect');
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

  /** An absolute-form request with `Upgrade` (WebSocket over plain http): relayed with its upgrade headers, then spliced. */
  private async upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on('error', () => client.destroy());
    const target = httpTarget(req);
    if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const address = await this.check(target.hostname);
    if (address === undefined) return void client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
    const up = this.open(this.hop(address, Number(target.port || 80)));
    up.once('error', () => client.destroy());
    const path = this.upstream ? target.href : target.pathname + target.search;
    const lines = [`${req.method} ${path} HTTP/1.1`];
    for (const [name, value] of Object.entries(this.outgoingHeaders(req, target, true))) {
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
    }
    up.write(`${lines.join('\r\n')}\r\n\r\n`);
    splice(client, up, head);
  }

  /** `CONNECT host:port` (https and WebSocket through Chromium). */
  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on('error', () => client.destroy());
    const authority = req.url ?? '';
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
    if (!m) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [, host, port] = m;
    const address = await this.check(host);
    if (address === undefined) return void client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
    const upstream = this.upstream;
    const hop = this.hop(address, Number(port));
    const up = this.open(hop);
    const fail = () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      up.destroy();
    };
    up.once('error', fail);
    up.once(hop.tls ? 'secureConnect' : 'connect', () => {
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
        if (!/^HTTP\/1\.[01] 2\d\d/.test(statusLine)) return fail();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = buffered.subarray(end + 4);
        if (rest.length > 0) client.write(rest);
        splice(client, up, head);
      };
      up.on('data', onData);
    });
  }

  /**
   * The request's headers for the next hop: hop-by-hop fields dropped (RFC 9110 7.6.1), except
   * `Upgrade` and `Connection: Upgrade` on an upgrade, which are the request; the upstream
   * proxy's credentials added.
   */
  private outgoingHeaders(req: IncomingMessage, target: URL, upgrade: boolean): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers.host = target.host;
    if (upgrade && req.headers.upgrade) {
      headers.connection = 'Upgrade';
      headers.upgrade = req.headers.upgrade;
    }
    const auth = this.upstream && proxyAuthorization(this.upstream);
    if (auth) headers['proxy-authorization'] = auth;
    return headers;
  }

  /** Drops a socket that does not connect in time, or that idles too long once connected. */
  private timeouts(socket: Socket, connected: 'connect' | 'secureConnect'): void {
    const idle = this.opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    const notConnected = (): void => void socket.destroy(new Error('upstream connect timeout'));
    socket.setTimeout(this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, notConnected);
    socket.once(connected, () => {
      socket.off('timeout', notConnected);
      socket.setTimeout(idle, () => socket.destroy(new Error('upstream idle timeout')));
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
