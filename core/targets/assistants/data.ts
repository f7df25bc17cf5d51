/**
 * The assistants' chat-page data: for each of `llm1..3`, the page to open, the dialogs to click
 * away, the composer and send control, the completion signals, where the answer, the model and
 * the citations are, the failure states, and the streamed response to read. Shipped as one JSON
 * file per assistant beside this module; `GLEANER_ASSISTANTS=<file.json>` names a file of
 * `{ "<assistant>": { <keys to replace> } }` that replaces keys of the shipped data without a
 * release (core/config.ts carries it to the planner as `targets.<assistant>.assistant`).
 *
 * Read rules (`model`, citation fields) are `selector`, `selector@attribute`, `@attribute` (of
 * the item itself) or `.` (the item's text).
 */
import { compile } from 'css-select';
import LLM1 from './llm1.json' with { type: 'json' };
import LLM2 from './llm2.json' with { type: 'json' };
import LLM3 from './llm3.json' with { type: 'json' };

export const ASSISTANTS = ['llm1', 'llm2', 'llm3'] as const;
export type Assistant = (typeof ASSISTANTS)[number];

export interface ItemRule {
  item: string;
  fields: Record<string, string>;
}

export interface AssistantData {
  /** Path under the target's `baseUrl`; `{{query}}` is the question, URL-encoded. */
  open: string;
  dismiss: string[];
  /** Absent when the question travels in `open`'s URL. */
  composer?: string;
  send?: string;
  /** Controls clicked by a request parameter's value: `{ "search": { "true": sel, "false": sel } }`. */
  toggles?: Record<string, Record<string, string>>;
  done: Array<{ visible: string } | { gone: string }>;
  stableMs: number;
  answer: string;
  model?: string;
  citations?: ItemRule;
  sources?: ItemRule;
  related?: string;
  /** RegExp source matched against response URLs: the streamed answer. */
  stream?: string;
  failures: Partial<Record<'login' | 'challenge' | 'rate_limit', string>>;
  challengeClearsMs: number;
  selectorMs: number;
}

export const SHIPPED: Readonly<Record<Assistant, AssistantData>> = { llm1: LLM1, llm2: LLM2, llm3: LLM3 };

export function isAssistant(token: string): token is Assistant {
  return (ASSISTANTS as readonly string[]).includes(token);
}

/** The shipped data with an operator's replacement keys on top (validated at start). */
export function dataFor(token: Assistant, override: unknown): AssistantData {
  const base = SHIPPED[token];
  return isObject(override) ? ({ ...base, ...override } as AssistantData) : base;
}

/** Problems of one assistant's data (shipped keys with `override` on top); empty when good. */
export function checkData(token: Assistant, override: unknown): string[] {
  if (override !== undefined && !isObject(override)) return ['must be an object of keys to replace'];
  const d = dataFor(token, override) as unknown as Record<string, unknown>;
  const errors: string[] = [];
  const known = new Set(Object.keys(SHIPPED.llm1).concat(['composer', 'send', 'toggles', 'model', 'citations', 'sources', 'related', 'stream']));
  for (const key of Object.keys(isObject(override) ? override : {})) if (!known.has(key)) errors.push(`unknown key "${key}"`);
  const selector = (path: string, v: unknown, rule = false) => {
    if (typeof v !== 'string' || v.trim() === '') return void errors.push(`${path} must be a non-empty selector string`);
    const sel = rule ? v.slice(0, v.lastIndexOf('@') >= 0 ? v.lastIndexOf('@') : v.length).trim() : v;
    if (rule && (sel === '' || sel === '.')) return;
    try {
      compile(sel);
    } catch (err) {
      errors.push(`${path} is not a valid CSS selector (${(err as Error).message})`);
    }
  };
  const ms = (path: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 600_000) errors.push(`${path} must be a whole number of milliseconds (0 to 600000)`);
  };
  if (typeof d.open !== 'string' || !d.open.startsWith('/')) errors.push('open must be a path starting with "/"');
  if (!Array.isArray(d.dismiss)) errors.push('dismiss must be an array of selectors');
  else d.dismiss.forEach((s, i) => selector(`dismiss[${i}]`, s));
  if (d.composer !== undefined) selector('composer', d.composer);
  if (d.send !== undefined) selector('send', d.send);
  if ((d.composer === undefined) !== (d.send === undefined)) errors.push('composer and send go together');
  if (d.composer === undefined && typeof d.open === 'string' && !d.open.includes('{{query}}')) errors.push('without a composer, open must carry {{query}}');
  if (d.toggles !== undefined) {
    if (!isObject(d.toggles)) errors.push('toggles must be an object');
    else for (const [p, values] of Object.entries(d.toggles)) {
      if (!isObject(values)) errors.push(`toggles.${p} must map values to selectors`);
      else for (const [v, s] of Object.entries(values)) selector(`toggles.${p}.${v}`, s);
    }
  }
  if (!Array.isArray(d.done) || d.done.length === 0) errors.push('done must list at least one signal ({"visible": sel} or {"gone": sel})');
  else d.done.forEach((s, i) => {
    const keys = isObject(s) ? Object.keys(s) : [];
    if (keys.length !== 1 || (keys[0] !== 'visible' && keys[0] !== 'gone')) errors.push(`done[${i}] must be {"visible": sel} or {"gone": sel}`);
    else selector(`done[${i}].${keys[0]}`, (s as Record<string, unknown>)[keys[0]]);
  });
  selector('answer', d.answer);
  if (d.model !== undefined) selector('model', d.model, true);
  if (d.related !== undefined) selector('related', d.related);
  for (const name of ['citations', 'sources'] as const) {
    const r = d[name];
    if (r === undefined) continue;
    if (!isObject(r) || !isObject(r.fields)) {
      errors.push(`${name} must be {"item": sel, "fields": {name: rule}}`);
      continue;
    }
    selector(`${name}.item`, r.item);
    for (const [f, rule] of Object.entries(r.fields)) selector(`${name}.fields.${f}`, rule, true);
  }
  if (d.stream !== undefined) {
    try {
      new RegExp(String(d.stream));
    } catch {
      errors.push('stream must be a regular expression source');
    }
  }
  if (!isObject(d.failures)) errors.push('failures must be an object');
  else for (const [k, s] of Object.entries(d.failures)) {
    if (k !== 'login' && k !== 'challenge' && k !== 'rate_limit') errors.push(`failures.${k}: the kinds are login, challenge and rate_limit`);
    else selector(`failures.${k}`, s);
  }
  ms('stableMs', d.stableMs);
  ms('challengeClearsMs', d.challengeClearsMs);
  ms('selectorMs', d.selectorMs);
  return errors;
}

/** Problems of a GLEANER_ASSISTANTS file, each naming the file and the assistant. */
export function checkAssistants(raw: unknown, file: string): string[] {
  if (!isObject(raw)) return [`${file}: must be a JSON object of assistants ({"llm1": {...}})`];
  const errors: string[] = [];
  for (const [token, override] of Object.entries(raw)) {
    if (!isAssistant(token)) {
      errors.push(`${file}: "${token}" is not an assistant (${ASSISTANTS.join(', ')})`);
      continue;
    }
    for (const problem of checkData(token, override)) errors.push(`${file}: ${token}: ${problem}`);
  }
  return errors;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
