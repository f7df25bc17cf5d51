/**
 * Worker side: one attempt of a flow (flow.ts) — its steps in order on one proxy with one
 * cookie jar and one identity (setup steps skipped when a session is reused, the page step in
 * the browser with `run_js` or over plain HTTP, its follow-ups, browser scripts), then the
 * flow's `check` and its media step.
 *
 * Separate from flow.ts, which decides how many attempts run and whether the browser gets a
 * turn after walls: this is what one attempt does, and it tells flow.ts how it went through
 * the memo (the check's verdict, the run it judged, the walls met so far).
 */
import { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import { retryAfterMs } from '../../core/retry.js';
import type { FetchStep, Flow, MediaStep, Step, Vars, Verdict } from '../../core/targets/flow.js';
import { profileFor, sessionKeyOf, type BrowserProfile } from '../identity/profile.js';
import type { RawHeaders } from '../net/fetcher.js';
import type { ProxyEntry } from '../net/proxies.js';
import { runBrowserStep } from './browser-script.js';
import { browserCookies, withoutCookieHeader } from './browser-cookies.js';
import type { FlowContext, FlowRun } from './flow.js';
import { fillRequest, readInto } from './flow-vars.js';
import { lazy } from './lazy.js';
import { navigatesInBrowser } from '../net/browser-net.js';
import { navPage } from './nav-page.js';
import { httpPage, renderPage, type Fetched, type PageRequest } from './page-fetch.js';

/** Range fetches and ffmpeg: loaded by the first media step (lazy.ts). */
const mediaStep = lazy('./media-step.js', () => import('./media-step.js'));

/** Follow-ups (continuation pages) stop when less than this is left before the deadline. */
const FOLLOW_UP_RESERVE_MS = 3000;

/** What the last attempt's check said, so that running out of attempts can report it. */
export interface Memo {
  verdict: Extract<Verdict, { ok: false }> | undefined;
  run: FlowRun | undefined;
  /** Walls met so far: the next attempt's identity is that many rows further (ProfileRequest.fresh). */
  walls: number;
}

/**
 * Whether anything reads the attempt's jar after fetch step `i`: its own cookie readers, its
 * follow-ups, a later fetch step, or a session that keeps the jar. (The check and the media
 * step do not read it.)
 */
export function readsJarAfter(flow: Flow, i: number, hasSession: boolean): boolean {
  const step = flow.steps[i];
  if (hasSession || step?.kind !== 'fetch' || step.more !== undefined) return true;
  if (Object.values(step.read ?? {}).some((r) => r.from === 'cookie')) return true;
  return flow.steps.slice(i + 1).some((s) => s.kind === 'fetch');
}

/** One attempt on `proxy`: its run, or the error that ended it (a failed check or browser script also leaves its verdict in `memo`). */
export async function attempt(flow: Flow, ctx: FlowContext, proxy: ProxyEntry | null, memo: Memo): Promise<FlowRun> {
  const { env, abort } = ctx;
  const session = flow.session;
  const reused = session ? env.sessions.take(session.key, proxy?.url) : undefined;
  // One identity per session (cookie jar + proxy), on both paths (identity/profile.ts); a
  // session made after a wall keeps the fresh identity it was made with.
  const fresh = reused?.fresh ?? memo.walls;
  const profile = profileOf(ctx, proxy, session?.key, fresh);
  const jar = reused?.jar ?? new CookieJar();
  const vars: Vars = { ...flow.vars, ...reused?.vars };
  const parts: Record<string, string[]> = {};
  const pageAt = pageIndex(flow.steps);
  let page: Fetched | undefined;
  let requestBytes = 0;
  let responseBytes = 0;
  const fetchStep = async (req: PageRequest, asPage: boolean, jarReadAfter = true): Promise<Fetched> => {
    const maxBytes = ctx.budget.cap();
    let res: Fetched;
    try {
      if (asPage && ctx.runJs) {
        res = await renderPage(ctx.msg, env, withoutCookieHeader(req), proxy, profile, { screenshot: ctx.screenshot, cookies: browserCookies(jar, req), maxBytes }, abort.signal);
      } else if (ctx.canRender && navigatesInBrowser(env.setup, req)) {
        // Chrome's own network stack (nav-page.ts): a fetch thread never gets here (run-task.ts).
        res = await navPage(ctx.msg, env, req, proxy, profile, { jar, maxBytes, manualRedirects: req.manualRedirects === true, jarReadAfter }, abort.signal);
      } else {
        res = await httpPage(env, req, proxy, profile, abort, jar, maxBytes);
      }
    } catch (err) {
      throw ctx.budget.explain(err, maxBytes);
    }
    ctx.budget.spend(res.responseBytes);
    requestBytes += res.requestBytes;
    responseBytes += res.responseBytes;
    return res;
  };

  for (const [i, step] of flow.steps.entries()) {
    if (step.kind === 'browser') {
      // A browser script is its flow's page: it fails with its own verdict (login wall, ...).
      const out = await runBrowserStep(step, vars, ctx, proxy, profile);
      if (!out.ok) {
        memo.verdict = out.verdict;
        if (session) env.sessions.drop(session.key, proxy?.url);
        if (out.verdict.retry) throw new GleanerError('UPSTREAM_FAILED', out.verdict.message, out.verdict.data);
        throw new GleanerError(out.verdict.code, out.verdict.message, { ...out.verdict.data, final: true });
      }
      for (const [name, bodies] of Object.entries(out.parts)) (parts[name] ??= []).push(...bodies);
      ctx.budget.spend(out.page.responseBytes);
      requestBytes += out.page.requestBytes;
      responseBytes += out.page.responseBytes;
      page = out.page;
      continue;
    }
    if (step.kind !== 'fetch' || (step.setup && reused) || (step.when && !step.when(vars))) continue;
    const asPage = i === pageAt;
    let res: Fetched;
    try {
      const request = toRequest(fillRequest(step.name, step, vars));
      // A crawl's page: a redirect is the crawl's to follow (its target may be a page met already).
      if (asPage && ctx.msg.task.crawl?.kind === 'page') request.manualRedirects = true;
      res = await fetchStep(request, asPage, readsJarAfter(flow, i, session !== undefined));
    } catch (err) {
      if (step.optional && !asPage && isUpstreamFailure(err)) continue;
      throw err;
    }
    if (!asPage && !(res.status >= 200 && res.status < 400)) {
      if (step.optional) continue;
      throw new GleanerError('UPSTREAM_FAILED', `Step "${step.name}" answered HTTP ${res.status}.`);
    }
    readInto(vars, step.read, { url: res.url, body: res.body, headers: res.headers, jar });
    if (step.keep) (parts[step.name] ??= []).push(res.body);
    if (asPage) page = res;
    if (step.more && res.status < 400) await followUps(step, res.body, vars, parts, ctx, (req) => fetchStep(req, false));
  }
  if (!page) throw new GleanerError('INTERNAL_ERROR', 'A flow ended without its page step.');
  const run: FlowRun = { status: page.status, page, parts, vars, requestBytes, responseBytes };
  const asked = page.status >= 400 ? retryAfterMs(page.headers['retry-after']) : undefined;
  if (asked !== undefined) run.retryAfterMs = asked;
  if (flow.check && page.status < 500) {
    const verdict = flow.check({ url: page.url, status: page.status, body: page.body, headers: flat(page.headers) }, vars);
    if (!verdict.ok) {
      memo.verdict = verdict;
      memo.run = run;
      if (verdict.wall) memo.walls++;
      if (session) env.sessions.drop(session.key, proxy?.url);
      if (verdict.retry) throw new GleanerError('UPSTREAM_FAILED', verdict.message);
      throw new GleanerError(verdict.code, verdict.message, verdict.data);
    }
  }
  if (session && !reused && flow.steps.some((s) => s.kind === 'fetch' && s.setup)) env.sessions.save(session.key, proxy?.url, jar, vars, session.ttlMs, fresh);
  // A media step runs on the attempt's proxy, after the check: stream URLs are often bound to
  // the address that fetched the page, and a refused stream retries from a fresh page.
  const media = flow.steps.find((s): s is MediaStep => s.kind === 'media');
  if (media) {
    run.media = await (await mediaStep()).runMediaStep(media, page.body, vars, { ctx, proxy, profile });
    run.requestBytes += run.media.requestBytes;
    run.responseBytes += run.media.fetchedBytes;
  }
  return run;
}

/** The profile of this flow's session on `proxy` (a named session, else the proxy's own); `fresh`: walls met (ProfileRequest.fresh). */
export function profileOf(ctx: Pick<FlowContext, 'device' | 'country'>, proxy: ProxyEntry | null, session: string | undefined, fresh = 0): BrowserProfile {
  return profileFor({ sessionKey: sessionKeyOf(session, proxy?.url), device: ctx.device, country: ctx.country, fresh });
}

/** Continuation pages of a step: made while `next` asks for one, within `max` and the deadline. */
async function followUps(
  step: FetchStep,
  first: string,
  vars: Vars,
  parts: Record<string, string[]>,
  ctx: FlowContext,
  fetch: (req: PageRequest) => Promise<Fetched>,
): Promise<void> {
  const more = step.more!;
  let body = first;
  const gathered: string[] = [];
  for (let count = 0; count < more.max; count++) {
    if (ctx.msg.task.deadline - Date.now() < FOLLOW_UP_RESERVE_MS || ctx.abort.aborted) return;
    const next = more.next(body, count, vars, gathered);
    if (!next) return;
    const res = await fetch(toRequest(fillRequest(step.name, next, vars)));
    // A continuation that fails ends the list with what was gathered; the page itself is good.
    if (res.status < 200 || res.status >= 300) return;
    (parts[step.name] ??= []).push(res.body);
    gathered.push(res.body);
    body = res.body;
  }
}

/** The page step: a browser script, or the fetch step marked `page`, else the last fetch step. */
function pageIndex(steps: readonly Step[]): number {
  const marked = steps.findIndex((s) => s.kind === 'browser' || (s.kind === 'fetch' && s.page === true));
  if (marked >= 0) return marked;
  return steps.findLastIndex((s) => s.kind === 'fetch');
}

function toRequest(r: ReturnType<typeof fillRequest>): PageRequest {
  return { url: r.url, method: r.method, headers: r.headers, body: r.body };
}

function isUpstreamFailure(err: unknown): boolean {
  return err instanceof GleanerError && err.code === 'UPSTREAM_FAILED';
}

function flat(headers: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
