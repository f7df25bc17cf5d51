/**
 * Which plain requests Chromium's network stack makes (worker/nav-page.ts makes them), decided
 * the same way on both sides of the pool: in a worker, per request and per flow; on the main
 * thread, per task, before the task is sent anywhere (pool.ts).
 *
 * `GLEANER_PLAIN_CLIENT` (core/config.ts, README "What a site sees"):
 * - `auto` (default): a navigation (a GET with Chrome's navigation headers) to an `https://`
 *   URL goes through the browser when the browser is full Chromium. That is where the native
 *   client differs from Chrome at all: its TLS ClientHello lacks what Chrome 156 adds (README
 *   "The TLS gap"); over cleartext HTTP its request is Chrome's, header for header, so it keeps
 *   the native client's speed. The headless shell's own ClientHello is no closer to Chrome's
 *   than the native client's, so with the shell `auto` is `native`.
 * - `chromium`: every http(s) navigation through the browser.
 * - `native`: never (the wreq-js client: fastest, JA4 of Chrome ≤ 155).
 * A script's fetch() (JSON calls, POST bodies) and media ranges always use the native client:
 * a real page would make those from its own scripts, not as navigations.
 */
import type { Config } from '../../core/config.js';
import type { Flow } from '../../core/targets/flow.js';
import { planFlows } from '../../core/targets/index.js';
import type { ScrapeTask } from '../../core/wire.js';
import { isHeadlessShell } from '../chromium-args.js';
import { kindOf, type HeaderRequest } from '../identity/headers.js';
import { routeFor } from '../routes.js';

/** What the decision reads: a worker's setup has it, and so does the pool. */
export interface BrowserNetSetup {
  config: Pick<Config, 'plainClient' | 'targets'>;
  browserLaunch: { executablePath: string | undefined };
}

/** What is read of a request. */
export type NavRequest = Pick<HeaderRequest, 'url' | 'method' | 'headers'>;

/** Whether Chromium's network stack makes this request (see the file comment). */
export function navigatesInBrowser(setup: BrowserNetSetup, req: NavRequest): boolean {
  const mode = setup.config.plainClient;
  if (mode === 'native' || req.method !== 'GET' || kindOf(req) !== 'navigate') return false;
  if (mode === 'chromium') return /^https?:/i.test(req.url);
  return /^https:/i.test(req.url) && !isHeadlessShell(setup.browserLaunch.executablePath);
}

/** Whether any fetch step of `flow` would (decided on its URL template: a built URL stays native). */
export function flowNavigatesInBrowser(setup: BrowserNetSetup, flow: Flow): boolean {
  return flow.steps.some((s) => s.kind === 'fetch' && typeof s.url === 'string' && navigatesInBrowser(setup, { url: s.url, method: s.method ?? 'GET', headers: s.headers }));
}

/**
 * Whether a plain task's flows would navigate in the browser, as its worker will decide
 * (run-task.ts plans the same flows). False when the task cannot be planned: its worker then
 * answers the refusal.
 */
export function taskNavigatesInBrowser(setup: BrowserNetSetup, task: ScrapeTask): boolean {
  // No request can (native, or auto with the headless shell): no planning on the main thread.
  const mode = setup.config.plainClient;
  if (mode === 'native' || (mode === 'auto' && isHeadlessShell(setup.browserLaunch.executablePath))) return false;
  try {
    return planFlows(routeFor(task.routeId), task.params, setup.config.targets).some((f) => flowNavigatesInBrowser(setup, f));
  } catch {
    return false;
  }
}
