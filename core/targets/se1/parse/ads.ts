/**
 * se1 paid results: text ads (`data-text-ad` units since ~2021, `li.ads-ad` before) and shopping
 * units (`pla-unit` cards). The ad's title is the heading inside its main link; the landing URL is
 * that link's target (the tracking redirect is only used when nothing better is on the card).
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, hasClass, hostOf, linkTarget, one, text } from '../../../parsers/dom.js';
import { priceOf } from '../../../parsers/values.js';
import { linesOf } from './lines.js';
import { headingTitle } from './news.js';
import { inRegion } from './regions.js';
import type { Link, PaidResult, ShoppingUnit } from './types.js';

const UNIT = '[data-text-ad], li.ads-ad';
const AD_BOX = 'uEierd';
const DESCRIPTION = '.ads-creative, .Va3FIb, .yDYNvb, [data-content-feature="1"]';

function blockOf(unit: Element): 'top' | 'bottom' {
  return closest(unit, (e) => e.attribs.id === 'bottomads' || e.attribs.id === 'tadsb') ? 'bottom' : 'top';
}

function mainLink(unit: Element): { anchor: Element; heading: Element } | null {
  for (const heading of all('h3, [role="heading"]', unit)) {
    const anchor = closest(heading, (e) => e.name === 'a' && e.attribs.href !== undefined, 6);
    if (anchor && contains(unit, anchor)) return { anchor, heading };
  }
  return null;
}

/** The engine's ad-click redirect (`/aclk?…`), which stands for the landing page on basic-HTML ads. */
function isAdClick(url: string): boolean {
  return /\/aclk\?/.test(url) || /(^|\.)googleadservices\./.test(hostOf(url));
}

function landingUrl(unit: Element, anchor: Element, pageUrl: string): string | null {
  const direct = linkTarget(anchor.attribs.href, pageUrl);
  if (direct && !isAdClick(direct)) return direct;
  // Basic-HTML ads link the click redirect and name the landing page in `data-pcu`.
  const pcu = linkTarget(anchor.attribs['data-pcu']?.split(',')[0], pageUrl);
  if (pcu) return pcu;
  // Older cards put the tracking link first and the landing link (same heading) next to it.
  for (const a of all('a[href]', unit)) {
    const u = linkTarget(a.attribs.href, pageUrl);
    if (u && !isAdClick(u)) return u;
  }
  return direct ?? linkTarget(anchor.attribs.href, pageUrl, true);
}

function displayedUrl(unit: Element): string | null {
  const el = one('[data-dtld][role="text"], cite, [role="text"]', unit);
  return el ? text(el) || null : null;
}

function descriptionOf(unit: Element, anchor: Element): string | null {
  const el = all(DESCRIPTION, unit).find((e) => !contains(anchor, e) && !one('a', e));
  if (el) return text(el) || null;
  const t = text(unit, (e) => e.name === 'a' || e.name === 'cite' || e.name === 'ul' || attr(e, 'role') === 'button');
  return t || null;
}

function adSitelinks(unit: Element, anchor: Element, url: string | null, pageUrl: string): Link[] {
  const out: Link[] = [];
  const seen = new Set<string>();
  for (const a of all('a[href]', unit)) {
    if (a === anchor || contains(anchor, a) || closest(a, (e) => e.name === 'cite' || hasClass(e, 'ads-visurl'), 4)) continue;
    // Seller-rating links sit next to the stars, not among the ad's own links.
    if (a.parent && one('g-review-stars', a.parent)) continue;
    // A card sitelink holds its title line and a description line: the title is the first.
    const title = headingTitle(a);
    const target = linkTarget(a.attribs.href, pageUrl);
    if (!title || !target || target === url || seen.has(target) || !/\p{L}{2}/u.test(title)) continue;
    seen.add(target);
    out.push({ title, url: target });
  }
  return out;
}

/*
 * Sponsored card carousels inside the ad regions (the "Tickets & tours" and hotel-offer
 * carousels, loaded into `#tads` asynchronously, 2023-2024): each card is one link that goes
 * through the engine's click redirect (in `href`, or in `data-arwt` beside the landing `href`),
 * its text lines the offer: title first, then price, seller, rating.
 */
const CARD_LINK = 'g-scrolling-carousel a';

function clickOf(a: Element): string {
  return a.attribs['data-arwt'] ?? a.attribs['data-rw'] ?? a.attribs.href ?? '';
}

