/**
 * The recording HTTPS server: what a fingerprinting site sees of a client. Each TCP
 * connection is read raw until its ClientHello is complete (JA3/JA4, hello.ts), then the TLS
 * handshake runs over the same bytes (ALPN h2 or http/1.1); the decrypted client bytes of an
 * h2 connection are read for SETTINGS / WINDOW_UPDATE / PRIORITY (h2-frames.ts) on their way
 * to Node's own HTTP/2 server, which decodes the requests (header names in order, pseudo-
 * headers first). Every request is recorded with its connection's prints.
 *
 * Paths (`tag` names the client in a test): `/r/<tag>` answers a small HTML page; `?enc=br|
 * gzip|zstd` compresses it (zstd with the `zstd` command: Node 20 has none), `?set=a=b` adds a
 * Set-Cookie, `?to=<url>` answers 302 to it, `?big=<bytes>` pads the page.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createH1, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createH2, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createNet, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { TLSSocket, createSecureContext } from 'node:tls';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { makeTestCa, type TestCa } from './ca.js';
import { H2Reader, akamai, type H2Print } from './h2-frames.js';
import { fingerprint, parseClientHello, type ClientHello, type HelloPrint } from './hello.js';

export interface RecordedTls extends HelloPrint {
  hello: ClientHello;
  /** The protocol the handshake settled on (`h2`, `http/1.1`, or null without ALPN). */
  alpn: string | null;
}

export interface RecordedRequest {
  tag: string;
  method: string;
  path: string;
  protocol: 'h2' | 'http/1.1';
  /** Regular headers in the order sent (h2: lower-case as on the wire; h1: as sent). */
  headers: Array<[string, string]>;
  /** h2 pseudo-header names in the order sent (empty on HTTP/1.1). */
  pseudo: string[];
  tls: RecordedTls;
  h2: H2Print | undefined;
  /** Akamai's h2 string (`SETTINGS|WINDOW_UPDATE|PRIORITY|m,a,s,p`), h2 only. */
  akamai: string | undefined;
  body: string;
}

