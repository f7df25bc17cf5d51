/**
 * The elements inside a product card, listed once per card. The card readers ask each card a
 * dozen questions (its headings, its title-like classes, its links, its id attributes, its
 * images, every element for the rating), and each css-select subtree query walked the whole
 * card again: on a results page of sixty cards those walks were a fifth of the listing parse.
 *
 * The list holds exactly what css-select's subtree queries visit (css-select 7, `findAll`):
 * every element below the root — not the root itself, script and style elements included — in
 * document order, and nothing below a `<template>`. Filtering it with the selector's own test
 * therefore gives the same elements in the same order as `all(selector, root)`. The DOM is
 * read-only after the load, so a list stays true for the page's life (kept per element in a
 * WeakMap, gone with the page).
 */
import type { AnyNode, Element } from '../../parsers/dom.js';

const scopes = new WeakMap<Element, Element[]>();

const isTag = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Every element below `root`, in document order, as css-select's subtree queries see them. */
export function inside(root: Element): Element[] {
  let out = scopes.get(root);
  if (out) return out;
  out = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i] as AnyNode);
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (!isTag(n)) continue;
    out.push(n);
    if (n.name === 'template') continue;
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i] as AnyNode);
  }
  scopes.set(root, out);
  return out;
}

/** `a[href]`. */
export const isLinkEl = (e: Element): boolean => e.name === 'a' && e.attribs.href !== undefined;

/** `[class*=title], [class*=Title], [class*=name], [data-testid*=title]` (case-sensitive, as css-select reads `class`). */
export function isTitleClass(e: Element): boolean {
  const c = e.attribs.class;
  if (c !== undefined && (c.includes('title') || c.includes('Title') || c.includes('name'))) return true;
  return e.attribs['data-testid']?.includes('title') === true;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5']);

/** `h1, h2, h3, h4, h5`. */
export const isHeading = (e: Element): boolean => HEADINGS.has(e.name);

/** The first value of `names` on `el` that passes `ok`, in the order of `names`. */
export function firstAttr(el: Element, names: readonly string[], ok: (v: string) => boolean): string | undefined {
  for (const a of names) {
    const v = el.attribs[a];
    if (v && ok(v)) return v;
  }
  return undefined;
}
