/** Tag tables shared by the tree builder and the renderer. */

/** Elements a browser lays out as blocks (used for `hasBlock`). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog',
  'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'main', 'menu', 'ol',
  'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

/** role=main counts only on containers: some pages put it on their <h1>. */
export const MAIN_CONTAINERS: ReadonlySet<string> = new Set([
  'div', 'section', 'article', 'form', 'td', 'center',
]);

/**
 * Deeper elements are flattened into their ancestor at this depth, so the recursive renderer
 * cannot overflow the stack on pathological nesting (thousands of unclosed tags).
 */
export const MAX_DEPTH = 200;

/**
 * Inline elements the renderer gives a meaning to. Other non-block elements (span, small,
 * label, font, custom elements...) render as their content, so they are not materialised at
 * all: their children belong to the nearest kept ancestor. Fewer nodes, less to collect.
 */
export const INLINE_KEPT: ReadonlySet<string> = new Set([
  'a', 'b', 'strong', 'i', 'em', 'del', 's', 'strike', 'code', 'kbd', 'samp', 'tt', 'img', 'br',
]);

/**
 * htmlparser2 lowercases tag names into fresh strings; mapping the known ones onto literals
 * makes every later `switch`/Set test on a tag a pointer comparison (V8 interns literals).
 */
export const INTERNED: ReadonlyMap<string, string> = new Map(
  [
    ...BLOCK_TAGS, 'a', 'abbr', 'b', 'br', 'cite', 'code', 'del', 'em', 'i', 'img', 'kbd', 'label',
    'mark', 'picture', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time',
    'tt', 'u', 'wbr', 'nav', 'aside', 'script', 'style', 'noscript', 'svg', 'template', 'input',
    'button', 'select', 'option', 'link', 'meta', 'iframe', 'head', 'title', 'base', 'source',
  ].map((t) => [t, t]),
);

/** Elements whose attributes the renderer reads; the others share one empty object. */
export const KEEPS_ATTRS: ReadonlySet<string> = new Set([
  'a', 'img', 'pre', 'code', 'ol', 'td', 'th', 'table',
]);
