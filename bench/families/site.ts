/**
 * The local site the per-family benches fetch from: every captured page of every family,
 * served whole (its real bytes and size) by a bare node:http server in a process of its own.
 * A request names its page by `pg<N>` anywhere in its path or query (N: the page's index in
 * `sitePages()`, the same list in every process), which is how a dedicated route's planned URL
 * (`/mkt1/com/dp/pg3`, `/se1/search?q=pg3`, `/video/c/pg3/videos`) reaches a given page. Any
 * other request (a flow's optional follow-up, a favicon) gets a 404.
 *
 *   node --import tsx bench/families/site.ts    (standalone: prints the origin)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMain, onStop, tell } from '../child.js';
import { FAMILIES, familyPages, type FamilyPage } from './pages.js';

/** Every family's pages, in family order then name order: a page's index is its `pg<N>`. */
export function sitePages(): FamilyPage[] {
  return FAMILIES.flatMap((f) => familyPages(f));
}

/** The `pg<N>` query of page `index` (what a request's `query` parameter carries). */
export const pageQuery = (index: number) => `pg${index}`;

const PG = /pg(\d+)/;
/** BENCH_SITE_LOG=1: every request on stderr (which URLs a route's flow fetches). */
const LOG = process.env.BENCH_SITE_LOG === '1';

export async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const pages = sitePages();
  const server = createServer((req, res) => {
    let path = req.url ?? '';
    try {
      path = decodeURIComponent(path);
    } catch {
      // keep it raw
    }
    const page = pages[Number(PG.exec(path)?.[1] ?? -1)];
    if (LOG) process.stderr.write(`site: ${req.method} ${path} → ${page ? page.name : 404}\n`);
    // The request body (a POST follow-up) is read and dropped.
    req.resume();
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.bytes, 'cache-control': 'no-store' }).end(page.body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

if (isMain(import.meta)) {
  const site = await startSite();
  onStop(() => site.close());
  if (process.send) await tell({ type: 'ready', info: { origin: site.origin } });
  else console.log(`fixture site listening on ${site.origin} (${sitePages().length} pages)`);
}
