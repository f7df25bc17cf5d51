/**
 * The JSON a page carries for its scripts to hydrate from: `<script id="__NEXT_DATA__">`,
 * `window.__PRELOADED_STATE__ = {...}`, `window.__INITIAL_STATE__ = {...}` and their kin, and
 * `<script type="application/json">` blocks. Read from the raw HTML (the parsers' DOM has no
 * script bodies), with the JSON-boundary-aware scanner of core/parsers/embedded.ts. A page
 * that is itself JSON (an API response served as the page) is its own state.
 */
import { decodeHTML } from 'entities/decode';
import { jsonAfter, parseJson, scriptJsonById } from '../../parsers/embedded.js';

/** Assignment targets sites hydrate from, most specific first. */
const MARKERS = [
  '__PRELOADED_STATE__',
  '__INITIAL_STATE__',
  '__APOLLO_STATE__',
  '__REDUX_STATE__',
  '__APP_INITIAL_STATE__',
  '__STATE__',
  '__INITIAL_DATA__',
  '__PRODUCT_DATA__',
  'window.__data',
];

/** Largest JSON script block read (a state blob past this size is not a product page's). */
const MAX_BLOCK = 8_000_000;

/**
 * A JSON document as the browser shows it (`run_js`): Chromium wraps the response text in a
 * lone `<pre>` (entities escaped), with a formatter placeholder after it in newer versions.
 */
const BROWSER_JSON_VIEW = /^<html><head>(?:<meta [^>]*>)*<\/head><body><pre[^>]*>([\s\S]*)<\/pre>(?:<div class="json-formatter-container"><\/div>)?<\/body><\/html>\s*$/;

/** The body parsed as JSON when the page is a JSON document (raw, or rendered by the browser), else undefined. */
export function bodyJson(body: string): unknown {
  let t = body.trimStart();
  if (t.startsWith('<html><head>') && t.includes('<body><pre')) {
    const viewed = BROWSER_JSON_VIEW.exec(t);
    if (viewed) t = decodeHTML(viewed[1] as string).trimStart();
  }
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  return parseJson(t);
}

/** The markers the walk below looks for, and where each one's first `__` sits in it (built once, not per `__`). */
const SCANNED: readonly string[] = ['__NEXT_DATA__', ...MARKERS];
const LEADS: readonly number[] = SCANNED.map((m) => (m.startsWith('__') ? 0 : m.indexOf('__')));

/**
 * Which markers the page holds, from one walk over its `__` pairs (eleven `includes` scans of a
 * 2 MB page cost ten times more: underscores are everywhere in class names).
 */
function presentMarkers(html: string): Set<string> {
  const present = new Set<string>();
  for (let i = html.indexOf('__'); i >= 0; i = html.indexOf('__', i + 2)) {
    for (let k = 0; k < SCANNED.length; k++) {
      const m = SCANNED[k] as string;
      const at = i - (LEADS[k] as number);
      if (at >= 0 && html.startsWith(m, at)) present.add(m);
    }
  }
  if (html.includes('application/json')) present.add('application/json');
  return present;
}

/** Every state blob of the page, in the order above; cheap when the markers are absent. */
export function stateBlobs(html: string): unknown[] {
  const present = presentMarkers(html);
  const out: unknown[] = [];
  if (present.size === 0) return out;
  const next = present.has('__NEXT_DATA__') ? scriptJsonById(html, '__NEXT_DATA__') : undefined;
  if (next !== undefined) out.push(next);
  for (const marker of MARKERS) {
    if (!present.has(marker)) continue;
    const v = jsonAfter(html, [`${marker} =`, `${marker}=`, `"${marker}":`, `${marker}`]);
    if (v !== undefined && typeof v === 'object') out.push(v);
  }
  if (present.has('application/json')) {
    for (const body of jsonScripts(html)) {
      const v = parseJson(body.trim());
      if (v !== undefined && typeof v === 'object' && v !== null) out.push(v);
    }
  }
  return out;
}

/** Bodies of `<script type="application/json">` blocks other than `__NEXT_DATA__` (read above). */
function jsonScripts(html: string): string[] {
  const out: string[] = [];
  const re = /<script\b([^>]*)>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const attrs = m[1] as string;
    const start = m.index + m[0].length;
    const end = html.indexOf('</script>', start);
    if (end < 0) break;
    re.lastIndex = end;
    if (!/\btype\s*=\s*["']?application\/json/i.test(attrs) || /__NEXT_DATA__/.test(attrs)) continue;
    if (end - start <= MAX_BLOCK) out.push(html.slice(start, end));
  }
  return out;
}
