/**
 * se2 links inside a result or ad box: click-tracking unwrapping and the box's sitelinks.
 *
 * A result box holds many links that are not pages of the result's site, in every generation
 * seen: the green address line (`cite`, `.b_attribution`; 2009-2014 `.sb_meta`, which also
 * holds the "Cached page" link), "Translate this page" (`.b_suffix`), the toolbox menu, the
 * encyclopedia licence line ("Text under CC-BY-SA license", `.wiki_attr`, or bare after a
 * wiki result's tab panel: any link to a licence), "Explore further"
 * tables of other sites' pages (`.pageRecoContainer`, 2021), warning pop-ups (`.infobubble`),
 * social-post carousels whose every card ends in "See More" (`.b_algoSocial`, 2020), and fact
 * rows whose names link to a search on the engine ("Author: ...", "Starring: ..."; also
 * "See more results" from the site). Only the rest are sitelinks.
 */
import type { Element } from '../../parsers/dom.js';
import { all, attr, closest, contains, hasClass, hostOf, linkTarget, text } from '../../parsers/dom.js';
import type { Link } from '../se1/parse/types.js';

/** Click-tracking links carry the target base64url-encoded in `u=a1...`. */
export function unwrapTracking(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    const enc = u.searchParams.get('u');
    if (u.pathname === '/ck/a' && enc && enc.startsWith('a1')) {
      const target = Buffer.from(enc.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
      if (/^https?:\/\//.test(target)) return target;
    }
  } catch {
    // Not absolute: keep as is.
  }
  return url;
}

const NOT_SITELINK_CLASSES = ['b_attribution', 'b_suffix', 'b_moreLink', 'sb_meta', 'wiki_attr', 'pageRecoContainer', 'infobubble', 'b_algoSocial'];

/** Boxes inside a result whose links are not the result's sitelinks (see the module comment). */
export const NOT_SITELINK = (e: Element): boolean => e.name === 'cite' || attr(e, 'role') === 'menu' || NOT_SITELINK_CLASSES.some((c) => hasClass(e, c));

const LICENCE = /^https?:\/\/creativecommons\.org\/licenses\//;

/**
 * A search on another host (`/search?q=...`): the engine's own entity and "more from this
 * site" links. Absolute in the captures, so they survive `linkTarget`; a site's own search
 * page under the result's host is left alone.
 */
function isSearchLink(url: string, mainHost: string): boolean {
  try {
    const u = new URL(url);
    return /\/search$/.test(u.pathname) && u.searchParams.has('q') && u.hostname !== mainHost;
  } catch {
    return false;
  }
}

export function linksOf(box: Element, skip: Element, mainUrl: string | null, pageUrl: string): Link[] {
  const out: Link[] = [];
  const seen = new Set<string>();
  const mainHost = mainUrl ? hostOf(mainUrl) : '';
  for (const a of all('a[href]', box)) {
    if (a === skip || contains(skip, a) || closest(a, (e) => e === box || NOT_SITELINK(e)) !== box || NOT_SITELINK(a)) continue;
    const url = unwrapTracking(linkTarget(a.attribs.href, pageUrl));
    const title = text(a);
    if (!url || !title || title.length > 120 || url === mainUrl || seen.has(url) || !/\p{L}{2}/u.test(title) || LICENCE.test(url) || isSearchLink(url, mainHost)) continue;
    seen.add(url);
    out.push({ title, url });
  }
  return out;
}