export interface Recorder {
  /** `https://localhost:<port>` */
  origin: string;
  port: number;
  ca: TestCa;
  requests: RecordedRequest[];
  /** The first request recorded for `tag` (waits up to `timeoutMs`, then fails with the tags seen). */
  waitFor(tag: string, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export interface RecorderOptions {
  /** Offer h2 in ALPN (default true); false makes an HTTP/1.1-only server. */
  h2?: boolean;
  /** Certificates to present (default: a fresh test CA). */
  ca?: TestCa;
}

interface Conn {
  tls: RecordedTls;
  h2: H2Reader | undefined;
}

const CONN = Symbol('recorder-conn');

export async function startRecorder(opts: RecorderOptions = {}): Promise<Recorder> {
  const ca = opts.ca ?? makeTestCa();
  const offer = opts.h2 === false ? ['http/1.1'] : ['h2', 'http/1.1'];
  const context = createSecureContext({ key: ca.key, cert: ca.cert });
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const record = (conn: Conn, req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = req.rawHeaders;
      const all: Array<[string, string]> = [];
      for (let i = 0; i + 1 < raw.length; i += 2) all.push([raw[i], raw[i + 1]]);
      const pseudo = all.filter(([n]) => n.startsWith(':')).map(([n]) => n);
      const url = new URL(req.url ?? '/', 'https://localhost');
      const tag = /^\/r\/([^/?]+)/.exec(url.pathname)?.[1] ?? url.pathname;
      const h2 = conn.h2?.print;
      requests.push({
        tag,
        method: req.method ?? '',
        path: req.url ?? '',
        protocol: req.httpVersion === '2.0' ? 'h2' : 'http/1.1',
        headers: all.filter(([n]) => !n.startsWith(':')),
        pseudo,
        tls: conn.tls,
        h2,
        akamai: h2 && pseudo.length ? akamai(h2, pseudo) : undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const wake of waiters) wake();
      answer(url, res, Buffer.concat(chunks).toString('utf8'));
    });
  };

  const h1 = createH1((req, res) => record((req.socket as unknown as { [CONN]: Conn })[CONN], req, res));
  // Node wraps a non-socket stream for its HTTP/2 session, so the session (made synchronously
  // by emit('connection')) is what carries the connection's record.
  const sessions = new WeakMap<object, Conn>();
  let arriving: Conn | undefined;
  const h2 = createH2({}, (req, res) => record(sessions.get(req.stream.session as object)!, req, res));
  h2.on('session', (session) => sessions.set(session, arriving!));
  h2.on('sessionError', () => undefined);

  const server = createNet((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      let hello: ClientHello | undefined;
      try {
        hello = parseClientHello(buf);
      } catch {
        socket.destroy();
        return;
      }
      if (!hello) return;
      socket.off('data', onData);
      socket.pause();
      const tls = new TLSSocket(new Relay(socket, buf), { isServer: true, secureContext: context, ALPNProtocols: offer });
      tls.on('error', () => socket.destroy());
      tls.once('secure', () => {
        const alpn = tls.alpnProtocol || null;
        const conn: Conn = { tls: { ...fingerprint(hello!), hello: hello!, alpn }, h2: alpn === 'h2' ? new H2Reader() : undefined };
        const reader = conn.h2;
        const plain = new Relay(tls, Buffer.alloc(0), reader ? (c) => { try { reader.push(c); } catch { /* not h2 after all */ } } : undefined);
        (plain as unknown as { [CONN]: Conn })[CONN] = conn;
        arriving = conn;
        (alpn === 'h2' ? h2 : h1).emit('connection', plain);
        arriving = undefined;
      });
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    origin: `https://localhost:${port}`,
    port,
    ca,
    requests,
    waitFor(tag, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = requests.find((r) => r.tag === tag);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no request tagged ${tag} within ${timeoutMs} ms (seen: ${requests.map((r) => r.tag).join(', ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      h2.close();
      h1.close();
      if (!opts.ca) ca.remove();
    },
  };
}

function answer(url: URL, res: ServerResponse | Http2ServerResponse, body: string): void {
  const to = url.searchParams.get('to');
  const set = url.searchParams.get('set');
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
  if (set) headers['set-cookie'] = `${set}; Path=/; Secure`;
  if (to) {
    (res as ServerResponse).writeHead(302, { ...headers, location: to, 'content-length': '0' });
    res.end();
    return;
  }
  const pad = 'x'.repeat(Math.min(Number(url.searchParams.get('big') ?? 0) || 0, 64 * 1024 * 1024));
  let payload = Buffer.from(`<!doctype html><html><head><title>Recorded</title></head><body><h1>Recorded ${url.pathname}</h1><p>${body ? `body: ${body}` : 'ok'}</p><p>${pad}</p></body></html>`);
  const enc = url.searchParams.get('enc');
  if (enc === 'br') payload = brotliCompressSync(payload);
  else if (enc === 'gzip') payload = gzipSync(payload);
  else if (enc === 'zstd') payload = execFileSync('zstd', ['-q', '-c'], { input: payload });
  if (enc) headers['content-encoding'] = enc;
  headers['content-length'] = String(payload.length);
  (res as ServerResponse).writeHead(200, headers);
  res.end(payload);
}

/**
 * A duplex over another stream that first yields `initial` (bytes already read from it) and
 * reports every chunk it reads to `tap`: how the ClientHello is put back before the TLS
 * handshake, and how the decrypted h2 bytes are read on their way to the HTTP/2 server.
 */
class Relay extends Duplex {
  constructor(
    private readonly source: Duplex,
    initial: Buffer,
    private readonly tap?: (chunk: Buffer) => void,
  ) {
    super();
    if (initial.length) this.push(initial);
    source.on('data', (chunk: Buffer) => {
      this.tap?.(chunk);
      if (!this.push(chunk)) source.pause();
    });
    source.on('end', () => this.push(null));
    source.on('close', () => this.destroy());
    source.on('error', (err) => this.destroy(err));
  }
  override _read(): void {
    this.source.resume();
  }
  // Writes and the shutdown complete at once: Node's wrapper of a non-socket stream (under TLS
  // and HTTP/2 here) asserts that no write is pending when the peer vanishes mid-shutdown.
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (!this.source.destroyed) this.source.write(chunk);
    cb();
  }
  override _final(cb: (err?: Error | null) => void): void {
    this.source.end();
    cb();
  }
  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.source.destroy();
    cb(err);
  }
}
