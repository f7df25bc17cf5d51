/**
 * The filter panel of an mkt1 search page (`#s-refinements`): its groups keyed by their
 * snake-cased heading, each link with its `rh` value (output-shapes §2.2 `refinements`).
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, one, text } from '../../parsers/dom.js';
import { hrefOf } from './common.js';
import { snake } from './product-info.js';

export interface Refinement {
  link: string;
  name: string;
  value: string;
  refinement_display_name: string;
}

// `s-bold-weight-text` is the late-2021 name of the heading class (amazon.ca, December 2021).
const HEADING = '.sf-refinement-heading, span.a-text-bold, span.puis-bold-weight-text, span.s-bold-weight-text, h2';

/** One filter link, or null when it carries no `rh` value. */
function refinementOf(a: Element, heading: string): Refinement | null {
  const href = hrefOf(a);
  let value = '';
  try {
    value = new URL(href, 'http://x/').searchParams.get('rh') ?? '';
  } catch {
    return null;
  }
  if (!value) return null;
  // A star filter shows an icon and "& Up": its name is the icon's text ("4 Stars & Up").
  const stars = one('i.a-icon .a-icon-alt', a);
  // A colour swatch has no text: its name is the link's title ("Blacks").
  const name =
    (stars && (attr(one('section[aria-label]', a), 'aria-label') ?? text(stars))) || text(one('.a-size-base, span.a-color-base', a)) || text(a) || (attr(a, 'title') ?? '');
  return { link: href, name, value, refinement_display_name: heading };
}

/**
 * The links of a group under their heading. A 2022 wrapper (`div#filters`, amazon.in) holds
 * several groups without ids of their own, each opened by its `div#<key>-title`: its links
 * then go under the last title before them, not all under the first heading.
 */
function groupLinks(g: Element): { heading: string; a: Element }[] {
  const titles = all('div[id$="-title"]', g);
  if (titles.length < 2) {
    const heading = text(one(HEADING, g));
    return all('a[href*="rh="]', g).map((a) => ({ heading, a }));
  }
  const out: { heading: string; a: Element }[] = [];
  let heading = text(one(HEADING, g));
  for (const el of all('div[id$="-title"], a[href*="rh="]', g)) {
    if (el.name === 'div') heading = text(one(HEADING, el)) || text(el);
    else out.push({ heading, a: el });
  }
  return out;
}

export function refinements(doc: Document): Record<string, Refinement[]> {
  const out: Record<string, Refinement[]> = {};
  const root = one('#s-refinements', doc);
  if (!root) return out;
  const isGroup = (e: Element) => e.name === 'div' && !!e.attribs.id && !/^filter-/.test(e.attribs.id) && !/-title$/.test(e.attribs.id);
  // The outermost groups: no group between them and the panel.
  const groups = all('div[id]', root).filter((g) => isGroup(g) && closest(g, (e) => e === root || isGroup(e)) === root);
  for (const g of groups) {
    for (const { heading, a } of groupLinks(g)) {
      const key = snake(heading);
      if (!key) continue;
      const r = refinementOf(a, heading);
      const list = (out[key] ??= []);
      if (r && !list.some((x) => x.value === r.value)) list.push(r);
    }
  }
  for (const [k, v] of Object.entries(out)) if (v.length === 0) delete out[k];
  return out;
}
