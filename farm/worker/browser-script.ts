/**
 * Worker side: runs a flow's browser script (core/targets/flow.ts `BrowserStep`) — a chat page
 * asked one question. A fresh context per run (optionally seeded with a signed-in storage
 * state), through the same lease, guard proxy and SSRF check as a rendered page (page-fetch.ts).
 * The page is polled (browser-probe.ts) while the script waits: dialogs are clicked away,
 * failure states end the attempt with the step's verdict, and the answer is complete when a
 * completion signal holds, every observed stream has ended and the text has stopped changing.
 * Every wait ends before the task's deadline, and the abort signal closes the page at once.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page, Response } from 'patchright-core';
import { GleanerError } from '../../core/errors.js';
import type { BrowserAction, BrowserStep, Completion, ScriptFailure } from '../../core/targets/browser-step.js';
import type { Vars, Verdict } from '../../core/targets/flow.js';
import type { BrowserStorageState } from '../browser/context-lease.js';
import { openPage } from '../browser/identity.js';
import type { BrowserProfile } from '../identity/profile.js';
import { REFUSED_HEADER } from '../net/guard-proxy.js';
import type { ProxyEntry } from '../net/proxies.js';
import { checkUrl } from '../net/ssrf.js';
import { captureAll, probe, type ProbeState } from './browser-probe.js';
import type { FlowContext } from './flow.js';
import { fillRequest } from './flow-vars.js';
import { openLease, type Fetched } from './page-fetch.js';

/** How often a waiting script looks at the page. */
const POLL_MS = 150;
/** The script gives up this long before the task deadline, so its own detail is reported. */
const DEADLINE_RESERVE_MS = 750;
/** One click's own wait before the script looks for a dialog in the way and tries again. */
const CLICK_TRY_MS = 1000;

export type ScriptOutcome =
  | { ok: true; page: Fetched; parts: Record<string, string[]> }
  | { ok: false; kind: ScriptFailure; verdict: Extract<Verdict, { ok: false }> };

/** A failure the page showed: caught at the top and turned into the step's verdict. */
class Failed extends Error {
  constructor(
    readonly kind: ScriptFailure,
    readonly detail: string,
  ) {
    super(detail);
  }
}

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

/** Bodies of the streamed responses; `pending` counts those still open. */
class Streams {
  readonly bodies: string[] = [];
  pending = 0;
  constructor(page: Page, pattern: string | undefined) {
    if (!pattern) return;
    const re = new RegExp(pattern);
    page.on('response', (res: Response) => {
      if (!re.test(res.url())) return;
      this.pending++;
      // Resolves when the stream ends; a never-ending one stays pending until the page closes.
      res.text().then(
        (body) => void this.bodies.push(body),
        () => undefined,
      ).finally(() => this.pending--);
    });
  }
}

class Script {
  readonly streams: Streams;
  /** When each failure selector was first seen showing (for states that may clear by themselves). */
  private readonly since = new Map<string, number>();
  private readonly dismiss: readonly string[];

  constructor(
    private readonly page: Page,
    private readonly step: BrowserStep,
    private readonly vars: Readonly<Vars>,
    private readonly deadline: number,
    private readonly signal: AbortSignal,
  ) {
    this.streams = new Streams(page, step.stream);
    this.dismiss = step.dismiss ?? [];
  }

  left(): number {
    return this.deadline - DEADLINE_RESERVE_MS - Date.now();
  }

