/**
 * A site to crawl: a few thousand generated pages on its own server, with what real sites put
 * in a crawler's way. Its model (`pages()`) is the truth tests compare a crawl with; its request
 * log (`log`: each request's host, path, start and end) is how tests see politeness and repeats
 * from the server's side.
 *
 * Hosts (by the Host header; tests map the names to 127.0.0.1): the main site (any other name,
 * or 127.0.0.1), `blog.<main>` (a subdomain) and `other.test` (an external site).
 *
 * | path | what |
 * |---|---|
 * | `/robots.txt` | `Disallow: /private/`, `Disallow: /*?print=`, `Sitemap:` the index |
 * | `/sitemap_index.xml` | index of `/sitemaps/products-1.xml.gz` (gzip), `/sitemaps/products-2.xml`, `/sitemaps/extra.txt` (text) |
 * | `/` | sections, the calendar, about, a private page, a session link, the blog, an external site, a broken link |
 * | `/section/{s}`, `/section/{s}/{page}` | paginated product lists (`?page` links lead to canonical twins) |
 * | `/p/{id}` | a product: links to two neighbours, its section, a print view, a `?ref=` twin (canonical → `/p/{id}`) |
 * | `/old/{id}` | 301 → `/p/{id}` (linked from products: redirect targets are pages already met) |
 * | `/orphan/{i}` | only in the text sitemap |
 * | `/calendar/{yyyy}-{mm}` | a trap: every month links the next and the previous, forever |
 * | `/cart?sid=…` | a trap: every page view links a new session id |
 * | `/private/...` | disallowed by robots.txt |
 * | `/slow/{i}` | answers after `slowMs` |
 * | `/missing` | 404; `/broken`: 500 every time |
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface CrawlSiteOptions {
  products?: number;
  sections?: number;
  orphans?: number;
  slowPages?: number;
  slowMs?: number;
  /** Host name of the main site as links name it (default: the server's 127.0.0.1:port). */
  host?: string;
  /** Every page answers after this long (a slow host). */
  delayMs?: number;
  /**
   * No traps, twins or redirects (benchmarks): the home page links the sections, sections their
   * pages, product pages their neighbours and section. Every page is one URL a crawler without
   * URL normalisation beyond the fragment also finds exactly once.
   */
  plain?: boolean;
}

export interface SiteRequest {
  host: string;
  path: string;
  start: number;
  end: number;
  status: number;
  /** The client's port: a request asked twice on one connection or on two (a retry) tells apart. */
  port: number | undefined;
}

export interface CrawlSite {
  origin: string;
  port: number;
  /** Requests in arrival order (end set when the answer was sent). */
  log: SiteRequest[];
  /** The main site's pages a full crawl returns (paths, 200 answers, not robots-disallowed, no traps, no redirects, no twins). */
  pages(): string[];
  /** Paths disallowed by robots.txt that the site links or lists. */
  privatePaths(): string[];
  opts: Required<Omit<CrawlSiteOptions, 'host'>>;
  close(): Promise<void>;
}

const PER_LIST = 20;

function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;
}

const a = (href: string, text = href) => `<a href="${href}">${text}</a>`;

