/**
 * Worker side: one ScrapeTask → TaskReply. Plans the fetches (one per page), fetches each with
 * bounded attempts (undici, or a page in a browser context), and builds the outputs. Errors
 * leave as wire data; the reply is sent at the deadline even if some cleanup is still running.
 */
import { GleanerError, toWireError } from '../../core/errors.js';
import { planFetches, type FetchPlan } from '../../core/targets/index.js';
import type { PageResult, ScrapeOutcome, TaskReply } from '../../core/wire.js';
import { render } from '../browser/render.js';
import type { Tab } from '../browser/tab.js';
import { deviceFor, requestHeaders, type DeviceProfile } from '../devices.js';
import type { TaskMessage } from '../messages.js';
import { decodeBody } from '../net/decode.js';
import { httpFetch } from '../net/fetcher.js';
import { ProxyRotation, proxyPoolFor, type ProxyEntry } from '../net/proxies.js';
import { checkUrl } from '../net/ssrf.js';
import { routeFor } from '../routes.js';
import { F_TASKS } from '../stats.js';
import { TaskAbort } from './abort.js';
import { withAttempts } from './attempts.js';
import type { WorkerEnv } from './env.js';
import { persistResults } from './persist.js';
import { outputFormats, pageResult, type FetchedPage } from './outputs.js';

/** After the deadline, how long the reply waits for cleanup (page close) before leaving. */
const CLEANUP_GRACE_MS = 1500;

export async function runTask(msg: TaskMessage, env: WorkerEnv): Promise<TaskReply> {
  const { task } = msg;
  const abort = new TaskAbort();
  const timer = setTimeout(() => abort.abort(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT')), Math.max(0, task.deadline - Date.now()));
  const unwatch = env.cancels.watch(msg.seq, () => abort.abort(new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.')));
  env.slot.add(F_TASKS, 1);
  // Async jobs: the results go to the store from here, not back to the main thread (persist.ts).
  const work = execute(msg, env, abort).then((o) => (task.persist ? persistResults(env.setup.config.dataDir, task.id, o) : o));
  try {
    // On abort, the reply waits for the work's cleanup (page close) at most CLEANUP_GRACE_MS.
    const aborted = new Promise<void>((resolve) => abort.onAbort(resolve)).then(() =>
      Promise.race([work.catch(() => undefined), delay(CLEANUP_GRACE_MS)]),
    );
    await Promise.race([work.catch(() => undefined), aborted]);
    if (abort.aborted) return { ok: false, error: toWireError(abort.reason) };
    return { ok: true, outcome: await work };
  } catch (err) {
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
  const { config, limits } = env.setup;
  const route = routeFor(task.routeId);
  const params = task.params;
  const formats = outputFormats(params.output);
  const device = deviceFor(params.device);
  const runJs = params.run_js === true;
  const pool = proxyPoolFor(config.proxies, params.location, route.location, route.geo);
  const plans = planFetches(route, params, config.targets);
  const results: PageResult[] = [];
  let requestBytes = 0;
  let responseBytes = 0;
  for (const plan of plans) {
    checkUrl(plan.url, env.policy);
    const rotation = new ProxyRotation(pool);
    const fetched = await withAttempts({ maxAttempts: limits.maxAttempts, baseMs: limits.retryBaseMs, abort, rotation }, (proxy) =>
      runJs ? renderAttempt(msg, env, plan, proxy, device, formats.has('screenshot'), abort.signal) : httpAttempt(env, plan, proxy, device, abort),
    );
    requestBytes += fetched.requestBytes;
    responseBytes += fetched.responseBytes;
    results.push(await pageResult(fetched, { routeId: route.id, params, page: plan.page, formats, llm: config.llm, abort }));
  }
  return {
    status: results[0]?.metadata.status_code ?? 0,
    results,
    usage: { pages: results.length, render: runJs, requestBytes, responseBytes, elapsedMs: Date.now() - started },
  };
}

async function httpAttempt(env: WorkerEnv, plan: FetchPlan, proxy: ProxyEntry | null, device: DeviceProfile, abort: TaskAbort): Promise<FetchedPage> {
  const res = await httpFetch(
    {
      url: plan.url,
      method: plan.method ?? 'GET',
      headers: { ...requestHeaders(device), ...plan.headers },
      body: plan.body,
      proxy,
      maxBytes: env.setup.config.maxResponseBytes,
      abort,
    },
    env.agents,
    env.policy,
  );
  const decoded = decodeBody(res.body, res.contentType);
  return {
    url: res.url,
    status: res.status,
    body: decoded.text,
    isHtml: decoded.isHtml,
    binary: decoded.binary,
    screenshot: null,
    runJs: false,
    requestBytes: res.requestBytes,
    responseBytes: res.body.length,
  };
}

async function renderAttempt(
  msg: TaskMessage,
  env: WorkerEnv,
  plan: FetchPlan,
  proxy: ProxyEntry | null,
  device: DeviceProfile,
  screenshot: boolean,
  signal: AbortSignal,
): Promise<FetchedPage> {
  // Shared mode: the pool names the node's browser server; per-worker mode: this thread's own.
  const ref = msg.browser;
  const lost = (message: string) => new GleanerError('BROWSER_CRASHED', message, ref ? { wsEndpoint: ref.wsEndpoint } : undefined);
  const browser = await (ref ? env.link.get(ref) : env.local.get()).catch((err: unknown) => {
    throw ref || !(err instanceof GleanerError) ? lost('The browser could not be reached.') : err;
  });
  const browserPid = ref ? ref.pid : env.local.currentPid;
  const guard = env.policy.allowPrivate ? undefined : await env.guards.get(proxy);
  let lease;
  try {
    lease = await env.contexts.acquire({ browser, browserPid, device, proxy, guardUrl: guard?.url }, signal);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (!browser.isConnected()) throw lost('The browser went away before the page opened.');
    throw err instanceof GleanerError ? err : new GleanerError('INTERNAL_ERROR', 'A browser context could not be opened.');
  }
  let ok = false;
  let tab: Tab | undefined;
  try {
    const rendered = await render(lease.context, lease.page, {
      url: plan.url,
      headers: plan.headers,
      screenshot,
      maxBytes: env.setup.config.maxResponseBytes,
      deadline: msg.task.deadline,
      quietMaxMs: env.setup.limits.quietMaxMs,
      signal,
      guard,
    });
    ok = true;
    tab = rendered.tab;
    const r = rendered.result;
    return { url: r.url, status: r.status, body: r.html, isHtml: true, binary: false, screenshot: r.screenshot, runJs: true, requestBytes: r.requestBytes, responseBytes: r.responseBytes };
  } catch (err) {
    // Only a browser that is gone is reported as lost (the pool then replaces it); a crashed
    // tab in a live browser is retried without touching the browser and its other pages.
    if (err instanceof GleanerError && err.code === 'BROWSER_CRASHED') {
      // Per-worker: a crash may be the browser dying; let it be seen going (briefly) so the
      // pool's retry does not land on it (shared mode: the pool waits for the server instead).
      if (!ref) await env.local.settle(browser, 1000);
      if (!browser.isConnected()) throw lost(err.message);
    }
    throw err;
  } finally {
    // A page that failed (timeout, crash, refusal, upstream error) takes its context with it.
    lease.release(!ok, tab);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
