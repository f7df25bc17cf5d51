/**
 * An assistant question as a flow: one browser script built from the assistant's chat-page
 * data (data.ts). Open the page, type the question, set the toggles the request asks for
 * (`search` on llm1), send, wait for the completion signals (and the stream, where there is one),
 * then read the answer, the model and the citations by selector. The script's failures get
 * their problem here: which code, whether another proxy may help, and a detail naming the kind.
 */
import { targetConfig, baseFor, type Params, type Targets } from '../base.js';
import type { BrowserAction, BrowserStep, Capture, ScriptFailure } from '../browser-step.js';
import type { Flow, Vars, Verdict } from '../flow.js';
import type { RouteSpec } from '../../registry/types.js';
import { dataFor, isAssistant, type AssistantData, type ItemRule } from './data.js';

export function planAssistant(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  const token = route.target;
  if (!isAssistant(token)) throw new Error(`assistants: ${token} is not an assistant`);
  const cfg = targetConfig(targets, token);
  const data = dataFor(token, cfg.assistant);
  const vars: Vars = { query: typeof params.query === 'string' ? params.query : String(params.query ?? '') };
  const toggles: BrowserAction[] = [];
  for (const [param, values] of Object.entries(data.toggles ?? {})) {
    // An omitted parameter leaves the page's own default (the spec: neither value is neutral).
    if (params[param] === undefined) continue;
    vars[param] = String(params[param]);
    for (const [value, selector] of Object.entries(values)) toggles.push({ do: 'click', selector, optional: true, when: { var: param, equals: value } });
  }
  const actions: BrowserAction[] = [];
  if (data.composer && data.send) actions.push({ do: 'type', selector: data.composer, text: '{{query}}' }, ...toggles, { do: 'click', selector: data.send });
  else actions.push(...toggles);
  actions.push({ do: 'complete', completion: { answer: data.answer, signals: data.done, stableMs: data.stableMs } });
  const step: BrowserStep = {
    kind: 'browser',
    name: 'chat',
    url: `${baseFor(targets, token, params).url}${data.open}`,
    actions,
    failures: Object.entries(data.failures).map(([kind, selector]) => ({
      kind: kind as 'login' | 'challenge' | 'rate_limit',
      selector: selector as string,
      ...(kind === 'challenge' ? { clearsWithinMs: data.challengeClearsMs } : {}),
    })),
    dismiss: data.dismiss,
    ...(data.stream ? { stream: data.stream } : {}),
    capture: captureOf(data),
    selectorMs: data.selectorMs,
    ...(typeof cfg.storageState === 'string' ? { storageState: cfg.storageState } : {}),
    failed: (kind, detail) => verdict(token, kind, detail),
  };
  return [{ page: 1, steps: [step], vars }];
}

/** What the parsers read (parse.ts): the answer's HTML and text, the model, citations, sources, related questions. */
function captureOf(d: AssistantData): Record<string, Capture> {
  const out: Record<string, Capture> = {
    answer_html: { selector: d.answer, value: 'html' },
    answer_text: { selector: d.answer },
  };
  if (d.model) out.model = rule(d.model);
  const items = (r: ItemRule): Capture => ({ selector: r.item, pick: 'all', fields: r.fields });
  if (d.citations) out.citations = items(d.citations);
  if (d.sources) out.sources = items(d.sources);
  if (d.related) out.related = { selector: d.related, pick: 'all' };
  return out;
}

/** `sel@attr` → the attribute of the last match; `sel` → its text. */
function rule(r: string): Capture {
  const at = r.lastIndexOf('@');
  return at > 0 ? { selector: r.slice(0, at).trim(), value: `@${r.slice(at + 1)}` } : { selector: r };
}

/**
 * The problem of each failure. A login wall and a changed page do not get better on another
 * proxy: they end at once. A challenge and a rate-limit notice are tied to the address: tried
 * on the next proxy, then REQUEST_FAILED_AFTER_MANY_RETRIES. An answer that never completes
 * ends at the job's deadline.
 */
export function verdict(token: string, kind: ScriptFailure, detail: string): Extract<Verdict, { ok: false }> {
  const data = { assistant: token, failure: kind };
  switch (kind) {
    case 'login':
      return { ok: false, retry: false, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', data, message: `${token}: login wall: ${detail} instead of an answer; give the assistant a signed-in storageState in GLEANER_TARGETS.` };
    case 'challenge':
      return { ok: false, retry: true, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', data, message: `${token}: bot challenge: ${detail}, on every proxy tried.` };
    case 'rate_limit':
      return { ok: false, retry: true, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', data, message: `${token}: rate limited: ${detail}, on every proxy tried.` };
    case 'selector':
      return { ok: false, retry: false, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', data, message: `${token}: page changed: ${detail}; update its selectors (GLEANER_ASSISTANTS).` };
    case 'incomplete':
      return { ok: false, retry: false, code: 'REQUEST_FAILED_SCRAPE_TIMEOUT', data, message: `${token}: answer incomplete: ${detail}.` };
  }
}