function month(offset: number): string {
  const d = new Date(Date.UTC(2024, offset, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function monthOffset(ym: string): number | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(ym);
  if (!m) return undefined;
  return (Number(m[1]) - 2024) * 12 + Number(m[2]) - 1;
}

export async function startCrawlSite(options: CrawlSiteOptions = {}): Promise<CrawlSite> {
  const o = { products: 1800, sections: 20, orphans: 100, slowPages: 5, slowMs: 300, delayMs: 0, plain: false, ...options };
  const log: SiteRequest[] = [];
  let session = 0;
  const sectionOf = (id: number) => id % o.sections;
  const productsOf = (s: number) => {
    const ids: number[] = [];
    for (let id = s; id < o.products; id += o.sections) ids.push(id);
    return ids;
  };
  const listPages = (s: number) => Math.max(1, Math.ceil(productsOf(s).length / PER_LIST));

  const sitemapXml = (paths: string[], base: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
      .map((p, i) => `<url><loc>${base}${p.replace(/&/g, '&amp;')}</loc><lastmod>2024-${String((i % 12) + 1).padStart(2, '0')}-01</lastmod></url>`)
      .join('\n')}\n</urlset>\n`;
  const half = Math.ceil(o.products / 2);
  const productPaths = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => `/p/${from + i}`);

  function main(url: URL, base: string, res: ServerResponse): number {
    const path = url.pathname;
    const send = (status: number, body: string, type = 'text/html; charset=utf-8', extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...extra });
      res.end(body);
      return status;
    };
    if (path === '/robots.txt') {
      return send(200, `User-agent: *\nDisallow: /private/\nDisallow: /*?print=\n\nUser-agent: gleaner\nDisallow: /private/\nDisallow: /*?print=\n\nSitemap: ${base}/sitemap_index.xml\n`, 'text/plain');
    }
    if (path === '/sitemap_index.xml') {
      const files = ['/sitemaps/products-1.xml.gz', '/sitemaps/products-2.xml', '/sitemaps/extra.txt'];
      return send(200, `<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${files.map((f) => `<sitemap><loc>${base}${f}</loc></sitemap>`).join('')}</sitemapindex>`, 'application/xml');
    }
    if (path === '/sitemaps/products-1.xml.gz') {
      const body = gzipSync(sitemapXml(productPaths(0, half), base));
      res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': String(body.length) });
      res.end(body);
      return 200;
    }
    if (path === '/sitemaps/products-2.xml') return send(200, sitemapXml([...productPaths(half, o.products), '/private/listed'], base), 'application/xml');
    if (path === '/sitemaps/extra.txt') return send(200, `${Array.from({ length: o.orphans }, (_, i) => `${base}/orphan/${i}`).join('\n')}\n${base}/about\n`, 'text/plain');
    if (o.plain && path === '/') return send(200, html('Home', `<nav>${Array.from({ length: o.sections }, (_, s) => a(`/section/${s}`, `Section ${s}`)).join(' ')}</nav>`));
    if (o.plain) {
      const p = /^\/p\/(\d+)$/.exec(path);
      if (p && Number(p[1]) < o.products) {
        const id = Number(p[1]);
        const body = `<article><p>${'Plain product text. '.repeat(40)}</p><ul>${Array.from({ length: 8 }, (_, i) => `<li>Spec ${i}: ${(id * 7 + i) % 100}</li>`).join('')}</ul></article>`;
        return send(200, html(`Product ${id}`, `${body}<p>${a(`/p/${(id + 1) % o.products}`, 'Next')} ${a(`/p/${(id + o.products - 1) % o.products}`, 'Previous')} ${a(`/section/${sectionOf(id)}`, 'Section')}</p>`));
      }
    }
    if (path === '/') {
      const sections = Array.from({ length: o.sections }, (_, s) => a(`/section/${s}`, `Section ${s}`)).join(' ');
      const slow = Array.from({ length: o.slowPages }, (_, i) => a(`/slow/${i}`)).join(' ');
      return send(
        200,
        html(
          'Home',
          `<nav>${sections}</nav><p>${a('/calendar/2024-01', 'Events')} ${a('/about#team', 'About')} ${a('/private/admin', 'Admin')} ${a(`/cart?sid=${++session}`, 'Cart')} ${a('/missing', 'Old page')} ${a('/broken', 'Status')} ${a('mailto:info@example.com', 'Mail')}</p><p>${slow}</p><p>${a(`//blog.${new URL(base).host}/`, 'Blog')} ${a(`http://other.test:${port}/`, 'Partner')}</p>`,
        ),
      );
    }
    if (path === '/about') return send(200, html('About', `<p>About us. ${a('/', 'Home')} ${a(`/cart?sid=${++session}`, 'Cart')}</p>`));
    if (path === '/cart') return send(200, html('Cart', `<p>${a(`/cart?sid=${++session}`, 'Refresh')} ${a('/')}</p>`));
    if (path === '/missing') return send(404, html('Not found', `<p>${a('/')}</p>`));
    if (path === '/broken') return send(500, html('Error', ''));
    if (path.startsWith('/private/')) return send(200, html('Private', `<p>${a('/private/deeper')}</p>`));
    let m = /^\/slow\/(\d+)$/.exec(path);
    if (m) return -1; // answered by the caller after slowMs
    m = /^\/orphan\/(\d+)$/.exec(path);
    if (m && Number(m[1]) < o.orphans) return send(200, html(`Orphan ${m[1]}`, `<p>${a('/')}</p>`));
    m = /^\/calendar\/(\d{4}-\d{2})$/.exec(path);
    if (m && monthOffset(m[1]!) !== undefined) {
      const k = monthOffset(m[1]!)!;
      return send(200, html(`Events ${m[1]}`, `<p>${a(`/calendar/${month(k - 1)}`, 'Previous')} ${a(`/calendar/${month(k + 1)}`, 'Next')}</p>`));
    }
    m = /^\/section\/(\d+)(?:\/(\d+))?\/?$/.exec(path);
    if (m && Number(m[1]) < o.sections) {
      const s = Number(m[1]);
      const page = m[2] ? Number(m[2]) : 1;
      const pages = listPages(s);
      if (page < 1 || page > pages) return send(404, html('Not found', ''));
      const ids = productsOf(s).slice((page - 1) * PER_LIST, page * PER_LIST);
      const nav = Array.from({ length: pages }, (_, i) => a(`/section/${s}/${i + 1}`, String(i + 1))).join(' ');
      // `?page=` twins point at the numbered pages by their canonical link.
      const head = url.search ? `<link rel="canonical" href="${base}/section/${s}/${page}">` : '';
      const twin = o.plain ? '' : a(`/section/${s}?page=${page}`, 'this page');
      return send(200, html(`Section ${s} page ${page}`, `<ul>${ids.map((id) => `<li>${a(`/p/${id}`, `Product ${id}`)}</li>`).join('')}</ul><p>${nav} ${twin}</p>`, head));
    }
    m = /^\/p\/(\d+)$/.exec(path);
    if (m && Number(m[1]) < o.products) {
      const id = Number(m[1]);
      if (url.searchParams.has('print')) return send(200, html(`Print ${id}`, ''));
      const next = (id + 1) % o.products;
      const prev = (id + o.products - 1) % o.products;
      const head = `<link rel="canonical" href="${base}/p/${id}">`;
      return send(
        200,
        html(`Product ${id}`, `<p>Price ${(id % 97) + 0.99}</p><p>${a(`/p/${next}`, 'Next')} ${a(`/old/${prev}`, 'Previous')} ${a(`/section/${sectionOf(id)}`, 'Section')} ${a(`/p/${id}?print=1`, 'Print')} ${a(`/p/${id}?ref=list#top`, 'Share')} ${a(`/cart?sid=${++session}`, 'Cart')}</p>`, head),
      );
    }
    m = /^\/old\/(\d+)$/.exec(path);
    if (m) {
      res.writeHead(301, { location: `/p/${m[1]}` });
      res.end();
      return 301;
    }
    return send(404, html('Not found', ''));
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const start = Date.now();
    const host = (req.headers.host ?? '').toLowerCase();
    const url = new URL(req.url ?? '/', `http://${host || '127.0.0.1'}`);
    const entry: SiteRequest = { host, path: url.pathname + url.search, start, end: 0, status: 0, port: req.socket.remotePort };
    log.push(entry);
    res.on('finish', () => (entry.end = Date.now()));
    const answer = (): void => {
      const base = `http://${options.host ? `${options.host}:${port}` : host}`;
      const hostname = host.replace(/:\d+$/, '');
      const mainName = (options.host ?? '127.0.0.1').toLowerCase();
      if (hostname === `blog.${mainName}`) {
        entry.status = 200;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html('Blog', `<p>${a('/post/1')} ${a(`http://${mainName}:${port}/`, 'Shop')}</p>`));
        return;
      }
      if (hostname === 'other.test') {
        entry.status = 200;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html('Partner', `<p>${a('/partner/page')}</p>`));
        return;
      }
      const status = main(url, base, res);
      if (status === -1) {
        setTimeout(() => {
          entry.status = 200;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(html(`Slow ${url.pathname}`, `<p>${a('/')}</p>`));
        }, o.slowMs);
        return;
      }
      entry.status = status;
    };
    if (o.delayMs > 0) setTimeout(answer, o.delayMs);
    else answer();
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const pages = (): string[] => {
    if (o.plain) {
      const plain = ['/'];
      for (let s = 0; s < o.sections; s++) {
        plain.push(`/section/${s}`);
        for (let p = 1; p <= listPages(s); p++) plain.push(`/section/${s}/${p}`);
      }
      for (let id = 0; id < o.products; id++) plain.push(`/p/${id}`);
      return plain;
    }
    const out = ['/', '/about', '/missing'];
    for (let s = 0; s < o.sections; s++) {
      out.push(`/section/${s}`);
      for (let p = 1; p <= listPages(s); p++) out.push(`/section/${s}/${p}`);
    }
    for (let id = 0; id < o.products; id++) out.push(`/p/${id}`);
    for (let i = 0; i < o.orphans; i++) out.push(`/orphan/${i}`);
    for (let i = 0; i < o.slowPages; i++) out.push(`/slow/${i}`);
    out.push('/cart');
    return out;
  };
  return {
    origin: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    log,
    pages,
    privatePaths: () => ['/private/admin', '/private/listed'],
    opts: { products: o.products, sections: o.sections, orphans: o.orphans, slowPages: o.slowPages, slowMs: o.slowMs, delayMs: o.delayMs, plain: o.plain },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
