/**
 * A flow's variables: filling `{{name}}` into a step's request, and reading values out of a
 * response (core/targets/flow.ts `Reader`). Pure functions of the step and what the flow has
 * seen; a value that cannot be placed safely fails the attempt instead of going on the wire.
 */
import type { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import type { Reader, StepRequest, Vars } from '../../core/targets/flow.js';
import type { RawHeaders } from '../net/fetcher.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** A step's request with its variables filled: URL-encoded in the URL, verbatim in headers, JSON-escaped in the body. */
export function fillRequest(step: string, req: StepRequest, vars: Readonly<Vars>): { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: string } {
  const fill = (template: string, encode: (v: string) => string) =>
    template.replace(PLACEHOLDER, (_m, name: string) => {
      const value = vars[name];
      if (value === undefined) {
        // A token an earlier step did not find: the upstream answered something else (a wall,
        // a changed page); another attempt, on another proxy, may see the real page.
        throw new GleanerError('UPSTREAM_FAILED', `Step "${step}" needs {{${name}}}, which no earlier step found.`);
      }
      return encode(value);
    });
  const headers = req.headers
    ? Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => {
          const filled = fill(v, (x) => x);
          if (/[\r\n]/.test(filled)) throw new GleanerError('UPSTREAM_FAILED', `Step "${step}": header ${k} would carry a line break.`, { final: true });
          return [k, filled];
        }),
      )
    : undefined;
  return {
    method: req.method ?? 'GET',
    url: typeof req.url === 'function' ? builtUrl(step, req.url, vars) : fill(req.url, encodeURIComponent),
    ...(headers ? { headers } : {}),
    ...(req.body !== undefined ? { body: fill(req.body, (x) => JSON.stringify(x).slice(1, -1)) } : {}),
  };
}

function builtUrl(step: string, build: (vars: Readonly<Vars>) => string, vars: Readonly<Vars>): string {
  let url: string;
  try {
    url = build(vars);
  } catch {
    url = '';
  }
  // A family's builder must answer an absolute URL; anything else means what it needed was not found.
  if (!/^https?:\/\//i.test(url)) throw new GleanerError('UPSTREAM_FAILED', `Step "${step}" could not build its URL from what earlier steps found.`);
  return url;
}

export interface ReadSource {
  url: string;
  body: string;
  headers: RawHeaders;
  jar: CookieJar;
}

/** Applies a step's readers; a reader that finds nothing leaves its name unset. */
export function readInto(vars: Vars, readers: Readonly<Record<string, Reader>> | undefined, src: ReadSource): void {
  if (!readers) return;
  for (const [name, reader] of Object.entries(readers)) {
    const value = read(reader, src, vars);
    if (value !== undefined) vars[name] = value;
  }
}

function read(reader: Reader, src: ReadSource, vars: Readonly<Vars>): string | undefined {
  switch (reader.from) {
    case 'cookie':
      return src.jar.getCookiesSync(src.url).find((c) => c.key === reader.name)?.value;
    case 'header': {
      const v = src.headers[reader.name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    }
    case 'body':
      return reader.pattern.exec(src.body)?.[1];
    case 'json':
      return atPath(src.body, reader.path);
    case 'fn':
      try {
        return reader.read(src.body, vars);
      } catch {
        // A family's reader must not throw; if it does, it found nothing.
        return undefined;
      }
  }
}

function atPath(body: string, path: readonly (string | number)[]): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
}
