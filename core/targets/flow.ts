/**
 * A flow is how one page of a target is obtained, as data the farm executes: usually a single
 * fetch; sometimes a chain in which a later step reads a token or a cookie from an earlier one
 * (a delivery location set before the product page, a caption track read from the watch page,
 * continuation pages). Every step gets the farm's retries, proxy, SSRF guard and deadline, and
 * a flow's steps share one cookie jar and one proxy. `core/` declares flows; `farm/` runs them.
 *
 * Hooks (`fn` readers, `more.next`, `when`, `check`, a media step's `choose`) are pure functions of what the flow has seen: they
 * keep core free of I/O while letting a family say what cannot be said with a pattern.
 */
import type { ErrorCode } from '../errors.js';
import type { BrowserStep } from './browser-step.js';

/** Variables a flow carries from step to step (`{{name}}` in a later step's url, headers, body). */
export type Vars = Record<string, string>;

/** Where a step reads a value after its response. */
export type Reader =
  | { from: 'cookie'; name: string }
  | { from: 'header'; name: string }
  /** The first capture group of `pattern` in the body. */
  | { from: 'body'; pattern: RegExp }
  /** A string or number at `path` of the body parsed as JSON. */
  | { from: 'json'; path: readonly (string | number)[] }
  | { from: 'fn'; read: (body: string, vars: Readonly<Vars>) => string | undefined };

/** The request a follow-up makes (continuation pages): the same fields as a step's request. */
export interface StepRequest {
  method?: 'GET' | 'POST';
  /**
   * Absolute URL; `{{var}}` is replaced URL-encoded. A function builds the URL from the
   * variables instead (a signed URL read whole from an earlier response).
   */
  url: string | ((vars: Readonly<Vars>) => string);
  /** `{{var}}` replaced verbatim; a value with CR or LF fails the step. */
  headers?: Readonly<Record<string, string>>;
  /** `{{var}}` replaced JSON-escaped (inside a JSON string literal of the template). */
  body?: string;
}

export interface FetchStep extends StepRequest {
  kind: 'fetch';
  /** Names the step in `parts`, in logs and in error details: `session`, `address-change`, `page`. */
  name: string;
  /** Its response is the page the outputs are built from; one step per flow, default the last. */
  page?: boolean;
  /** Keep its body(ies) for the parser as `parts[name]`. */
  keep?: boolean;
  /** Values read from the response into the flow's variables. A reader that finds nothing leaves the name unset. */
  read?: Readonly<Record<string, Reader>>;
  /** A failed optional step (network error, non-2xx) does not fail the flow; its reads stay unset. */
  optional?: boolean;
  /** Session setup: skipped when the flow's session (cookies and variables) is reused. */
  setup?: boolean;
  /** The step runs only when this says so (a fallback needed only when an earlier step found nothing). */
  when?: (vars: Readonly<Vars>) => boolean;
  /**
   * Follow-ups of this step: after each response, `next` returns the next request or undefined
   * (no more, or enough). `gathered` holds the follow-up bodies kept so far (empty on the first
   * call). Each follow-up body is kept under `parts[name]`; at most `max` are made, and none once
   * the deadline is near (the flow then ends with what it has).
   */
  more?: {
    next: (body: string, count: number, vars: Readonly<Vars>, gathered: readonly string[]) => StepRequest | undefined;
    max: number;
  };
}

/** One stream a media step downloads: a direct URL the page listed, and what it carries. */
export interface MediaSource {
  /** `muxed`: video and audio in one file; `video`/`audio`: one track of an adaptive pair. */
  role: 'muxed' | 'video' | 'audio';
  url: string;
  /** Declared size in bytes, when the page states it (checked against the media cap before fetching). */
  size: number | null;
}

/** What a media step takes from the page: the streams to fetch, or why the media cannot be had. */
export type MediaChoice =
  | {
      ok: true;
      sources: readonly MediaSource[];
      /** Container of the file written: `mp4`, `webm`, `mkv`, `m4a`. */
      container: string;
      /** Facts of the chosen formats for the result JSON (`video_format`, `audio_format`, ...). */
      facts: Readonly<Record<string, unknown>>;
    }
  | { ok: false; code: ErrorCode; message: string; data?: Record<string, unknown> };

/**
 * A media download (the video platform's `download`): after the page step and the check, the
 * farm asks `choose` which streams the page offers, fetches them with ranged requests on the
 * attempt's proxy, cuts `range` and remuxes them with ffmpeg; the task then uploads the file to
 * the job's storage. Declared by the planner, executed by farm/worker/media-step.ts; at most one
 * per flow, after its fetch steps.
 */
