/**
 * Worker side: the functions a browser script evaluates inside the page. Each poll of a script
 * is one `page.evaluate` round trip (which selectors show, the answer's text) rather than one
 * protocol call per selector: a chat page is polled a few times a second for up to minutes.
 *
 * They are JavaScript source, not TypeScript functions: a function's own text is what
 * Playwright sends to the page, and the TypeScript loader used in development wraps inner
 * functions in a name helper that does not exist in the page.
 */
import type { Page } from 'patchright-core';
import type { Capture } from '../../core/targets/browser-step.js';

export interface ProbeQuery {
  /** Selectors whose visibility is wanted, in order. */
  visible: string[];
  answer: string | undefined;
}

export interface ProbeState {
  /** Parallel to `ProbeQuery.visible`. */
  shown: boolean[];
  /** The last answer element's text, or null when none matches. */
  answer: string | null;
}

export type Captured = string | null | Array<string | null> | Record<string, string | null> | Array<Record<string, string | null>>;

/** Shared helpers: `all` never throws on a bad selector (an operator's typo is a missing element). */
const HELPERS = `
  const all = (root, sel) => { try { return Array.from(root.querySelectorAll(sel)); } catch { return []; } };
  const shows = (el) => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden' && el.getClientRects().length > 0; };
  const text = (el) => String(el.innerText ?? el.textContent ?? '').trim();
`;

const PROBE = `(q) => {${HELPERS}
  const shown = q.visible.map((sel) => all(document, sel).some(shows));
  const found = q.answer ? all(document, q.answer) : [];
  const last = found[found.length - 1];
  return { shown, answer: last ? text(last) : null };
}`;

const CAPTURE = `(spec) => {${HELPERS}
  const valueOf = (el, how) => {
    if (how === 'html') return el.innerHTML;
    if (how.startsWith('@')) {
      const name = how.slice(1);
      // href and src as the browser resolved them (absolute); other attributes as written.
      if ((name === 'href' || name === 'src') && typeof el[name] === 'string') return el[name] || null;
      return el.getAttribute(name);
    }
    return text(el);
  };
  const field = (el, rule) => {
    const at = rule.lastIndexOf('@');
    const sel = (at >= 0 ? rule.slice(0, at) : rule).trim();
    const how = at >= 0 ? rule.slice(at) : 'text';
    const target = sel === '' || sel === '.' ? el : all(el, sel)[0];
    return target ? valueOf(target, how) : null;
  };
  const out = {};
  for (const [name, c] of Object.entries(spec)) {
    const found = all(document, c.selector);
    const pick = c.pick ?? 'last';
    const one = (el) => c.fields ? Object.fromEntries(Object.entries(c.fields).map(([k, rule]) => [k, field(el, rule)])) : valueOf(el, c.value ?? 'text');
    if (pick === 'all') out[name] = found.map(one);
    else {
      const el = pick === 'first' ? found[0] : found[found.length - 1];
      out[name] = el ? one(el) : null;
    }
  }
  return out;
}`;

/**
 * Which of `q.visible` show, and the answer's text. While the page navigates (a chat that
 * moves to its result page) there is no document to ask: that poll sees nothing, the next one
 * sees the new page.
 */
export async function probe(page: Page, q: ProbeQuery): Promise<ProbeState> {
  try {
    return (await page.evaluate(`(${PROBE})(${JSON.stringify(q)})`)) as ProbeState;
  } catch (err) {
    if (page.isClosed() || !/Execution context was destroyed|Cannot find context|navigat/i.test(String((err as Error).message))) throw err;
    return { shown: q.visible.map(() => false), answer: null };
  }
}

/** The values of a script's `capture`, by name. */
export function captureAll(page: Page, spec: Readonly<Record<string, Capture>>): Promise<Record<string, Captured>> {
  return page.evaluate(`(${CAPTURE})(${JSON.stringify(spec)})`) as Promise<Record<string, Captured>>;
}
