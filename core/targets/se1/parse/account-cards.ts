/**
 * Account carousels (the Twitter/X card group, 2019-2024 captures): a section headed by one link
 * to an account ("Movement (@movementlabsxyz) · X", an `h3` in a link, with its own `cite`)
 * above a scrolling carousel of posts by that account, each card linking a post on the same site
 * (`twitter.com/<account>/status/<id>`). The header looks like an organic result (a result-level
 * heading in an external link) but is the group's title: the whole block is one feature.
 *
 * Told by structure, not by class names or the site: the heading's link and the carousel's card
 * links sit in one section (`g-section-with-header`) and point at the same host. The output shape
 * (types.ts, the evaluator's view) has no field for social posts, so the group is only kept out
 * of `organic`.
 */
import type { Element } from '../../../parsers/dom.js';
import { all, hostOf, linkTarget } from '../../../parsers/dom.js';
import { regionRoot } from './regions.js';

const CARD_LINKS = 'g-scrolling-carousel g-inner-card a[href], g-scrolling-carousel a[href] g-inner-card';

/** Hosts seen as the same site for the group (`www.` and the mobile subdomain drop). */
function siteOf(url: string): string {
  return hostOf(url).replace(/^(www|mobile|m)\./, '');
}

/**
 * Whether the headed link `anchor` (to `url`) titles an account carousel. Only a link inside a
 * section is looked at (few per page), and each section's card hosts are read once (`memo`).
 */
export function titlesAccountCarousel(anchor: Element, url: string, pageUrl: string, memo: Map<Element, Set<string>>): boolean {
  const section = regionRoot(anchor, 'section');
  if (!section) return false;
  let hosts = memo.get(section);
  if (!hosts) {
    hosts = new Set<string>();
    for (const a of all(CARD_LINKS, section)) {
      const target = linkTarget(a.attribs.href, pageUrl);
      if (target) hosts.add(siteOf(target));
    }
    memo.set(section, hosts);
  }
  return hosts.has(siteOf(url));
}