  async perform(action: BrowserAction): Promise<void> {
    switch (action.do) {
      case 'type': {
        await this.waitFor(action.selector, 'the composer');
        const text = action.text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, name: string) => this.vars[name] ?? '');
        await this.retrying(action.selector, (timeout) => this.page.locator(action.selector).first().fill(text, { timeout }));
        return;
      }
      case 'click': {
        if (action.optional) {
          const [shown] = (await this.look([action.selector])).shown.slice(-1);
          if (shown) await this.page.locator(action.selector).first().click({ timeout: CLICK_TRY_MS }).catch(() => undefined);
          return;
        }
        await this.waitFor(action.selector, 'a control');
        await this.retrying(action.selector, (timeout) => this.page.locator(action.selector).first().click({ timeout }));
        return;
      }
      case 'complete':
        return this.complete(action.completion);
    }
  }

  /** One poll: failure states, dialogs to click away, then what the caller asked about. */
  private async look(visible: readonly string[], answer?: string): Promise<ProbeState> {
    if (this.signal.aborted) throw this.signal.reason;
    const failures = this.step.failures ?? [];
    const state = await probe(this.page, { visible: [...failures.map((f) => f.selector), ...this.dismiss, ...visible], answer });
    const now = Date.now();
    failures.forEach((f, i) => {
      if (!state.shown[i]) return void this.since.delete(f.selector);
      const first = this.since.get(f.selector) ?? now;
      this.since.set(f.selector, first);
      if (now - first >= (f.clearsWithinMs ?? 0)) {
        throw new Failed(f.kind, f.clearsWithinMs ? `${describe(f.kind)} (${f.selector}) did not clear within ${f.clearsWithinMs} ms` : `${describe(f.kind)} (${f.selector})`);
      }
    });
    const dialogs = this.dismiss.filter((_, i) => state.shown[failures.length + i]);
    for (const sel of dialogs) await this.page.locator(sel).first().click({ timeout: CLICK_TRY_MS }).catch(() => undefined);
    return { shown: state.shown.slice(failures.length + this.dismiss.length), answer: state.answer };
  }

  /** Until `selector` shows; after `selectorMs` the page counts as changed. */
  private async waitFor(selector: string, what: string): Promise<void> {
    const until = Date.now() + this.step.selectorMs;
    for (;;) {
      if ((await this.look([selector])).shown[0]) return;
      this.checkDeadline();
      if (Date.now() >= until) throw new Failed('selector', `${what} (${selector}) is missing`);
      await this.pause();
    }
  }

  /** An action that a dialog may be in the way of: look (clicking dialogs away) and try again. */
  private async retrying(selector: string, act: (timeout: number) => Promise<void>): Promise<void> {
    const until = Date.now() + this.step.selectorMs;
    for (;;) {
      try {
        return await act(Math.max(1, Math.min(CLICK_TRY_MS, this.left())));
      } catch {
        this.checkDeadline();
        if (Date.now() >= until) throw new Failed('selector', `the element ${selector} could not be used`);
        await this.look([]);
      }
    }
  }

  private async complete(c: Completion): Promise<void> {
    const selectors = c.signals.map((s) => ('visible' in s ? s.visible : s.gone));
    let text: string | null = null;
    let changed = Date.now();
    let missingSince: number | undefined;
    // A `gone` signal also holds before the page has started answering; only one seen showing
    // and then gone (or a `visible` signal, or a stream that ended) says the page has answered.
    const seen = c.signals.map(() => false);
    let streamed = false;
    for (;;) {
      const state = await this.look(selectors, c.answer);
      const now = Date.now();
      const signalled = c.signals.some((s, i) => ('visible' in s ? state.shown[i] : !state.shown[i]));
      const settled = signalled && this.streams.pending === 0;
      c.signals.forEach((_, i) => (seen[i] ||= state.shown[i]!));
      streamed ||= this.streams.bodies.length > 0 && this.streams.pending === 0;
      const answered = streamed || c.signals.some((s, i) => ('visible' in s ? state.shown[i] : seen[i] && !state.shown[i]));
      if (state.answer !== text) {
        text = state.answer;
        changed = now;
      }
      if (settled && text && now - changed >= c.stableMs) return;
      // The page says it has answered, but the answer is not where the selector looks.
      missingSince = settled && answered && text === null ? (missingSince ?? now) : undefined;
      if (missingSince !== undefined && now - missingSince >= this.step.selectorMs) throw new Failed('selector', `the answer (${c.answer}) is missing`);
      this.checkDeadline(text ? ` (${text.length} characters so far)` : '');
      await this.pause();
    }
  }

  private checkDeadline(so = ''): void {
    if (this.left() <= 0) throw new Failed('incomplete', `the answer did not complete before the job's deadline${so}`);
  }

  private pause(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(t);
        reject(this.signal.reason);
      };
      const t = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(1, Math.min(POLL_MS, this.left())));
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function describe(kind: ScriptFailure): string {
  switch (kind) {
    case 'login':
      return 'a login wall';
    case 'challenge':
      return 'a bot challenge';
    case 'rate_limit':
      return 'a rate-limit notice';
    default:
      return kind;
  }
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
