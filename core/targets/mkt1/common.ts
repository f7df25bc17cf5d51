/**
 * Helpers shared by the mkt1 parsers: the page context (DOM, raw HTML for script data, the
 * marketplace and its currency), prices as the storefront shows them (`.a-offscreen`, or the
 * symbol/whole/fraction spans when the offscreen copy is empty), star ratings, bot walls, and
 * the reference service's `parse_status_code` values. Pure, no I/O.
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, contains, loadHtml, one, text } from '../../parsers/dom.js';
import { moneyContext, parseCount, parseRating, readMoney, type MoneyContext } from '../../parsers/money.js';
import { loadPruned, type Keep } from '../../parsers/prune.js';
import type { PageInput, ParseStatus } from '../../parsers/types.js';
import { currencyOfDomain, domainOfPage, domainOfUrl, MKT1_DEFAULT_DOMAIN } from './marketplaces.js';

export interface Page {
  doc: Document;
  /** The raw page (script bodies included: `loadHtml` empties them in the DOM). */
  html: string;
  url: string;
  /** Marketplace domain: the request's `domain`, else the URL's, else `com`. */
  domain: string;
  /** ISO currency of the marketplace, the hint for bare symbols. */
  currency: string | undefined;
  /** The money reader's context: that currency and the marketplace's decimal mark. */
  money: MoneyContext;
}

/**
 * The page context. With `keep`, the DOM holds only the elements the parser reads (see
 * regions.ts); when that cut lacks what `recognised` looks for (the page is not of the kind
 * expected, or the scan stopped early) the whole page is loaded, so a strange page is parsed
 * as before.
 */
export function pageOf(input: PageInput, keep?: Keep, recognised?: (doc: Document) => boolean): Page {
  const cut = keep ? cutPage(input.html, keep) : null;
  const doc = cut && (!recognised || recognised(cut)) ? cut : loadHtml(input.html);
  // The request's domain, else the page URL's, else the page's own canonical or og:url link, else its marketplace id.
  const own = attr(one('link[rel=canonical]', doc), 'href') ?? attr(one('meta[property="og:url"]', doc), 'content');
  const domain =
    (typeof input.params.domain === 'string' ? input.params.domain : undefined) ??
    domainOfUrl(input.url) ??
    (own ? domainOfUrl(own) : undefined) ??
    domainOfPage(input.html) ??
    MKT1_DEFAULT_DOMAIN;
  // A requested currency preference shows prices in that currency: it is the better hint.
  const wanted = typeof input.params.currency === 'string' ? input.params.currency.toUpperCase() : undefined;
  const currency = wanted ?? currencyOfDomain(domain);
  return { doc, html: input.html, url: input.url, domain, currency, money: { currency: currency ?? null, decimal: moneyContext(`https://www.mkt1.${domain}/`).decimal } };
}

/** The cut page, or null: the cut only saves time, so anything going wrong in it means the whole page. */
function cutPage(html: string, keep: Keep): Document | null {
  try {
    return loadPruned(html, keep);
  } catch {
    return null;
  }
}

/** The reference service's parse status codes. */
export function statusCode(status: ParseStatus): number {
  return status === 'parsed' ? 12000 : status === 'partial' ? 12004 : 12002;
}

export interface Amount {
  amount: number;
  currency: string | null;
}

/** A price text (`$35.99`, `AED330.00`, `1.299,00 €`) as amount and ISO currency. */
export function money(raw: string | null | undefined, page: Page): Amount | null {
  const p = readMoney(raw, page.money);
  if (!p || p.amount === null) return null;
  return { amount: p.amount, currency: p.currency };
}

/** The displayed text of an `.a-price` block: its offscreen copy, else its visible parts. */
export function priceText(el: Element | null): string {
  if (!el) return '';
  const off = one('.a-offscreen', el);
  const t = off ? text(off) : '';
  if (t && /\d/.test(t)) return t;
  const whole = text(one('.a-price-whole', el)).replace(/[.,]$/, '');
  if (!whole) return text(el);
  const fraction = text(one('.a-price-fraction', el));
  const symbol = text(one('.a-price-symbol', el));
  const sep = /,/.test(text(one('.a-price-decimal', el))) ? ',' : '.';
  const num = fraction ? `${whole}${sep}${fraction}` : whole;
  return /^\D/.test(symbol) && !/€|zł|kr/.test(symbol) ? `${symbol}${num}` : `${num} ${symbol}`.trim();
}

/** The first price of the first element matching `selector` under `root`. */
export function priceAt(selector: string, root: Element | Document, page: Page): Amount | null {
  for (const el of all(selector, root)) {
    const m = money(el.attribs.class?.includes('a-price') ? priceText(el) : text(el), page);
    if (m) return m;
  }
  return null;
}

/** `4.5 out of 5 stars`, `4,1 de 5 estrellas` → 4.5 / 4.1; null when absent or out of range. */
export function starsOf(raw: string | null | undefined): number | null {
  const r = parseRating(raw);
  return r !== null && r >= 0 && r <= 5 ? r : null;
}

/** A count (`1,234 ratings`, `(3,605)`, `5.182 valoraciones`); null when none. */
export function countOf(raw: string | null | undefined): number | null {
  if (!raw || !/\d/.test(raw)) return null;
  return parseCount(raw);
}

/**
 * Elements matching `selector` inside the containers matching `containers` (ids, usually).
 * Scoping first keeps queries whose last part is broad (`a`, `li`, `tr`) from testing every
 * such element of a 2 MB page against its ancestors. Containers nested in another one (the
 * storefront repeats some ids on a wrapper and its child) are searched once.
 */
export function inside(containers: string, selector: string, doc: Document): Element[] {
  const roots = all(containers, doc);
  const top = roots.filter((r) => !roots.some((o) => o !== r && contains(o, r)));
  const out: Element[] = [];
  for (const r of top) for (const el of all(selector, r)) out.push(el);
  return out;
}

/** Text of the first element matching `selector`, whitespace-normalised; '' when absent. */
export function textAt(selector: string, root: Element | Document): string {
  return text(one(selector, root));
}

/** A storefront link as written on the page (relative paths stay relative, as the reference). */
export function hrefOf(el: Element | null): string {
  const h = attr(el, 'href');
  return h ? h.trim() : '';
}

/** Whether the page is the storefront's robot check instead of content. */
export function isBotWall(html: string): boolean {
  const head = html.length > 60_000 ? html.slice(0, 60_000) : html;
  return (
    /\/errors\/validateCaptcha|captchacharacters|api-services-support@/.test(head) ||
    (/<title>[^<]*(Robot Check|Amazon\.[a-z.]+ - Captcha|Sorry! Something went wrong)[^<]*<\/title>/i.test(head) && head.length < 30_000)
  );
}

/** Absolute URL of a storefront link (images and links in other origins stay as they are). */
export function absolute(href: string, pageUrl: string): string {
  if (!href) return '';
  try {
    return new URL(href, pageUrl).toString();
  } catch {
    return href;
  }
}

/** The seller id in a seller link (`/gp/aag/main?seller=A1B2`, `/sp?seller=A1B2`, `&me=A1B2`). */
export function sellerIdOf(href: string): string {
  const m = /[?&](?:seller|me|merchantId)=([A-Z0-9]+)/i.exec(href);
  return m ? (m[1] as string) : '';
}

/** A first-capture-group regex read of the raw page, or ''. */
export function scan(html: string, re: RegExp): string {
  const m = re.exec(html);
  return m ? (m[1] as string) : '';
}
