/**
 * A real webhook receiver for tests: node:http on 127.0.0.1, port 0. It records every request
 * (method, path, headers, raw body bytes) and answers from a script: queued replies first
 * (a status, or 'hang' to never answer), then 200 `{"ok":true}`.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `origin + '/hook'` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Queues replies for the next requests, in order. */
  reply(...replies: Reply[]): void;
  /** The next `n` requests get `status` (with `headers`). */
  failFirst(n: number, status: number, headers?: Record<string, string>): void;
  /** The next `n` requests are read and never answered. */
  hangNext(n?: number): void;
  /** Drops the queued replies: every next request gets 200 (a receiver that came back). */
  clear(): void;
  /** Resolves once at least `n` requests have arrived. */
  waitForRequests(n: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const script: Reply[] = [];
  const hung: ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: (r: ReceivedRequest[]) => void }> = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.n) w.resolve(requests.slice());
        else waiters.push(w);
      }
      const next = script.shift() ?? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
      if (next === 'hang') {
        hung.push(res);
        return;
      }
      res.writeHead(next.status, next.headers ?? {});
      res.end(next.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: `${origin}/hook`,
    port,
    requests,
    reply: (...replies) => void script.push(...replies),
    failFirst: (n, status, headers) => {
      for (let i = 0; i < n; i++) script.push({ status, headers: headers ?? {}, body: 'fail' });
    },
    hangNext: (n = 1) => {
      for (let i = 0; i < n; i++) script.push('hang');
    },
    clear: () => void script.splice(0),
    waitForRequests: (n) =>
      requests.length >= n ? Promise.resolve(requests.slice()) : new Promise((resolve) => waiters.push({ n, resolve })),
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
