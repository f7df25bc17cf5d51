/**
 * Worker side: a browser script's actions on its open page (browser-script.ts opens the page
 * and turns the outcome into the step's result). Types into the composer, clicks, and waits for
 * the completion signals, the observed streams and a stable answer; every wait polls the page
 * (browser-probe.ts), clicking dialogs away and ending the script with `Failed` when a failure
 * state shows for long enough. Kept apart from the page's lifecycle (lease, navigation, size
 * cap, close) because this is the part that knows the script's vocabulary.
 *
 * Concurrency: one Script per page, driven by one task; `Streams` counts responses that end on
 * their own schedule, so `pending` may fall between two polls (read it, never cache it). Every
 * wait ends before the deadline less DEADLINE_RESERVE_MS, and the abort signal rejects a pause
 * at once.
 */
import type { Page, Response } from 'patchright-core';
import type { BrowserAction, BrowserStep, Completion, ScriptFailure } from '../../core/targets/browser-step.js';
import type { Vars } from '../../core/targets/flow.js';
import { probe, type ProbeState } from './browser-probe.js';

/** How often a waiting script looks at the page. */
const POLL_MS = 150;
/** The script gives up this long before the task deadline, so its own detail is reported. */
export const DEADLINE_RESERVE_MS = 750;
/** One click's own wait before the script looks for a dialog in the way and tries again. */
const CLICK_TRY_MS = 1000;

/** A failure the page showed: caught at the top and turned into the step's verdict. */
export class Failed extends Error {
  constructor(
    readonly kind: ScriptFailure,
    readonly detail: string,
  ) {
    super(detail);
  }
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

export class Script {
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
