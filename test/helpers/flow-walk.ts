/**
 * Walks a flow (core/targets/flow.ts) against the simulator with plain fetch, for the family
 * unit tests that check planner, simulator and parser together before a flow reaches the farm.
 * It follows the contract as documented — `{{var}}` URL-encoded in URLs, verbatim in headers,
 * JSON-escaped in bodies; readers fill variables (an unset one fails the step); optional steps
 * may fail; `keep` and follow-ups go to `parts[name]`; a failed follow-up ends the follow-ups —
 * without proxies, retries or deadlines. The farm's executor is the one that runs in service.
 */
import type { FetchStep, Flow, StepRequest, Vars } from '../../core/targets/flow.js';

export interface Walked {
  page: { url: string; status: number; body: string };
  parts: Record<string, string[]>;
  /** Every request made, in order: `METHOD url`. */
  requests: string[];
}

function fill(template: string, vars: Readonly<Vars>, encode: (v: string) => string): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`unset variable ${name}`);
    return encode(v);
  });
}

async function send(req: StepRequest, vars: Readonly<Vars>, log: string[]): Promise<{ url: string; status: number; body: string }> {
  const url = fill(req.url, vars, encodeURIComponent);
  const method = req.method ?? 'GET';
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k, fill(v, vars, (x) => x)]));
  const body = req.body === undefined ? undefined : fill(req.body, vars, (x) => JSON.stringify(x).slice(1, -1));
  log.push(`${method} ${url}`);
  const res = await fetch(url, { method, headers, body });
  return { url: res.url, status: res.status, body: await res.text() };
}

function read(step: FetchStep, body: string, vars: Vars): void {
  for (const [name, reader] of Object.entries(step.read ?? {})) {
    let v: string | undefined;
    if (reader.from === 'fn') v = reader.read(body, vars);
    else if (reader.from === 'body') v = reader.pattern.exec(body)?.[1];
    if (v !== undefined) vars[name] = v;
  }
}

export async function walk(flow: Flow): Promise<Walked> {
  const vars: Vars = { ...flow.vars };
  const parts: Record<string, string[]> = {};
  const requests: string[] = [];
  const marked = flow.steps.findIndex((s) => s.page === true);
  const pageAt = marked >= 0 ? marked : flow.steps.length - 1;
  let page: Walked['page'] | undefined;
  for (const [i, step] of flow.steps.entries()) {
    let res: { url: string; status: number; body: string };
    try {
      res = await send(step, vars, requests);
    } catch (err) {
      if (step.optional && i !== pageAt) continue;
      throw err;
    }
    if (i !== pageAt && (res.status < 200 || res.status >= 400)) {
      if (step.optional) continue;
      throw new Error(`step ${step.name} answered ${res.status}`);
    }
    read(step, res.body, vars);
    if (step.keep) (parts[step.name] ??= []).push(res.body);
    if (i === pageAt) page = res;
    if (step.more && res.status < 400) {
      let body = res.body;
      for (let count = 0; count < step.more.max; count++) {
        const next = step.more.next(body, count, vars);
        if (!next) break;
        const more = await send(next, vars, requests);
        if (more.status < 200 || more.status >= 300) break;
        (parts[step.name] ??= []).push(more.body);
        body = more.body;
      }
    }
  }
  if (!page) throw new Error('no page step');
  return { page, parts, requests };
}
