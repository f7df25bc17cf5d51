/**
 * Worker side: one ScrapeTask → TaskReply. Plans the flows (one per page: core/targets), runs
 * each with bounded attempts (flow.ts: the plain path, or a page in a browser context), and builds the
 * outputs. Errors leave as wire data; the reply is sent at the deadline even if some cleanup is
 * still running.
 */
import { GleanerError, toWireError } from '../../core/errors.js';
import { planFlows } from '../../core/targets/index.js';
import type { CrawlFindings, ScrapeOutcome, StoredMedia, TaskReply } from '../../core/wire.js';
import { deviceFor } from '../devices.js';
import type { TaskMessage } from '../messages.js';
import { ProxyRotation, proxyPoolFor } from '../net/proxies.js';
import { routeFor } from '../routes.js';
import { F_TASKS } from '../stats.js';
import { TaskAbort } from './abort.js';
import { TaskBudget } from './budget.js';
import { lazy } from './lazy.js';
import type { WorkerEnv } from './env.js';
import { NeedsBrowser, runFlow, type FlowContext } from './flow.js';
import { flowNavigatesInBrowser } from '../net/browser-net.js';
import { NeedsBrowserNet } from './nav-page.js';
import { outputFormats, pageResult } from './outputs.js';
import { persistResults } from './persist.js';
import { PageResults } from './results.js';

// Loaded by the first task that needs them (a crawl's, a media download's: lazy.ts).
const crawlPart = lazy('./crawl-part.js', () => import('./crawl-part.js'));
const mediaDelivery = lazy('./media-delivery.js', () => import('./media-delivery.js'));

/** After the deadline, how long the reply waits for cleanup (page close) before leaving. */
const CLEANUP_GRACE_MS = 1500;

