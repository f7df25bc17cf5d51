/**
 * The simulator's assistants (`/llm1`, `/llm2`, `/llm3`): three chat pages of different styles
 * (assistant-pages.ts) and the endpoints behind them. Every question that reaches an assistant
 * is recorded in `ASKED` (tests check the exact question and the `search` flag). Failure modes
 * are asked for in the question (`[sim:login]`, ...: assistant-answers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { llm1Answer, llm2Answer, llm3Answer, modeOf, type SimMode } from './assistant-answers.js';
import { llm1Page, llm2Page, llm3Home, llm3Result } from './assistant-pages.js';
import type { SiteHandler } from './types.js';

export interface Asked {
  assistant: 'llm1' | 'llm2' | 'llm3';
  question: string;
  search?: boolean;
}

/** Every question asked, in arrival order. */
export const ASKED: Asked[] = [];

/** Questions whose challenge was already shown once (`challenge-clears` passes the second time). */
const challenged = new Set<string>();

const HTML = 'text/html; charset=utf-8';

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A signed-in visitor (a storage-state profile) passes the login wall. */
export const SIGNED_IN_COOKIE = 'sim-session=signed-in';

/** The failure answer of a mode, or undefined when the question is to be answered. */
function refusal(req: IncomingMessage, res: ServerResponse, mode: SimMode, question: string): true | undefined {
  if (mode === 'login' && !(req.headers.cookie ?? '').split(/;\s*/).includes(SIGNED_IN_COOKIE)) return send(res, 401, 'application/json', '{"detail":"login required"}');
  if (mode === 'rate-limit') return send(res, 429, 'application/json', '{"detail":"too many requests"}');
  if (mode === 'challenge') return send(res, 403, 'application/json', '{"detail":"challenge"}');
  if (mode === 'challenge-clears' && !challenged.has(question)) {
    challenged.add(question);
    return send(res, 403, 'application/json', '{"detail":"challenge"}', { 'x-clears': '1' });
  }
  return undefined;
}

const event = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** llm1's answer as server-sent events in the patch format (seed, append, bare values, patch list, [DONE]). */
function streamAnswer(res: ServerResponse, question: string, search: boolean | undefined, mode: SimMode): void {
  const a = llm1Answer(question, search);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...(mode === 'changed' ? { 'x-changed': '1' } : {}) });
  const seed = { message: { id: 'msg-1', author: { role: 'assistant' }, content: { content_type: 'text', parts: [''] }, metadata: { model_slug: a.model } } };
  res.write(event({ p: '', o: 'add', v: seed }));
  const pieces = a.markdown.match(/[\s\S]{1,12}/g) ?? [];
  let i = 0;
  const timer = setInterval(() => {
    if (mode === 'endless') return void res.write(event(i++ === 0 ? { p: '/message/content/parts/0', o: 'append', v: 'Thinking' } : { v: ' and thinking' }));
    if (i < pieces.length) {
      res.write(event(i === 0 ? { p: '/message/content/parts/0', o: 'append', v: pieces[i] } : { v: pieces[i] }));
      i++;
      return;
    }
    clearInterval(timer);
    res.write(event({ p: '', o: 'patch', v: [{ p: '/message/metadata/citations', o: 'replace', v: a.citations }] }));
    res.end(event('[DONE]'));
  }, 10);
  res.on('close', () => clearInterval(timer));
}

export const assistantSite: SiteHandler = async (req, res, url) => {
  const path = url.pathname;
  if (!/^\/llm[123](\/|$)/.test(path)) return false;
  if (path === '/llm1/' && req.method === 'GET') return send(res, 200, HTML, llm1Page());
  if (path === '/llm1/backend-anon/f/conversation' && req.method === 'POST') {
    const body = await jsonBody(req);
    const question = String(body.prompt ?? '');
    const search = typeof body.search === 'boolean' ? body.search : undefined;
    ASKED.push({ assistant: 'llm1', question, ...(search !== undefined ? { search } : {}) });
    const mode = modeOf(question);
    if (refusal(req, res, mode, question)) return true;
    if (mode === 'slow') await new Promise((r) => setTimeout(r, 4000));
    streamAnswer(res, question, search, mode);
    return true;
  }
  if (path === '/llm2/app' && req.method === 'GET') return send(res, 200, HTML, llm2Page());
  if (path === '/llm2/_/generate' && req.method === 'POST') {
    const question = String((await jsonBody(req)).prompt ?? '');
    ASKED.push({ assistant: 'llm2', question });
    const mode = modeOf(question);
    if (refusal(req, res, mode, question)) return true;
    const body = { ...llm2Answer(question), endless: mode === 'endless', changed: mode === 'changed' };
    return send(res, 200, 'application/json', JSON.stringify(body));
  }
  if (path === '/llm3/' && req.method === 'GET') return send(res, 200, HTML, llm3Home());
  if (path === '/llm3/search/new' && req.method === 'GET') {
    const question = url.searchParams.get('q') ?? '';
    ASKED.push({ assistant: 'llm3', question });
    const mode = modeOf(question);
    // The challenge that clears is shown once per question, like llm1's and llm2's.
    const shown = mode === 'challenge-clears' && challenged.has(question) ? 'ok' : mode;
    if (mode === 'challenge-clears') challenged.add(question);
    const data = { ...llm3Answer(question), endless: mode === 'endless', changed: mode === 'changed' };
    return send(res, 200, HTML, llm3Result(data, shown));
  }
  return false;
};
