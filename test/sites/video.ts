/**
 * The video platform simulator (test/sites/targets.json: `video` → `{origin}/video`,
 * `video_api` → `{origin}/video-api`, `video_suggest` → `{origin}/video-suggest`):
 *
 * - `/video/watch?v=<id>` watch pages (video-data.ts lists the catalogue: normal,
 *   age-restricted, private, removed, live, a refused caption track, locked formats, bot check);
 *   ids `old2019NNNN` / `old2017NNNN` answer catalogue video `vid0000NNNN` as a `ytplayer.config`
 *   page of that year (video-legacy.ts);
 * - `/video/api/timedtext?...&fmt=json3` caption tracks (a track with `exp=xpe` answers 403, as
 *   tracks needing a proof-of-origin token do), `POST /video/youtubei/v1/get_transcript`;
 * - `/video/results?search_query=&sp=` answering the filter (a query holding `__tiles__`: the
 *   server-rendered tile page of 2013-2020), `POST /video/youtubei/v1/search`
 *   continuations; `/video/channel/<id>/<tab>` and `/video/@handle/<tab>`, `POST
 *   /video/youtubei/v1/browse` for video continuations and the About panel;
 * - `/complete/search` suggestions (JSONP, or JSON with `xhr=t`) and `/v3/videoTrainability`
 *   under any of the three prefixes (a missing optional token falls back to `video`);
 * - `/video/videoplayback?id=&itag=` the real media file with range support.
 *
 * A search query containing `__fail__` answers 503; video-walls.ts lists the consent and captcha
 * triggers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CHANNEL_ID } from './video-data.js';
import { aboutAnswer, channelContinuation, channelPage } from './video-channel.js';
import { legacyVideo, legacyWatchPage, tilesPage } from './video-legacy.js';
import { searchContinuation, searchPage, untoken } from './video-lists.js';
import { mediaFiles, serveRange } from './video-media.js';
import { consentPage, sendCaptcha, toCaptcha } from './video-walls.js';
import { json3, transcript, watchPage } from './video-watch.js';
import type { SiteContext, SiteHandler } from './types.js';

const PREFIXES = ['/video-api', '/video-suggest', '/video'];

function send(res: ServerResponse, status: number, type: string, body: string): true {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
  return true;
}
const html = (res: ServerResponse, body: string, status = 200) => send(res, status, 'text/html; charset=utf-8', body);
const json = (res: ServerResponse, body: string, status = 200) => send(res, status, 'application/json; charset=utf-8', body);
const apiError = (res: ServerResponse, status: number, message: string) => json(res, JSON.stringify({ error: { code: status, message, status: 'INVALID_ARGUMENT' } }), status);

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Fields of a length-delimited protobuf message (the transcript `params`), decoded here on purpose by hand. */
function fields(bytes: Buffer): Map<number, Buffer | number> {
  const out = new Map<number, Buffer | number>();
  let i = 0;
  const varint = () => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = bytes[i++] as number;
      v += (b & 0x7f) * mul;
      mul *= 128;
      if (!(b & 0x80) || i >= bytes.length) return v;
    }
  };
  while (i < bytes.length) {
    const tag = varint();
    if ((tag & 7) === 2) {
      const len = varint();
      out.set(tag >> 3, bytes.subarray(i, i + len));
      i += len;
    } else out.set(tag >> 3, varint());
  }
  return out;
}

function transcriptFor(params: string): string | undefined {
  const outer = fields(Buffer.from(params, 'base64'));
  const id = outer.get(1);
  const sel = outer.get(2);
  if (!Buffer.isBuffer(id) || !Buffer.isBuffer(sel)) return undefined;
  const inner = fields(Buffer.from(decodeURIComponent(sel.toString('utf8')), 'base64'));
  const kind = inner.get(1);
  const lang = inner.get(2);
  return transcript(id.toString('utf8'), Buffer.isBuffer(lang) ? lang.toString('utf8') : '', Buffer.isBuffer(kind) ? kind.toString('utf8') : '');
}

function suggestions(q: string, hl: string): string[] {
  if (!q.trim()) return [];
  const words = hl.startsWith('de') ? ['anleitung', 'schuhe', 'für anfänger'] : ['tutorial', 'shoes', 'for beginners', 'tips'];
  return [q, ...words.map((w) => `${q} ${w}`)];
}

const TRAINABILITY: Record<string, string[]> = { vid00000001: ['all'], vid00000002: ['none'], vid00000005: ['party-a', 'party-b'] };