export interface MediaStep {
  kind: 'media';
  name: string;
  /** Pure: the page step's body (and the variables) → the streams, or a refusal. */
  choose: (page: string, vars: Readonly<Vars>) => MediaChoice;
  /** `audio`: the audio track only; `video`: video with its audio. */
  output: 'video' | 'audio';
  /** Seconds from the start; `end` undefined runs to the end. */
  range: { start: number; end?: number };
  /** Sent with every media request (verbatim, no placeholders). */
  headers?: Readonly<Record<string, string>>;
}

export type Step = FetchStep | BrowserStep | MediaStep;

/** The page step's response as a flow's `check` sees it. */
export interface StepResponse {
  url: string;
  status: number;
  body: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * What a flow's `check` says of the page: good, or a failed attempt. `retry: true` tries again
 * (on the next proxy, with a fresh session); when every attempt fails, the page ends with `code`
 * and `message` — or, with `lastResort: 'return'`, the last page is returned as it is (a bot
 * wall whose parser then says `blocked`). `retry: false` ends it at once.
 */
export type Verdict =
  | { ok: true }
  | {
      ok: false;
      retry: boolean;
      code: ErrorCode;
      message: string;
      data?: Record<string, unknown>;
      lastResort?: 'fail' | 'return';
      /** A page returned as a last resort is not charged (a bot wall carries no content). */
      uncharged?: boolean;
      /**
       * The page is a bot wall or a JavaScript challenge (not a content problem such as a
       * location that did not apply): the next attempt presents a fresh identity, and a flow
       * whose family allows it (`escalate`) is tried once more in the browser.
       */
      wall?: boolean;
    };

export interface Flow {
  /** 1-based page number of the page this flow produces (`results[].metadata.page`). */
  page: number;
  steps: readonly Step[];
  /** Initial variables. */
  vars?: Readonly<Vars>;
  /**
   * The setup steps' cookies and variables may be reused by later flows with the same key in
   * the same worker for `ttlMs` (a marketplace session per domain and postal code).
   */
  session?: { key: string; ttlMs: number };
  /** Judges the page response inside the attempt (bot walls, a location that was not applied). */
  check?: (page: StepResponse, vars: Readonly<Vars>) => Verdict;
  /**
   * Escalation (set from the family's adapter data, `TargetAdapter.escalation`): when every
   * plain attempt met a wall, the flow runs once more with its page step in the browser.
   */
  escalate?: 'browser';
}

/** A one-fetch flow: the common case. */
export function single(url: string, page = 1, extra: Partial<Omit<FetchStep, 'kind' | 'url'>> = {}): Flow {
  return { page, steps: [{ kind: 'fetch', name: 'page', url, ...extra }] };
}

/** What a wall detector saw: a phrase for the problem detail, and data for it. */
export interface WallSeen {
  /** `mkt1 answered with its robot check`. */
  what: string;
  data?: Record<string, unknown>;
}

/**
 * A check that treats a bot wall (captcha, consent page, bot check) as a failed attempt:
 * retried on the next proxy; when every attempt met one, the last is returned as it is (its
 * parser then says `blocked`) and not charged — or, with `lastResort: 'fail'` (a download has
 * nothing to return), the page ends with the problem.
 */
export function wallCheck(seen: (page: StepResponse) => WallSeen | undefined, lastResort: 'return' | 'fail' = 'return'): NonNullable<Flow['check']> {
  return (page) => {
    const wall = page.status < 500 ? seen(page) : undefined;
    if (!wall) return { ok: true };
    return {
      ok: false,
      retry: true,
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: `${wall.what} instead of the page on every attempt.`,
      ...(wall.data ? { data: wall.data } : {}),
      lastResort,
      ...(lastResort === 'return' ? { uncharged: true } : {}),
      wall: true,
    };
  };
}

/** Checks in order; the first verdict that is not ok wins. */
export function allChecks(...checks: (Flow['check'] | undefined)[]): Flow['check'] {
  const present = checks.filter((c): c is NonNullable<Flow['check']> => c !== undefined);
  if (present.length <= 1) return present[0];
  return (page, vars) => {
    for (const check of present) {
      const verdict = check(page, vars);
      if (!verdict.ok) return verdict;
    }
    return { ok: true };
  };
}

/** The URL of a flow's page step when it is a fixed string (one-fetch flows, the default convention). */
export function pageUrl(flow: Flow | undefined): string | undefined {
  const steps = flow?.steps ?? [];
  const step = steps.find((s): s is FetchStep => s.kind === 'fetch' && s.page === true) ?? steps.findLast((s): s is FetchStep => s.kind === 'fetch');
  return typeof step?.url === 'string' ? step.url : undefined;
}
