/**
 * URL, cookie and header templates of a commerce target (`GLEANER_TARGETS`): `{name}` stands
 * for a request parameter (`{query}`, `{store_id}`), the computed page (`{page}`), the site's
 * `{domain}` / `{subdomain}`, or a value a session step read (`{visitor_id}`, rendered as the
 * flow variable `{{visitor_id}}` for the farm to fill). Rendering rules, the same for every
 * family:
 *
 * - in a URL's query string, a `key=value` pair whose placeholder has no value is left out, so
 *   one template serves requests with and without the optional parameters;
 * - in a URL's path, a placeholder without a value renders empty and the doubled `/` collapses;
 * - values are percent-encoded in URLs and cookies; header values are kept, with control
 *   characters and braces percent-encoded so that no value can inject a header or a flow variable.
 */

/** `{name}`; `{{name}}` is the farm's flow-variable syntax and is not a template placeholder. */
const PLACEHOLDER = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;

export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/** What a placeholder renders to: a parameter value, a session variable, or nothing (absent). */
export interface Values {
  get(name: string): string | undefined;
  /** Names read by the session step: rendered as `{{name}}`. */
  vars: ReadonlySet<string>;
}

type Encode = (v: string) => string;

const headerSafe: Encode = (v) => v.replace(/[\u0000-\u001f\u007f{}]/g, (c) => encodeURIComponent(c));

/** Renders a text; undefined when a placeholder has no value. */
function fill(text: string, values: Values, encode: Encode): string | undefined {
  let missing = false;
  const out = text.replace(PLACEHOLDER, (_m, name: string) => {
    if (values.vars.has(name)) return `{{${name}}}`;
    const v = values.get(name);
    if (v === undefined) {
      missing = true;
      return '';
    }
    return encode(v);
  });
  return missing ? undefined : out;
}

/** A URL template (absolute, or a path below `base`) rendered with the rules above. */
export function renderUrl(template: string, base: string, values: Values): string {
  const abs = /^https?:\/\//i.test(template) ? template : `${base}${template.startsWith('/') ? '' : '/'}${template}`;
  const hash = abs.indexOf('#');
  const noHash = hash >= 0 ? abs.slice(0, hash) : abs;
  const q = noHash.indexOf('?');
  const pathPart = q >= 0 ? noHash.slice(0, q) : noHash;
  const queryPart = q >= 0 ? noHash.slice(q + 1) : '';
  const scheme = /^https?:\/\//i.exec(pathPart)?.[0] ?? '';
  const path = (scheme + pathPart.slice(scheme.length).replace(PLACEHOLDER, (_m, name: string) => {
    if (values.vars.has(name)) return `{{${name}}}`;
    const v = values.get(name);
    return v === undefined ? '' : encodeURIComponent(v);
  }).replace(/\/{2,}/g, '/'));
  const pairs = queryPart
    .split('&')
    .filter((p) => p !== '')
    .map((p) => fill(p, values, encodeURIComponent))
    .filter((p): p is string => p !== undefined && !/=$/.test(p));
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** Cookie or header templates rendered; entries whose placeholders have no value are left out. */
export function renderPairs(templates: Readonly<Record<string, string>>, values: Values, kind: 'cookie' | 'header'): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, t] of Object.entries(templates)) {
    const v = fill(t, values, kind === 'cookie' ? encodeURIComponent : headerSafe);
    if (v !== undefined) out.push([name, v]);
  }
  return out;
}

/** Appends `key=value` pairs to a URL's query string (after any it has). */
export function appendQuery(url: string, pairs: readonly [string, string][]): string {
  if (pairs.length === 0) return url;
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const hash = url.indexOf('#');
  const head = hash >= 0 ? url.slice(0, hash) : url;
  const tail = hash >= 0 ? url.slice(hash) : '';
  return `${head}${head.includes('?') ? (/[?&]$/.test(head) ? '' : '&') : '?'}${qs}${tail}`;
}
