/**
 * Worker side: runs a flow's browser script (core/targets/browser-step.ts `BrowserStep`) — a
 * chat page asked one question. A fresh context per run (optionally seeded with a signed-in
 * storage state), through the same lease, guard proxy and SSRF check as a rendered page
 * (page-fetch.ts). The actions run in browser-actions.ts, polling the page (browser-probe.ts)
 * while they wait: dialogs are clicked away, failure states end the attempt with the step's
 * verdict, and the answer is complete when a completion signal holds, every observed stream has
 * ended and the text has stopped changing. Every wait ends before the task's deadline, and the
 * abort signal closes the page at once.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'patchright-core';
import { GleanerError } from '../../core/errors.js';
import type { BrowserAction, BrowserStep, ScriptFailure } from '../../core/targets/browser-step.js';
import type { Vars, Verdict } from '../../core/targets/flow.js';
import type { BrowserStorageState } from '../browser/context-lease.js';
import { openPage } from '../browser/identity.js';
import type { BrowserProfile } from '../identity/profile.js';
import { REFUSED_HEADER } from '../net/guard-proxy.js';
import type { ProxyEntry } from '../net/proxies.js';
import { checkUrl } from '../net/ssrf.js';
import { DEADLINE_RESERVE_MS, Failed, Script } from './browser-actions.js';
import { captureAll } from './browser-probe.js';
import type { FlowContext } from './flow.js';
import { fillRequest } from './flow-vars.js';
import { openLease, type Fetched } from './page-fetch.js';

export type ScriptOutcome =
  | { ok: true; page: Fetched; parts: Record<string, string[]> }
  | { ok: false; kind: ScriptFailure; verdict: Extract<Verdict, { ok: false }> };

export async function runBrowserStep(step: BrowserStep, vars: Readonly<Vars>, ctx: FlowContext, proxy: ProxyEntry | null, profile: BrowserProfile): Promise<ScriptOutcome> {
  const { env, msg, abort } = ctx;
  const signal = abort.signal;
  const url = fillRequest(step.name, { url: step.url }, vars).url;
  checkUrl(url, env.policy);
  const storageState = step.storageState ? await storageStateOf(step.storageState) : undefined;
  // A unique key: the context is this run's alone, and is closed with it (fresh per question).
  const { lease, browser, lost } = await openLease(msg, env, proxy, profile, { cookieKey: `script:${randomUUID()}`, storageState }, signal);
  let page: Page | undefined;
  const onAbort = () => void page?.close().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // A page that presents the session's profile, as a rendered page does (browser/identity.ts).
    page = (await openPage(lease.context, profile)).page;
    if (signal.aborted) onAbort();
    const script = new Script(page, step, vars, msg.task.deadline, signal);
    const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, script.left()) });
    if (response?.headers()[REFUSED_HEADER] !== undefined) {
      throw new GleanerError('TARGET_FORBIDDEN', 'The chat page resolves to a private or reserved address.');
    }
    const status = response?.status() ?? 200;
    if (status < 400) for (const action of step.actions) if (matches(action, vars)) await script.perform(action);
    const captured = step.capture && status < 400 ? await captureAll(page, step.capture) : {};
    const html = await page.content();
    const parts: Record<string, string[]> = { stream: script.streams.bodies, capture: [JSON.stringify(captured)] };
    const streamBytes = script.streams.bodies.reduce((n, b) => n + Buffer.byteLength(b), 0);
    const max = env.setup.config.maxResponseBytes;
    if (Buffer.byteLength(html) + streamBytes > max) throw new GleanerError('RESPONSE_TOO_LARGE', `The chat page and its stream are larger than ${max} bytes.`, { maxBytes: max });
    const fetched: Fetched = {
      url: page.url(),
      status,
      headers: {},
      body: html,
      isHtml: true,
      binary: false,
      screenshot: null,
      runJs: true,
      requestBytes: url.length + 300,
      responseBytes: Buffer.byteLength(html) + streamBytes,
    };
    return { ok: true, page: fetched, parts };
  } catch (err) {
    if (err instanceof Failed) return { ok: false, kind: err.kind, verdict: step.failed(err.kind, err.detail) };
    if (signal.aborted) throw signal.reason instanceof GleanerError ? signal.reason : new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT');
    if (err instanceof GleanerError) throw err;
    if (Date.now() >= msg.task.deadline - DEADLINE_RESERVE_MS - 50) throw new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT', 'The chat page did not open before the deadline.');
    if (!browser.isConnected()) throw lost('The browser went away during the chat.');
    const net = /net::(ERR_[A-Z_]+)/.exec(err instanceof Error ? err.message : String(err))?.[1];
    throw new GleanerError('UPSTREAM_FAILED', `The chat page failed${net ? ` (${net})` : ''}.`);
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (page) await Promise.race([page.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    lease.release(true);
  }
}

function matches(action: BrowserAction, vars: Readonly<Vars>): boolean {
  return !action.when || vars[action.when.var] === action.when.equals;
}

/** Storage-state files, read once per worker (an operator replaces the file and restarts). */
const states = new Map<string, Promise<BrowserStorageState>>();

function storageStateOf(path: string): Promise<BrowserStorageState> {
  let state = states.get(path);
  if (!state) {
    state = readFile(path, 'utf8').then(
      (text) => JSON.parse(text) as BrowserStorageState,
      () => {
        throw new GleanerError('INTERNAL_ERROR', `The storage-state file ${path} cannot be read.`);
      },
    );
    state.catch(() => states.delete(path));
    states.set(path, state);
  }
  return state;
}
