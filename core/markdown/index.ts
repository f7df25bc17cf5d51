/**
 * HTML → Markdown for the `markdown` output (spec 2.3).
 *
 * Main content only: noise is dropped while parsing (noise.ts); then the first `<main>` (or
 * role=main container) is rendered, else the page's only top-level `<article>`, else the body
 * (the body also when the chosen element holds under MIN_SHARE of the page's text, or renders
 * empty). Links and images are absolute against `baseUrl` and `<base href>`; tables stay GFM.
 *
 * Linear in the input: one htmlparser2 pass builds a pruned flat tree (parse.ts, builder.ts), one
 * walk writes the Markdown (render.ts, writer.ts). Pure and synchronous; runs in farm workers.
 */
import { renderRoot } from './render.js';
import { buildTree } from './parse.js';
import type { Doc, El } from './tree.js';
import { UrlResolver } from './urls.js';

/**
 * A `<main>` or lone `<article>` holding less than this share of the page's kept text is a
 * fragment (a teaser, a mislabelled widget), not the main content: the body is rendered.
 */
const MIN_SHARE = 0.15;

export interface MarkdownOptions {
  /**
   * Render only the main content (`<main>`, else a single `<article>`, else the body).
   * `false` renders the whole body, still without noise. Default `true`.
   */
  mainContent?: boolean;
}

/** Converts a page; `baseUrl` is the page's address (relative links resolve against it). */
export function htmlToMarkdown(html: string, baseUrl: string, options?: MarkdownOptions): string {
  const mainOnly = options?.mainContent !== false;
  let doc = buildTree(html, true);
  let out = convert(doc, baseUrl, mainOnly);
  if (out === '' && doc.softDrops > 0) {
    // A soft rule emptied the page: its hidden/consent markers were page state, not noise.
    doc = buildTree(html, false);
    out = convert(doc, baseUrl, mainOnly);
  }
  return out;
}

function convert(doc: Doc, baseUrl: string, mainOnly: boolean): string {
  const urls = new UrlResolver(baseUrl, doc.baseHref);
  if (mainOnly) {
    let pick: El | null = null;
    if (doc.main !== null && doc.mainChars >= MIN_SHARE * doc.chars) pick = doc.main;
    else if (doc.articles.length === 1 && doc.articleChars >= MIN_SHARE * doc.chars) pick = doc.articles[0];
    if (pick !== null) {
      const out = renderRoot(doc.nodes, pick, urls);
      if (out !== '') return out;
    }
  }
  return renderRoot(doc.nodes, doc.body ?? doc.root, urls);
}
