/**
 * The simulator's flow site (`/flow/...`): a small upstream with a session handshake, written
 * to exercise the farm's flow executor step by step. `GET /flow/start` sets a session cookie
 * and embeds a token; `POST /flow/apply` needs the token header, the cookie and a JSON body,
 * and records the chosen place on the session; `GET /flow/page` shows the place of its session
 * (or none); `GET /flow/list?after=N` answers JSON pages with a continuation token. Every page
 * is written here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteHandler } from './types.js';

/** Session id → the place applied to it. A place of `00000` "succeeds" without being applied. */
const places = new Map<string, string>();
let sessions = 0;

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  return header.split(/;\s*/).map((p) => p.split('=')).find(([k]) => k === name)?.[1];
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}): true {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const flowSite: SiteHandler = async (req, res, url) => {
  if (!url.pathname.startsWith('/flow/')) return false;
  if (url.pathname === '/flow/start') {
    const sid = `s${++sessions}`;
    return send(res, 200, 'text/html; charset=utf-8', `<html><body><script>var config = {"token":"tok-${sid}"};</script></body></html>`, {
      'set-cookie': [`sid=${sid}; Path=/; HttpOnly`, `seen=1; Path=/flow`],
    });
  }
  if (url.pathname === '/flow/apply' && req.method === 'POST') {
    const sid = cookieOf(req, 'sid');
    const body = await bodyOf(req);
    if (!sid || req.headers['x-token'] !== `tok-${sid}`) return send(res, 403, 'application/json', '{"ok":0}');
    const place = (JSON.parse(body) as { place?: string }).place ?? '';
    if (place !== '00000') places.set(sid, place);
    return send(res, 200, 'application/json', `{"ok":1,"echo":${JSON.stringify(body)}}`);
  }
  if (url.pathname === '/flow/page') {
    const sid = cookieOf(req, 'sid');
    const place = sid ? places.get(sid) : undefined;
    const lang = cookieOf(req, 'lang') ?? '-';
    return send(res, 200, 'text/html; charset=utf-8', `<html><body><p id="place">${place ?? 'none'}</p><p id="lang">${lang}</p><p id="sid">${sid ?? '-'}</p></body></html>`);
  }
  if (url.pathname === '/flow/list') {
    const after = Number(url.searchParams.get('after') ?? '0');
    const items = [after + 1, after + 2];
    const next = after + 2 < 6 ? `"next":"${after + 2}",` : '';
    return send(res, 200, 'application/json', `{${next}"items":${JSON.stringify(items)}}`);
  }
  if (url.pathname === '/flow/down') return send(res, 503, 'text/plain', 'down');
  return send(res, 404, 'text/plain', 'no such flow page');
};
