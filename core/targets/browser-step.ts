/**
 * The declarative browser script of a flow (chat pages): the step, its actions, completion
 * signals, failure states and captures. Only the assistants' planner declares one and only
 * farm/worker/browser-script.ts runs it, so its vocabulary lives apart from flow.ts, which keeps
 * the steps every family uses. Pure data and one pure hook (`failed`); no I/O.
 */
import type { Verdict } from './flow.js';

/**
 * A browser script (chat pages): open a page in a fresh browser context, run declarative
 * actions (dismiss dialogs, type, click, wait for completion), observe streamed responses and
 * read values by selectors. The farm runs it (farm/worker/browser-script.ts); the step is always
 * a flow's page step, and its page HTML is what the outputs are built from. Selectors are CSS
 * (Playwright's engine). Every wait is bounded by the task's deadline.
 */
export interface BrowserStep {
  kind: 'browser';
  name: string;
  /** The page to open; `{{var}}` is replaced URL-encoded. */
  url: string;
  actions: readonly BrowserAction[];
  /** Page states that end the attempt (a login wall, a challenge, a rate-limit notice). */
  failures?: readonly FailureSignal[];
  /** Dialogs clicked away whenever they show (consent, onboarding), during every wait. */
  dismiss?: readonly string[];
  /**
   * Responses whose URL matches this pattern (a RegExp source) are streamed answers (server-sent
   * events or a fetch stream): their bodies are kept as `parts.stream`, and the answer is not
   * complete before they have ended.
   */
  stream?: string;
  /** Values read by selectors once the answer is complete, kept as one JSON text in `parts.capture`. */
  capture?: Readonly<Record<string, Capture>>;
  /** How long an element the script needs may take to appear before the page counts as changed. */
  selectorMs: number;
  /** A signed-in storage-state file (Playwright's format) the fresh context starts from. */
  storageState?: string;
  /** The verdict of a failure the farm detected; `detail` says what was seen. */
  failed: (kind: ScriptFailure, detail: string) => Extract<Verdict, { ok: false }>;
}

/** How a browser script can fail besides the network: what `/metrics` counts per assistant. */
export type ScriptFailure = 'login' | 'challenge' | 'rate_limit' | 'selector' | 'incomplete';

export interface FailureSignal {
  kind: Exclude<ScriptFailure, 'selector' | 'incomplete'>;
  /** Visible → the failure (checked after the page opens and while waiting). */
  selector: string;
  /** A state that may clear by itself (a challenge that solves itself) fails only if still visible this long. */
  clearsWithinMs?: number;
}

/** Runs only when the flow variable `var` equals `equals` (a toggle such as `search`). */
export interface When {
  var: string;
  equals: string;
}

export type BrowserAction =
  /** Types `text` (`{{var}}` verbatim) into the element; missing after `selectorMs` fails the script. */
  | { do: 'type'; selector: string; text: string; when?: When }
  /** Clicks the element; `optional`: only if it is there now (no wait, no failure). */
  | { do: 'click'; selector: string; optional?: boolean; when?: When }
  /** Waits until the answer is complete. */
  | { do: 'complete'; completion: Completion; when?: When };

/**
 * The answer is complete when one of `signals` holds, every observed stream has ended, and the
 * answer's text is non-empty and unchanged for `stableMs`.
 */
export interface Completion {
  answer: string;
  /** `visible`: an element shows (the send control back, a "helpful" control); `gone`: none shows (the stop control). */
  signals: readonly ({ visible: string } | { gone: string })[];
  stableMs: number;
}

/**
 * A value read in the page: the text, inner HTML or an attribute (`@name`) of the first, last
 * or every match; with `fields`, each match gives an object whose fields are read the same
 * way relative to it (`sel`, `sel@attr`, `@attr`, or `.` for the match itself).
 */
export interface Capture {
  selector: string;
  pick?: 'first' | 'last' | 'all';
  value?: 'text' | 'html' | `@${string}`;
  fields?: Readonly<Record<string, string>>;
}
