/**
 * One walk over the page that finds the elements the visible-page readers need, by what their
 * `id`, `class`, `itemprop` and `data-testid` say they are (brand line, stock line, description,
 * breadcrumb trail, spec sheets, image gallery). One pass instead of a selector query per role:
 * attribute-substring selectors each test every element again.
 */
import type { AnyNode, Document, Element } from '../../parsers/dom.js';
import { seedOf } from '../../parsers/load.js';
import { pageSlot } from '../../parsers/page-memo.js';

export interface Marks {
  brand: Element[];
  availability: Element[];
  description: Element[];
  breadcrumb: Element[];
  /** Outermost spec-sheet containers. */
  spec: Element[];
  /** Containers of the product's image gallery. */
  gallery: Set<Element>;
  /** Elements that say they show a price, with their document position. */
  price: { el: Element; index: number }[];
}

// `^byline\s`: an element whose id is `byline` (a book page's author line); a class `byline` is a carousel card's.
const BRAND = /bylineInfo|^byline\s|product-?brand|productBrand|(^|\s)brand(\s|$)/i;
const STOCK = /availability|stock-?status/i;
const DESCRIPTION = /^(productDescription|description)$|product-?description/i;
const CRUMB = /breadcrumb/i;
export const SPEC = /spec|technical|tech-?details|product-?details|prodDetails|detail-?bullets|attributes|characteristics|product-?information|properties/i;
export const PRICE = /price|preis|precio|prix|prezzo|cena|pre[cç]o/i;
const GALLERY = /landingImage|main-?image|primary-?image|product-?image|hero-?image|gallery|imgTagWrapper|image-?block|media-?viewer|product-?media|pdp-?image/i;

/** Any of the words below: most elements fail this one test and are done. */
const ANY = /brand|byline|availab|stock|descr|crumb|spec|techn|detail|attribut|character|informat|propert|image|gallery|media/i;
/** ANY or a PRICE word: an element failing it is marked for nothing. */
const ANY_ROLE = new RegExp(`${ANY.source}|${PRICE.source}`, 'i');

const lists = pageSlot<Element[]>('gleaner.elements');

/**
 * Every element of the page in document order, built once per page: `all('*')` would build a
 * set of the whole page on every call. A page built by `loadHtml` has the list already: its
 * load recorded each element as it opened (document order), the same list this walk makes.
 */
export function elements(doc: Document): Element[] {
  let out = lists.get(doc) ?? seedOf(doc)?.elements;
  if (out) return out;
  out = [];
  const stack: AnyNode[] = [...doc.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (n.type !== 'tag') continue;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as AnyNode);
  }
  lists.set(doc, out);
  return out;
}

function inside(el: Element, set: Set<Element>, levels: number): boolean {
  for (let p = el.parent, i = 0; p && i < levels; p = p.parent, i++) if (set.has(p as Element)) return true;
  return false;
}

const marks = pageSlot<Marks>('gleaner.marks');

/** The page's marks, found once per page (the product parser and the url route's check share them). */
export function scanMarks(doc: Document): Marks {
  let m = marks.get(doc);
  if (m) return m;
  m = { brand: [], availability: [], description: [], breadcrumb: [], spec: [], gallery: new Set(), price: [] };
  marks.set(doc, m);
  const specs = new Set<Element>();
  const els = elements(doc);
  for (let i = 0; i < els.length; i++) {
    const el = els[i] as Element;
    const a = el.attribs;
    const { id, class: cls, itemprop: prop } = a;
    const testid = a['data-testid'];
    const alt = a['data-test'] ?? a['data-qa'] ?? a['data-automation-id'];
    const plain = prop === undefined && alt === undefined && el.name !== 'nav';
    // Most elements name nothing (no id, class or test id): nothing below can match them.
    if (plain && id === undefined && cls === undefined && testid === undefined) continue;
    const s = `${id ?? ''} ${cls ?? ''} ${testid ?? ''}`;
    // One scan for "any word of any role" before the per-role tests.
    if (plain && !ANY_ROLE.test(s)) continue;
    if (PRICE.test(s) || (prop !== undefined && PRICE.test(prop)) || (alt ?? '').match(PRICE)) m.price.push({ el, index: i });
    if (prop === undefined && el.name !== 'nav' && !ANY.test(s)) continue;
    if (prop === 'brand' || BRAND.test(s)) m.brand.push(el);
    if (prop === 'availability' || STOCK.test(s)) m.availability.push(el);
    if (prop === 'description' || DESCRIPTION.test(a.id ?? '') || DESCRIPTION.test(`${a.class ?? ''} ${a['data-testid'] ?? ''}`)) m.description.push(el);
    if (CRUMB.test(s) || (el.name === 'nav' && CRUMB.test(a['aria-label'] ?? ''))) m.breadcrumb.push(el);
    if (SPEC.test(s)) {
      if (!inside(el, specs, 30)) m.spec.push(el);
      specs.add(el);
    }
    if (GALLERY.test(s)) m.gallery.add(el);
  }
  return m;
}
