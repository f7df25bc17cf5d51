/**
 * A local site on port 0 serving the pages a hostile caller would point the service at
 * (issue 24): deeply nested pages and pages of an exact size, under any path, chosen by the
 * query's `k` (so the mkt1 `url` route's `/s?k=...&page=N` works):
 *
 * - `k=deep<n>`: `<p>` + n nested `<div>`s around `x` (the issue's repro);
 * - `k=big<bytes>`: an HTML page of exactly that many bytes (a paragraph naming its page, then filler);
 * - anything else: `fallback` when the site was started with one (a `k` value: the commerce
 *   routes' own paths carry no `k`), else a 1 KB page with the heading `small`.
 *
 * Bodies are written in 64 KB chunks honouring back-pressure, so `bytesSent` counts what the
 * client actually took before it closed the connection. `hits` counts requests.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeavySite {
  url: string;
  hits: number;
  bytesSent: number;
  close(): Promise<void>;
}

export const deepPage = (n: number): string => '<p>' + '<div>'.repeat(n) + 'x' + '</div>'.repeat(n);

export function bigPage(bytes: number, page: number): string {
  const head = `<html><body><p id="page">page ${page}</p><p>`;
  const tail = '</p></body></html>';
  return head + 'a'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

export const SMALL_PAGE = `<html><head><title>small</title></head><body><h1>small</h1><p>${'lorem ipsum '.repeat(80)}</p></body></html>`;

export async function startHeavySite(opts: { fallback?: string } = {}): Promise<HeavySite> {
  const site: HeavySite = { url: '', hits: 0, bytesSent: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    site.hits++;
    const u = new URL(req.url ?? '/', 'http://x');
    const k = u.searchParams.get('k') ?? opts.fallback ?? '';
    const page = Number(u.searchParams.get('page') ?? 1);
    const deep = /^deep(\d+)$/.exec(k);
    const big = /^big(\d+)$/.exec(k);
    const body = deep ? deepPage(Number(deep[1])) : big ? bigPage(Number(big[1]), page) : SMALL_PAGE;
    write(res, Buffer.from(body), (n) => (site.bytesSent += n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

/** Writes `body` in chunks as the socket takes them; stops when the client goes. */
function write(res: ServerResponse, body: Buffer, sent: (n: number) => void): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  let at = 0;
  const next = (): void => {
    while (at < body.length && !res.destroyed) {
      const chunk = body.subarray(at, at + 65536);
      at += chunk.length;
      sent(chunk.length);
      if (!res.write(chunk)) {
        res.once('drain', next);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  next();
}
