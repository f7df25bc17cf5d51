/**
 * A real HTTP forward proxy for tests: CONNECT tunnels and absolute-form requests, optional
 * Basic auth (`Proxy-Authorization`, else 407 with a challenge), on 127.0.0.1 port 0. It
 * records every request it served and every one it turned away.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface TestProxy {
  /** `http://[user:pass@]127.0.0.1:port`, ready for `config.proxies`. */
  url: string;
  port: number;
  /** Targets served: `GET http://host/path` or `CONNECT host:port`. */
  served: string[];
  /** Requests refused for missing or wrong credentials. */
  rejected: number;
  close(): Promise<void>;
}

export async function startProxy(auth?: { username: string; password: string }): Promise<TestProxy> {
  const expected = auth ? `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` : undefined;
  const sockets = new Set<Socket>();
  const state = { served: [] as string[], rejected: 0 };
  const authorized = (req: IncomingMessage) => !expected || req.headers['proxy-authorization'] === expected;
  const server = createServer((req, res) => {
    if (!authorized(req)) {
      state.rejected++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': 0 }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    state.served.push(`${req.method} ${target.href}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = httpRequest(
      { host: target.hostname, port: Number(target.port || 80), path: target.pathname + target.search, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(out);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client: Socket, head) => {
    client.on('error', () => client.destroy());
    if (!authorized(req)) {
      state.rejected++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = splitAuthority(req.url ?? '');
    state.served.push(`CONNECT ${req.url}`);
    const up = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.once('close', () => sockets.delete(up));
    up.on('error', () => client.destroy());
    client.on('close', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const creds = auth ? `${encodeURIComponent(auth.username)}:${encodeURIComponent(auth.password)}@` : '';
  return {
    url: `http://${creds}127.0.0.1:${port}`,
    port,
    get served() {
      return state.served;
    },
    get rejected() {
      return state.rejected;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitAuthority(authority: string): [string, number] {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
  return m ? [m[1], Number(m[2])] : [authority, 443];
}
