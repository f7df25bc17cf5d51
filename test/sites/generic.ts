/**
 * The simulator's generic site: small pages that exercise the farm (static, script-only
 * content, redirects incl. to loopback by another name, slow, flaky, huge, non-HTML, a private
 * subresource, media and fonts). Every page is written here; none is copied from anywhere.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { SiteContext, SiteHandler } from './types.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const PDF_MINI = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

export const STATIC_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Static page</title></head><body>' +
  '<h1>Static heading</h1><p>Plain paragraph with <a href="/static/next">a relative link</a>.</p>' +
  '<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>' +
  '</body></html>';

export const JS_ONLY_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Script page</title></head><body>' +
  '<h1>Shell</h1><div id="app"></div><p id="late"></p>' +
  '<script>document.getElementById("app").textContent = "Rendered by script";' +
  'setTimeout(function () { fetch("/api/late").then(function (r) { return r.json(); })' +
  '.then(function (j) { document.getElementById("late").textContent = j.text; }); }, 150);</script>' +
  '</body></html>';

function html(res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

function bytes(res: ServerResponse, type: string, body: Buffer): true {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
  return true;
}

function redirect(res: ServerResponse, location: string, status = 302): true {
  res.writeHead(status, { location, 'content-length': 0 });
  res.end();
  return true;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

/** Loopback spelled differently, for redirect-based SSRF tests. */
function privateOrigin(kind: string, port: number): string {
  switch (kind) {
    case 'ipv4':
      return `http://127.0.0.1:${port}`;
    case 'decimal':
      return `http://2130706433:${port}`; // 127.0.0.1 as one number
    case 'mapped':
      return `http://[::ffff:127.0.0.1]:${port}`;
    case 'metadata':
      return 'http://169.254.169.254';
    case 'localhost-https':
      // Refused at the proxy's CONNECT: the browser's navigation fails, and the farm names the host.
      return `https://localhost:${port}`;
    default:
      return `http://localhost:${port}`;
  }
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL, ctx: SiteContext) => boolean | Promise<boolean>> = {
  '/': (_q, res) =>
    html(res, page('Simulator', '<h1>Gleaner target simulator</h1><ul><li><a href="/static">static</a></li><li><a href="/js-only">js-only</a></li></ul>')),
  '/static': (_q, res) => html(res, STATIC_HTML),
  '/static/next': (_q, res) => html(res, page('Next page', '<h1>Next page</h1>')),
  '/js-only': (_q, res) => html(res, JS_ONLY_HTML),
  '/api/late': (_q, res) => {
    setTimeout(() => {
      const body = JSON.stringify({ text: 'Late data' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    }, 100);
    return true;
  },
  '/ua': (req, res) =>
    html(
      res,
      page(
        'Device',
        `<p id="ua">${escapeHtml(String(req.headers['user-agent'] ?? ''))}</p><p id="vp"></p>` +
          '<script>document.getElementById("vp").textContent = innerWidth + "x" + innerHeight + " touch=" + navigator.maxTouchPoints;</script>',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
      ),
    ),
  '/headers': (req, res) => {
    const body = JSON.stringify(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return true;
  },
  '/status': (_q, res, url) => {
    const code = Number(url.searchParams.get('code') ?? 200);
    return html(res, page(`Status ${code}`, `<h1>Status ${code}</h1>`), code >= 100 && code < 600 ? code : 200);
  },
  '/slow': (req, res, url) => {
    const ms = Math.min(Number(url.searchParams.get('ms') ?? 1000), 120_000);
    const t = setTimeout(() => html(res, page('Slow page', `<h1>Slow page after ${ms} ms</h1>`)), ms);
    req.socket.once('close', () => clearTimeout(t));
    return true;
  },
  '/flaky': (_q, res, url, ctx) => {
    // Fails `fail` times per distinct query (use `key` to separate tests), then succeeds.
    const fail = Number(url.searchParams.get('fail') ?? 1);
    const seen = ctx.hits.get(url.pathname + url.search) ?? 0;
    if (seen <= fail) return html(res, page('Unavailable', '<h1>Try again</h1>'), 503);
    return html(res, page('Flaky page', `<h1>Recovered after ${fail} failures</h1>`));
  },
  '/huge': (_q, res, url) => {
    const mb = Math.min(Number(url.searchParams.get('mb') ?? 5), 200);
    const chunk = `<p>${'x'.repeat(1017)}</p>\n`; // 1 KiB
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Huge</title></head><body>');
    let left = mb * 1024;
    const pump = () => {
      while (left > 0) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('</body></html>');
    };
    res.on('error', () => undefined);
    pump();
    return true;
  },
  '/compressed': (req, res, url) => {
    // The page compressed as `enc` asks (gzip, br, deflate), with `status`; the request's
    // Accept-Encoding is echoed in the page so a test can see what was sent.
    const enc = url.searchParams.get('enc') ?? 'gzip';
    const status = Number(url.searchParams.get('status') ?? 200);
    const body = Buffer.from(page(`Compressed ${enc}`, `<h1>Compressed with ${enc}</h1><p id="ae">${escapeHtml(String(req.headers['accept-encoding'] ?? ''))}</p><p>${'Repeated words compress well. '.repeat(40)}</p>`));
    const packed = enc === 'br' ? brotliCompressSync(body) : enc === 'deflate' ? deflateSync(body) : gzipSync(body);
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': enc, 'content-length': packed.length });
    res.end(packed);
    return true;
  },
  '/gzip-bomb': (_q, res, url) => {
    // `mb` megabytes of one letter, gzipped to a few dozen kilobytes.
    const mb = Math.min(Number(url.searchParams.get('mb') ?? 30), 100);
    const packed = gzipSync(Buffer.concat([Buffer.from('<!doctype html><html><body><p>'), Buffer.alloc(mb * 1024 * 1024, 'x'), Buffer.from('</p></body></html>')]));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': packed.length });
    res.end(packed);
    return true;
  },
  '/data.json': (_q, res) => bytes(res, 'application/json', Buffer.from(JSON.stringify({ name: 'sample', items: [1, 2, 3] }))),
  '/image.png': (_q, res) => bytes(res, 'image/png', PNG_1x1),
  '/doc.pdf': (_q, res) => bytes(res, 'application/pdf', PDF_MINI),
  '/private-subresource': (_q, res, _u, ctx) =>
    html(
      res,
      page(
        'Private subresource',
        `<h1>Public page</h1><p id="status">private not loaded</p><script src="${ctx.origin}/private.js"></script>`,
      ),
    ),
  '/private.js': (_q, res) => {
    const body = 'document.getElementById("status").textContent = "PRIVATE LOADED";';
    res.writeHead(200, { 'content-type': 'application/javascript' });
    res.end(body);
    return true;
  },
  '/media': (_q, res) =>
    html(
      res,
      page(
        'Media page',
        '<style>@font-face { font-family: "Sim"; src: url("/fonts/face.woff2") format("woff2"); } h1 { font-family: "Sim", serif; }</style>' +
          '<h1>Media and fonts</h1><video src="/media/clip.mp4" preload="auto" autoplay muted></video>' +
          '<audio src="/media/sound.mp3" preload="auto"></audio><img src="/image.png" alt="pixel">',
      ),
    ),
  '/fonts/face.woff2': (_q, res) => bytes(res, 'font/woff2', Buffer.from('wOF2')),
  '/media/clip.mp4': (_q, res) => bytes(res, 'video/mp4', Buffer.alloc(64)),
  '/media/sound.mp3': (_q, res) => bytes(res, 'audio/mpeg', Buffer.alloc(64)),
};

export const genericSite: SiteHandler = (req, res, url, ctx) => {
  const exact = routes[url.pathname];
  if (exact) return exact(req, res, url, ctx);
  const hop = /^\/redirect\/(\d+)$/.exec(url.pathname);
  if (hop) {
    // /redirect/3 → /redirect/2 → /redirect/1 → /static
    const n = Number(hop[1]);
    return redirect(res, n <= 1 ? '/static' : `/redirect/${n - 1}`);
  }
  if (url.pathname === '/redirect-raw') {
    // A Location exactly as given (`?to=http://[zz`): upstreams do send unparsable ones.
    return redirect(res, url.searchParams.get('to') ?? '');
  }
  if (url.pathname === '/redirect-private') {
    const port = Number(new URL(ctx.origin).port);
    return redirect(res, `${privateOrigin(url.searchParams.get('to') ?? 'localhost', port)}/static`);
  }
  return false;
};
