/**
 * The target simulator: one real node:http server that plays every upstream the tests need.
 * Site handlers are tried in order; the first that answers wins. `hits` counts requests per
 * path+query (before handlers run), for fail-N-times pages and for "was it requested" checks.
 */
import { createServer } from 'node:http';
import { assistantSite } from './assistants.js';
import { commerceSite } from './commerce.js';
import { extractionSite } from './extraction.js';
import { flowSite } from './flows.js';
import { genericSite } from './generic.js';
import { mkt1Site } from './mkt1.js';
import { seSite } from './se.js';
import type { SiteContext, SiteHandler } from './types.js';
import { videoSite } from './video.js';

export interface Simulator {
  origin: string;
  port: number;
  hits: Map<string, number>;
  /** Every request in arrival order, as `METHOD /path?query`: the exact upstream requests a test asserts. */
  log: string[];
  close(): Promise<void>;
}

export const SITES: readonly SiteHandler[] = [genericSite, seSite, extractionSite, flowSite, videoSite, commerceSite, mkt1Site, assistantSite];

export async function startSimulator(opts: { port?: number; host?: string } = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  const hits = new Map<string, number>();
  const log: string[] = [];
  const ctx: SiteContext = { origin: '', hits };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', ctx.origin);
    const key = url.pathname + url.search;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    log.push(`${req.method ?? 'GET'} ${key}`);
    try {
      for (const site of SITES) if (await site(req, res, url, ctx)) return;
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`simulator error: ${(err as Error).message}`);
    }
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  ctx.origin = `http://${host}:${port}`;
  return {
    origin: ctx.origin,
    port,
    hits,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