async function api(req: IncomingMessage, res: ServerResponse, endpoint: string, site: string): Promise<true> {
  if (req.method !== 'POST') return apiError(res, 405, 'POST only');
  const body = await readBody(req);
  if (typeof body.context !== 'object' || body.context === null) return apiError(res, 400, 'Request contains an invalid argument.');
  if (endpoint === 'get_transcript') {
    const answer = typeof body.params === 'string' ? transcriptFor(body.params) : undefined;
    return answer ? json(res, answer) : apiError(res, 400, 'Precondition check failed.');
  }
  const parts = typeof body.continuation === 'string' ? untoken(body.continuation) : [];
  if (endpoint === 'browse' && parts[0] === 'about' && parts[1] === CHANNEL_ID) return json(res, aboutAnswer(site));
  if (endpoint === 'browse' && parts[0] === 'chan') return json(res, channelContinuation(Number(parts[3])));
  if (endpoint === 'search' && parts[0] === 'search') return json(res, searchContinuation(parts[1] ?? '', parts[2] ?? '', Number(parts[3])));
  return apiError(res, 400, 'Request contains an invalid argument.');
}

async function handle(req: IncomingMessage, res: ServerResponse, url: URL, ctx: SiteContext, prefix: string, path: string): Promise<boolean> {
  const sp = url.searchParams;
  const site = `${ctx.origin}/video`;
  if (path === '/complete/search') {
    const q = sp.get('q') ?? '';
    const payload = JSON.stringify([q, suggestions(q, sp.get('hl') ?? 'en').map((s) => [s, 0, [512]]), { k: 1, q: 'sim' }]);
    return sp.get('xhr') === 't' ? json(res, payload) : send(res, 200, 'text/javascript; charset=utf-8', `window.google.ac.h(${payload})`);
  }
  if (path === '/v3/videoTrainability') {
    const id = sp.get('id') ?? '';
    const permitted = TRAINABILITY[id] ?? (id.startsWith('vid') ? ['none'] : undefined);
    if (!permitted) return apiError(res, 404, 'The video identified by the id parameter could not be found.');
    return json(res, JSON.stringify({ kind: 'youtube#videoTrainability', etag: `etag-${id}`, videoId: id, permitted }));
  }
  if (prefix !== '/video') return false;
  if (path === '/watch') {
    if (sp.get('v') === 'consent0000') return html(res, consentPage(site, url.href));
    const legacy = legacyVideo(sp.get('v') ?? '');
    if (legacy) return html(res, legacyWatchPage(legacy.video, legacy.style));
    return html(res, watchPage(sp.get('v') ?? '', site, await mediaFiles()));
  }
  if (path === '/sorry/index') return sendCaptcha(res, sp.get('continue') ?? '');
  if (path === '/api/timedtext') {
    if (sp.has('exp')) return send(res, 403, 'text/html', '<html><body>Forbidden</body></html>');
    const body = sp.get('fmt') === 'json3' ? json3(sp.get('v') ?? '', sp.get('lang') ?? '', sp.get('kind') ?? '') : undefined;
    return body ? json(res, body) : send(res, 404, 'text/plain', '');
  }
  const apiMatch = /^\/youtubei\/v1\/(browse|search|get_transcript)$/.exec(path);
  if (apiMatch) return api(req, res, apiMatch[1] as string, site);
  if (path === '/results') {
    const q = sp.get('search_query') ?? '';
    if (q.includes('__fail__')) return html(res, '<html><body><h1>Service Unavailable</h1></body></html>', 503);
    if (q.includes('__captcha__') || (q.includes('__captcha1__') && ctx.hits.get(url.pathname + url.search) === 1)) return toCaptcha(res, site, url.href);
    if (q.includes('__tiles__')) return html(res, tilesPage(q));
    return html(res, searchPage(q, sp.get('sp')));
  }
  const channel = /^\/(?:channel\/([\w-]+)|(@[\w.-]+))(?:\/(\w+))?$/.exec(path);
  if (channel?.[2] === '@captcha') return sendCaptcha(res, url.href);
  if (channel) {
    const page = channelPage(channel[1] ?? decodeURIComponent(channel[2] ?? ''), channel[3] ?? 'featured', site);
    return page ? html(res, page) : html(res, '<html><body><h1>This channel does not exist.</h1></body></html>', 404);
  }
  if (path === '/videoplayback') {
    const file = (await mediaFiles()).find((m) => String(m.itag) === sp.get('itag'));
    if (!file) return send(res, (await mediaFiles()).length === 0 ? 501 : 404, 'text/plain', '');
    return serveRange(res, file, sp.get('range') ?? req.headers.range ?? null);
  }
  return false;
}

export const videoSite: SiteHandler = (req, res, url, ctx) => {
  const prefix = PREFIXES.find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
  if (!prefix) return false;
  return handle(req, res, url, ctx, prefix, url.pathname.slice(prefix.length) || '/');
};