/** The card's landing page: its own outside link, else the redirect's `adurl`, else the redirect. */
function cardLanding(a: Element, pageUrl: string): string | null {
  const direct = linkTarget(a.attribs.href, pageUrl);
  if (direct && !isAdClick(direct)) return direct;
  const adurl = direct ? new URLSearchParams(direct.slice(direct.indexOf('?') + 1)).get('adurl') : null;
  return adurl && /^https?:\/\//.test(adurl) ? adurl : direct;
}

function cardAd(a: Element, pageUrl: string): Omit<PaidResult, 'position'> | null {
  // Product cards (shopping regions) are shopping units, read below; text-ad boxes are read whole.
  if (!/\/aclk\?/.test(clickOf(a)) || !inRegion(a, 'ads') || inRegion(a, 'shopping') || hasClass(a, 'pla-unit')) return null;
  if (closest(a, (e) => e.attribs['data-text-ad'] !== undefined || hasClass(e, AD_BOX))) return null;
  const url = cardLanding(a, pageUrl);
  const [title, ...rest] = linesOf(a).map((l) => l.text);
  if (!url || !title) return null;
  return { block: blockOf(a), title, url, displayed_url: null, description: rest.join(' · ') || null, sitelinks: [] };
}

export function parseTextAds(doc: Document, pageUrl: string): PaidResult[] {
  const out: PaidResult[] = [];
  // A `uEierd` box is a whole ad on basic-HTML pages (2020-2023) and only a wrapper around the
  // `data-text-ad` unit elsewhere: it counts as the unit when it holds none.
  const units = all(`${UNIT}, .${AD_BOX}, ${CARD_LINK}`, doc)
    .filter((u) => !hasClass(u, AD_BOX) || one('[data-text-ad]', u) === null)
    .filter((u, i, arr) => u.name === 'a' || !arr.some((o, j) => j !== i && o.name !== 'a' && contains(o, u) && o !== u));
  for (const unit of units) {
    if (unit.name === 'a') {
      const card = cardAd(unit, pageUrl);
      if (card) out.push({ position: out.length + 1, ...card });
      continue;
    }
    const main = mainLink(unit);
    if (!main) continue;
    const url = landingUrl(unit, main.anchor, pageUrl);
    if (!url) continue;
    out.push({
      position: out.length + 1,
      block: blockOf(unit),
      title: text(main.heading),
      url,
      displayed_url: displayedUrl(unit),
      description: descriptionOf(unit, main.anchor),
      sitelinks: adSitelinks(unit, main.anchor, url, pageUrl),
    });
  }
  return out;
}

/** Product listing cards: title, price and merchant from their long-lived slots. */
export function parseShoppingUnits(doc: Document, pageUrl: string): ShoppingUnit[] {
  const out: ShoppingUnit[] = [];
  const seen = new Set<string>();
  for (const unit of all('.pla-unit', doc)) {
    const heading = one('[role="heading"], h3, .pla-unit-title', unit);
    const titleEl = heading ? one('.pymv4e', heading) ?? heading : null;
    const title = titleEl ? text(titleEl) : '';
    if (!title) continue;
    let url: string | null = null;
    // The unit may be the link itself (mobile cards, 2021).
    for (const a of unit.name === 'a' ? [unit, ...all('a[href]', unit)] : all('a[href]', unit)) {
      url = linkTarget(a.attribs.href, pageUrl);
      if (url) break;
    }
    const key = `${title}\u0000${url ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const price = one('.e10twf, [data-price]', unit);
    const merchantBox = one('.LbUacb, [data-merchant]', unit);
    const merchant = merchantBox ? one('span', merchantBox) ?? merchantBox : null;
    // The slot may also hold the struck-through former price: keep the first amount.
    let priceText = price ? priceOf(text(price))?.text ?? (text(price) || null) : null;
    let merchantText = merchant ? text(merchant) || null : null;
    if (!price && !merchantBox) [priceText, merchantText] = priceAndSeller(unit, title);
    out.push({ position: out.length + 1, title, url, price: priceText, merchant: merchantText });
  }
  return out;
}

/**
 * Cards without the price and merchant slots (2021 mobile): the first line after the title that
 * is only an amount is the price, the line after it the seller.
 */
function priceAndSeller(unit: Element, title: string): [string | null, string | null] {
  const lines = linesOf(unit).map((l) => l.text).filter((l) => l !== title);
  const i = lines.findIndex((l) => l.length <= 24 && /\d/.test(l) && priceOf(l)?.text === l);
  return i < 0 ? [null, null] : [lines[i] as string, lines[i + 1] ?? null];
}
