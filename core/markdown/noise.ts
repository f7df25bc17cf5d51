/**
 * Which elements are page chrome or invisible, decided at the open tag so the whole subtree is
 * skipped while parsing (nothing of it is kept in memory).
 *
 * The rules, in order:
 *  1. Tags that never carry readable main content: scripts, styles, embedded documents, media,
 *     form controls, navigation and asides (DROP_TAGS), and a `<dialog>` without `open`.
 *     `<form>` itself is kept: ASP.NET-style pages wrap the whole body in one.
 *  2. `<header>` / `<footer>` that are page-level, i.e. not inside `article`, `main` or `section`
 *     (the HTML rule for the banner/contentinfo roles).
 *  3. Hidden elements: `hidden` (except `hidden="until-found"`), `aria-hidden="true"`, inline
 *     `display:none`. (Not `visibility:hidden`: saved DOMs freeze fade-in animations in it.)
 *  4. Landmark roles of chrome: navigation, banner, contentinfo, complementary, search.
 *  5. Consent banners (the only class/id heuristic): an `id` or `class` containing `cookie`,
 *     `consent`, `gdpr`, or a known consent-platform prefix (`onetrust`, `didomi`,
 *     `usercentrics`). Never applied to html/body/main/article, whose classes often carry page
 *     state such as `cookie-banner-open`.
 *
 * Rules 3 and 5 read attributes that page state can set on a whole-page wrapper (a saved DOM
 * with a modal open has `aria-hidden="true"` on the app root). They are "soft": when they
 * leave the page empty, the caller parses again without them.
 */

import type { Attrs } from './attrs.js';

const DROP_TAGS: ReadonlySet<string> = new Set([
  'head', 'title', 'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'canvas', 'audio', 'video', 'map', 'link', 'meta', 'base', 'param',
  'source', 'track', 'input', 'select', 'textarea', 'button', 'option', 'optgroup', 'datalist',
  'output', 'progress', 'meter', 'nav', 'aside',
]);

const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'search',
]);

/** Tags never dropped by the class/id heuristic (their classes describe page state). */
const HEURISTIC_EXEMPT: ReadonlySet<string> = new Set(['html', 'body', 'main', 'article']);

const HIDDEN_STYLE = /(?:^|;)\s*display\s*:\s*none\b/i;
const CONSENT = /cookie|consent|gdpr|onetrust|didomi|usercentrics/i;

/** Why an element was dropped; soft drops are undone when they empty the page. */
export const KEEP = 0;
export const DROP_RULE = 1;
export const DROP_SOFT = 2;
export type Drop = typeof KEEP | typeof DROP_RULE | typeof DROP_SOFT;

/**
 * @param inSection whether an `article`, `main` or `section` is open around the element.
 * @param soft whether the soft rules (3 and 5) apply.
 */
export function dropReason(
  tag: string,
  attrs: Readonly<Attrs>,
  inSection: boolean,
  soft: boolean,
): Drop {
  if (DROP_TAGS.has(tag)) return DROP_RULE;
  if ((tag === 'header' || tag === 'footer') && !inSection) return DROP_RULE;
  if (tag === 'dialog' && attrs.open === undefined) return DROP_RULE;
  const role = attrs.role;
  if (role !== undefined && CHROME_ROLES.has(role.trim().toLowerCase())) return DROP_RULE;
  if (!soft) return KEEP;
  const hidden = attrs.hidden;
  if (hidden !== undefined && hidden.toLowerCase() !== 'until-found') return DROP_SOFT;
  if (attrs.ariaHidden === 'true') return DROP_SOFT;
  const style = attrs.style;
  if (style !== undefined && HIDDEN_STYLE.test(style)) return DROP_SOFT;
  if (!HEURISTIC_EXEMPT.has(tag)) {
    const id = attrs.id;
    const cls = attrs.cls;
    if ((id !== undefined && CONSENT.test(id)) || (cls !== undefined && CONSENT.test(cls))) {
      return DROP_SOFT;
    }
  }
  return KEEP;
}
