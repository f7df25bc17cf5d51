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
 * What one attempt does (the steps, the check, the media step) is in flow-attempt.ts.
 */
import { GleanerError } from '../../core/errors.js';
import type { Flow, Vars, Verdict } from '../../core/targets/flow.js';
import type { DeviceName } from '../devices.js';
import type { TaskMessage } from '../messages.js';
import type { ProxyEntry, ProxyRotation } from '../net/proxies.js';
import type { TaskAbort } from './abort.js';
import { withAttempts } from './attempts.js';
import type { TaskBudget } from './budget.js';
import type { WorkerEnv } from './env.js';
import { attempt, type Memo } from './flow-attempt.js';
import type { MediaFile } from './media-step.js';
import type { Fetched } from './page-fetch.js';

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
