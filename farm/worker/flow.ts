/**
 * Worker side: runs one flow (core/targets/flow.ts) to the page it produces. Every attempt runs
 * the whole flow on one proxy with one cookie jar — setup steps (unless a session is reused),
 * the page step (in the browser with `run_js`, else over plain HTTP), its follow-ups — then the
 * flow's `check`. A failed attempt is retried on the next proxy by the shared attempts loop,
 * with the same backoff, SSRF guard and deadline as a single fetch.
 *
 * Walls (issue #20): after a check calls a page a bot wall or a JavaScript challenge, the next
 * attempt starts a fresh session with a fresh identity (a new jar, the next profile of the
 * table). When every attempt met a wall and the flow's family allows it (`flow.escalate`, data
 * from its adapter), one more attempt runs with the page step in the browser, on the next proxy
 * with another fresh identity; its page is charged as what it is (a rendered page, or a wall
 * that is not charged). Fetch threads never render: there the flow ends with `NeedsBrowser`,
 * the pool sends the task to a render thread with the flow marked (`TaskMessage.escalate`),
 * and that thread runs the browser attempt alone. A browser attempt that fails leaves the
 * plain outcome as it was (in a render thread after a fetch thread's walls: the walls' error).
 */
import { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import { retryAfterMs } from '../../core/retry.js';
import type { FetchStep, Flow, MediaStep, Step, Vars, Verdict } from '../../core/targets/flow.js';
import type { DeviceName } from '../devices.js';
import { profileFor, sessionKeyOf, type BrowserProfile } from '../identity/profile.js';
import type { TaskMessage } from '../messages.js';
import type { RawHeaders } from '../net/fetcher.js';
import type { ProxyEntry, ProxyRotation } from '../net/proxies.js';
import type { TaskAbort } from './abort.js';
import { withAttempts } from './attempts.js';
import type { TaskBudget } from './budget.js';
import { runBrowserStep } from './browser-script.js';
import type { WorkerEnv } from './env.js';
import { fillRequest, readInto } from './flow-vars.js';
import { lazy } from './lazy.js';
import type { MediaFile } from './media-step.js';
import { browserCookies, withoutCookieHeader } from './browser-cookies.js';
import { navPage, navigatesInBrowser } from './nav-page.js';
import { httpPage, renderPage, type Fetched, type PageRequest } from './page-fetch.js';

/** Follow-ups (continuation pages) stop when less than this is left before the deadline. */
/** Range fetches and ffmpeg: loaded by the first media step (lazy.ts). */
const mediaStep = lazy('./media-step.js', () => import('./media-step.js'));

const FOLLOW_UP_RESERVE_MS = 3000;
/** A browser escalation is not started with less than this left: it would end as a timeout instead of the wall. */
const ESCALATION_RESERVE_MS = 5000;

export interface FlowContext {
  msg: TaskMessage;
  /** This thread owns a browser (a render thread): an escalation runs here, else in a render thread. */
  canRender: boolean;
  /** The fetch thread met walls on every plain attempt of this flow: run its browser attempt only. */
  escalated: boolean;
  env: WorkerEnv;
  device: DeviceName;
  /** The proxy pool's country when `location` chose one: the profile's languages and zone follow it. */
  country: string | undefined;
  runJs: boolean;
  screenshot: boolean;
  abort: TaskAbort;
  /** The task's byte budget: each fetch is capped at what is left of it. */
  budget: TaskBudget;
}

export interface FlowRun {
  /** The page step's HTTP status (the attempts loop retries 5xx and 429). */
  status: number;
  /** The page step's `Retry-After` in ms (the attempts loop waits it on 429 and 503, within the deadline). */
  retryAfterMs?: number;
  page: Fetched;
  /** Bodies kept by `keep` steps and follow-ups, by step name. */
  parts: Record<string, string[]>;
  /** The flow's variables at the end (what its readers found). */
  vars: Readonly<Vars>;
  /** Returned as a last resort by a check that says it is not charged (a bot wall). */
  uncharged?: boolean;
  requestBytes: number;
  responseBytes: number;
  /** The file a media step wrote (a temp file: the caller uploads it and removes `media.dir`). */
  media?: MediaFile;
}

/** What the last attempt's check said, so that running out of attempts can report it. */
interface Memo {
  verdict: Extract<Verdict, { ok: false }> | undefined;
  run: FlowRun | undefined;
  /** Walls met so far: the next attempt's identity is that many rows further (ProfileRequest.fresh). */
  walls: number;
}

/** A plain flow met walls on every attempt and may escalate, in a thread without a browser. */
export class NeedsBrowser extends Error {
  constructor(readonly verdict: Extract<Verdict, { ok: false }>) {
    super(verdict.message);
  }
}

export async function runFlow(flow: Flow, ctx: FlowContext, rotation: ProxyRotation): Promise<FlowRun> {
  const { limits } = ctx.env.setup;
  const memo: Memo = { verdict: undefined, run: undefined, walls: 0 };
  if (ctx.escalated) {
    // The plain attempts ran in a fetch thread; this render thread gives the browser its turn
    // on the proxy after them, with the identity after theirs.
    memo.walls = limits.maxAttempts;
    const rendered = await escalate(flow, ctx, rotation.pick(limits.maxAttempts), memo);
    if (rendered) return rendered;
    throw new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', 'Every plain attempt met a bot wall, and the attempt in the browser did not get the page either.');
  }
  try {
    return await withAttempts({ maxAttempts: limits.maxAttempts, baseMs: limits.retryBaseMs, abort: ctx.abort, rotation }, (proxy) => {
      memo.verdict = undefined;
      memo.run = undefined;
      return attempt(flow, ctx, proxy, memo);
    });
  } catch (err) {
    const v = memo.verdict;
    if (!v || !(err instanceof GleanerError) || err.code !== 'REQUEST_FAILED_AFTER_MANY_RETRIES') throw err;
    const run = memo.run;
    if (v.wall && mayEscalate(flow, ctx) && !ctx.canRender) throw new NeedsBrowser(v);
    const rendered = v.wall ? await escalate(flow, ctx, rotation.pick(limits.maxAttempts), memo) : undefined;
    if (rendered) return rendered;
    if (v.lastResort === 'return' && run) return v.uncharged ? { ...run, uncharged: true } : run;
    throw new GleanerError(v.code, v.message, v.data);
  }
}

/**
 * The browser attempt after plain walls, when the flow's family allows it and time is left:
 * the run it returns (a page, or the wall the browser met too, returned as the check says),
 * or undefined to keep the plain outcome (not allowed, no time, or the attempt failed).
 */
async function escalate(flow: Flow, ctx: FlowContext, proxy: ProxyEntry | null, memo: Memo): Promise<FlowRun | undefined> {
  if (!mayEscalate(flow, ctx)) return undefined;
  memo.verdict = undefined;
  memo.run = undefined;
  try {
    const run = await attempt(flow, { ...ctx, runJs: true }, proxy, memo);
    return run.status < 500 && run.status !== 429 ? run : undefined;
  } catch (err) {
    // The deadline or a cancel ends the task as it would have anyway.
    if (ctx.abort.aborted) throw err;
    // (set by the attempt: the reset above does not narrow what it wrote)
    const v = memo.verdict as Memo['verdict'];
    const run = memo.run as Memo['run'];
    if (v?.wall && v.lastResort === 'return' && run) return v.uncharged ? { ...run, uncharged: true } : run;
    return undefined;
  }
}

function mayEscalate(flow: Flow, ctx: FlowContext): boolean {
  if (flow.escalate !== 'browser' || ctx.runJs || ctx.abort.aborted) return false;
  return ctx.msg.task.deadline - Date.now() >= ESCALATION_RESERVE_MS;
}

async function attempt(flow: Flow, ctx: FlowContext, proxy: ProxyEntry | null, memo: Memo): Promise<FlowRun> {
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
  const fetchStep = async (req: PageRequest, asPage: boolean): Promise<Fetched> => {
    const maxBytes = ctx.budget.cap();
    let res: Fetched;
    try {
      if (asPage && ctx.runJs) {
        res = await renderPage(ctx.msg, env, withoutCookieHeader(req), proxy, profile, { screenshot: ctx.screenshot, cookies: browserCookies(jar, req), maxBytes }, abort.signal);
      } else if (ctx.canRender && navigatesInBrowser(env.setup, req)) {
        // Chrome's own network stack (nav-page.ts): a fetch thread never gets here (run-task.ts).
        res = await navPage(ctx.msg, env, req, proxy, profile, { jar, maxBytes, manualRedirects: req.manualRedirects === true }, abort.signal);
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
      res = await fetchStep(request, asPage);
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