export async function runTask(msg: TaskMessage, env: WorkerEnv): Promise<TaskReply> {
  const { task } = msg;
  const abort = new TaskAbort(task.deadline);
  const timer = setTimeout(() => abort.abort(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT')), Math.max(0, task.deadline - Date.now()));
  const unwatch = env.cancels.watch(msg.seq, () => abort.abort(new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.')));
  env.slot.add(F_TASKS, 1);
  // Async jobs: the results go to the store from here, not back to the main thread (persist.ts);
  // sync callers that write them out get them serialised page by page (results.ts).
  const work = execute(msg, env, abort).then((o) => (task.persist ? persistResults(env.setup.config, task.id, o) : o));
  try {
    // On abort, the reply waits for the work's cleanup (page close) at most CLEANUP_GRACE_MS.
    const aborted = new Promise<void>((resolve) => abort.onAbort(resolve)).then(() =>
      Promise.race([work.catch(() => undefined), delay(CLEANUP_GRACE_MS)]),
    );
    await Promise.race([work.catch(() => undefined), aborted]);
    if (abort.aborted) return { ok: false, error: toWireError(abort.reason) };
    return { ok: true, outcome: await work };
  } catch (err) {
    // Walls on every plain attempt, in a thread without a browser: the pool reruns the task in a
    // render thread with these flows marked (flow.ts).
    if (err instanceof EscalateTask) return { ok: false, error: toWireError(err.first), escalate: err.flows };
    // Plain navigations through the browser's network stack (nav-page.ts), in a thread without one.
    if (err instanceof NeedsBrowserNet) return { ok: false, error: toWireError(new GleanerError('INTERNAL_ERROR', err.message)), browserNet: true };
    return { ok: false, error: toWireError(err) };
  } finally {
    clearTimeout(timer);
    unwatch();
    env.slot.add(F_TASKS, -1);
  }
}

async function execute(msg: TaskMessage, env: WorkerEnv, abort: TaskAbort): Promise<ScrapeOutcome> {
  const started = Date.now();
  const { task } = msg;
  const { config } = env.setup;
  const route = routeFor(task.routeId);
  const params = task.params;
  const formats = outputFormats(params.output);
  // An assistant's answer is filled whatever `output` says (RouteSpec.outputKind).
  if (route.outputKind === 'answer') formats.add('json');
  const country = proxyCountry(config.proxies, params.location, route.location);
  const budget = new TaskBudget(config.taskMaxBytes, config.maxResponseBytes);
  const ctx: FlowContext = { msg, env, device: deviceFor(params.device), country, runJs: params.run_js === true, screenshot: formats.has('screenshot'), abort, budget, canRender: env.setup.pages > 0, escalated: false };
  const pool = proxyPoolFor(config.proxies, params.location, route.location, route.geo);
  const flows = planFlows(route, params, config.targets);
  // Before anything is fetched: a render thread runs the whole task, so one session never shows two clients.
  if (!ctx.canRender && !ctx.runJs && flows.some((f) => flowNavigatesInBrowser(env.setup, f))) throw new NeedsBrowserNet();
  const results = new PageResults(task.encode === true && !task.persist);
  let requestBytes = 0;
  let responseBytes = 0;
  let media: StoredMedia | undefined;
  let crawl: CrawlFindings | undefined;
  let firstStatus: number | undefined;
  /** Pages returned as a bot wall: answered, but not charged. */
  let uncharged = 0;
  /** A charged page came from the browser (run_js, or a plain flow escalated after walls). */
  let rendered = ctx.runJs;
  const escalate: number[] = [];
  let wall: NeedsBrowser | undefined;
  for (const [i, flow] of flows.entries()) {
    // The reply has left at the deadline; the pages after it are not fetched nor converted.
    if (abort.aborted) throw abort.reason;
    const flowStart = Date.now();
    let run;
    try {
      run = await runFlow(flow, { ...ctx, escalated: msg.escalate?.includes(i) === true }, new ProxyRotation(pool, rotationSeed(task.id, i)));
    } catch (err) {
      if (!(err instanceof NeedsBrowser)) throw err;
      escalate.push(i);
      wall ??= err;
      continue;
    }
    if (run.uncharged) uncharged++;
    else if (run.page.runJs) rendered = true;
    requestBytes += run.requestBytes;
    responseBytes += run.responseBytes;
    firstStatus ??= run.page.status;
    if (task.crawl) {
      // A crawl's or map's task: what the crawl reads from the page; only a crawl page has a result.
      const location = run.page.headers.location;
      crawl = { ...(await crawlPart()).crawlFindings(task.crawl, String(params.url), run.page, Array.isArray(location) ? location[0] : location), startedAt: flowStart };
      // A redirect answered as it is (a crawl page) has no result: its target is the crawl's next URL.
      if (crawl.redirected) continue;
      if (task.crawl.kind !== 'page') continue;
    }
    if (run.media) {
      // A media step's file goes to the job's bucket; the result names the object.
      const uploaded = await (await mediaDelivery()).deliverMedia(run, run.media, flow.page, msg, env, abort);
      media = uploaded.stored;
      results.add(uploaded.result);
      continue;
    }
    if (abort.aborted) throw abort.reason;
    results.add(await pageResult(run.page, { routeId: route.id, params, page: flow.page, formats, llm: config.llm, abort, parts: run.parts, markdown: env.markdown }));
  }
  if (wall) throw new EscalateTask(escalate, new GleanerError(wall.verdict.code, wall.verdict.message, wall.verdict.data));
  return {
    status: results.status || (firstStatus ?? 0),
    results: results.kept,
    ...(results.encoded ? { encoded: results.encoded } : {}),
    // A browser script (an assistant's chat page) is rendered whatever `run_js` says.
    usage: { pages: results.count - uncharged, render: rendered || flows.some((f) => f.steps.some((s) => s.kind === 'browser')), requestBytes, responseBytes, elapsedMs: Date.now() - started, ...(Object.keys(results.parse).length ? { parse: results.parse } : {}) },
    ...(media ? { media } : {}),
    ...(crawl ? { crawl } : {}),
  };
}

/** The country whose proxy pool serves the request (proxyPoolFor), if `location` chose one. */
function proxyCountry(proxies: Readonly<Record<string, readonly string[]>>, location: unknown, kind: string): string | undefined {
  if (typeof location !== 'string' || kind !== 'country') return undefined;
  const key = location.toLowerCase();
  return proxies[key]?.length ? key : undefined;
}

/** Where a flow's proxy rotation starts: from the task's id (its low digits vary), the same in every thread. */
function rotationSeed(taskId: string, flow: number): number {
  return Number(taskId.slice(-9)) + flow;
}

/** The flows (indexes) that need the browser, and the error the task ends with if it cannot have it. */
class EscalateTask extends Error {
  constructor(
    readonly flows: number[],
    readonly first: GleanerError,
  ) {
    super(first.message);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
