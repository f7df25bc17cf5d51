/**
 * The answer read from a chat page's event stream (llm1): `data:` lines of server-sent events
 * carrying a seed message (`{"v": {"message": ...}}`, or an `add` at the root), then patches
 * `{"p": "/message/content/parts/0", "o": "append", "v": "text"}`, lists of them
 * (`{"o": "patch", "v": [...]}`), bare `{"v": "text"}` that reuse the last path and operation,
 * and `[DONE]`. Only the answer's text and the model slug are kept. Pure; never throws.
 */
export interface StreamedAnswer {
  text: string;
  model: string | undefined;
  /** Whether `[DONE]` arrived (a stream cut short is still read, but says so). */
  done: boolean;
}

const TEXT_PATH = '/message/content/parts/0';
const MODEL_PATH = '/message/metadata/model_slug';

export function readEventStream(body: string): StreamedAnswer {
  const out: StreamedAnswer = { text: '', model: undefined, done: false };
  let lastPath = '';
  let lastOp = 'append';
  const apply = (p: string, o: string, v: unknown) => {
    if (p === '' && isObject(v) && isObject(v.message)) return seed(out, v.message);
    if (p === TEXT_PATH && typeof v === 'string') out.text = o === 'replace' ? v : out.text + v;
    else if (p === MODEL_PATH && typeof v === 'string') out.model = v;
  };
  for (const data of events(body)) {
    if (data === '[DONE]') {
      out.done = true;
      continue;
    }
    let ev: unknown;
    try {
      ev = JSON.parse(data);
    } catch {
      continue;
    }
    if (!isObject(ev)) continue;
    if (typeof ev.p === 'string') lastPath = ev.p;
    if (typeof ev.o === 'string') lastOp = ev.o;
    if (ev.o === 'patch' && Array.isArray(ev.v)) {
      for (const op of ev.v) if (isObject(op) && typeof op.p === 'string') apply(op.p, typeof op.o === 'string' ? op.o : 'append', op.v);
    } else if ('v' in ev) apply(typeof ev.p === 'string' ? ev.p : lastPath, lastOp, ev.v);
    else if (isObject(ev.message)) seed(out, ev.message);
  }
  return out;
}

function seed(out: StreamedAnswer, message: Record<string, unknown>): void {
  const content = isObject(message.content) ? message.content : undefined;
  const parts = Array.isArray(content?.parts) ? content.parts : [];
  if (typeof parts[0] === 'string') out.text = parts[0];
  const meta = isObject(message.metadata) ? message.metadata : undefined;
  if (typeof meta?.model_slug === 'string') out.model = meta.model_slug;
}

/** The data of each event: `data:` lines joined by newlines, events split by a blank line. */
function* events(body: string): Generator<string> {
  let data: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    if (raw === '') {
      if (data.length) yield data.join('\n');
      data = [];
    } else if (raw.startsWith('data:')) data.push(raw.slice(raw[5] === ' ' ? 6 : 5));
  }
  if (data.length) yield data.join('\n');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
