/**
 * Value readers the commerce parsers share: prices with their ISO currency and the symbol the
 * page shows, availability, identifiers in product URLs, text and URL clean-up. Each answers
 * null when a value does not fit, so a caller can try its next source. Pure, no I/O.
 */
import { parseBoolean } from '../../extraction/coerce.js';
import { currencyCode as moneyCurrency, findPrice, moneyContext, parseCount, parseRating, readMoney, type MoneyContext } from '../../parsers/money.js';

export { parseCount, parseRating };

export interface Price {
  amount: number | null;
  /** ISO 4217. */
  currency: string | null;
  /** As the page shows it (`$`, `€`, `AED`), else the usual symbol of `currency`. */
  symbol: string | null;
}

const symbols = new Map<string, string | null>();

/** The usual symbol of an ISO code (`USD` → `$`, `EUR` → `€`, `AED` → `AED`). */
export function symbolOf(iso: string | null): string | null {
  if (!iso || !/^[A-Z]{3}$/.test(iso)) return null;
  let s = symbols.get(iso);
  if (s === undefined) {
    try {
      s = new Intl.NumberFormat('en-US', { style: 'currency', currency: iso }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? null;
    } catch {
      s = null;
    }
    symbols.set(iso, s);
  }
  return s;
}

/** The page's money context (its country's currency and decimal mark), or null: what a bare `$` means. */
export type MoneyHint = MoneyContext | null;

/** A currency as structured data writes it: an ISO code, or a symbol (`$`, `€`). */
export function currencyCode(v: unknown, hint?: MoneyHint): string | null {
  return moneyCurrency(v, hint);
}

/**
 * A price from structured data or a state blob (a number, `"49.95"`, `"$1,299.99"`,
 * `"1.299,00 €"`), with the currency the source names beside it (`currency`) or the page's
 * for a bare `$` or a bare number.
 */
export function priceOf(v: unknown, currency?: unknown, hint?: MoneyHint): Price | null {
  const named = currencyCode(currency, hint);
  const cur = named ?? hint?.currency ?? null;
  if (typeof v === 'number') return Number.isFinite(v) ? { amount: v, currency: cur, symbol: symbolOf(cur) } : null;
  if (typeof v !== 'string') return null;
  const text = v.trim();
  // A plain decimal number written by a machine: "1299.00" is never thousands.
  if (/^-?\d+(\.\d+)?$/.test(text)) return { amount: Number(text), currency: cur, symbol: symbolOf(cur) };
  const p = readMoney(text, named ? { currency: named, decimal: hint?.decimal ?? null } : hint);
  if (!p || p.amount === null) return null;
  return { amount: p.amount, currency: named ?? p.currency, symbol: p.symbol ?? symbolOf(named ?? p.currency) };
}

/**
 * A price text less a free-shipping note after the number ("$5.99 FREE shipping": a handmade
 * marketplace's price box holds its shipping badge). The shipping words would class the price
 * as a shipping fee; a note before the number ("Free delivery over $25") stays, as it is one.
 */
export function withoutFreeShipping(t: string): string {
  return FREE_SHIPPING_AFTER.test(t) ? t.replace(FREE_SHIPPING_AFTER, '') : t;
}
const FREE_SHIPPING_AFTER = /(?<=\d[^a-z]*)\s*\+?\s*\b(?:free|kostenlose[rn]?|gratis)\s+(?:shipping|delivery|versand|lieferung)\s*$/i;

/**
 * The first price shown in a text: a number with a currency symbol or ISO code right beside
 * it ("1 offer from $59.99" → 59.99, "AED330.00" → 330 AED), unit prices ("$0.25/count")
 * passed over. Null when no number carries a currency: a bare number is not a price, and
 * "USB 3" names no currency.
 */
export function shownPrice(text: string, hint?: MoneyHint): Price | null {
  const m = findPrice(text, hint);
  return m ? { amount: m.amount, currency: m.currency, symbol: m.symbol } : null;
}

/** Availability from a schema.org URL, a stock word or a boolean. */
export function availabilityOf(v: unknown): boolean | null {
  if (typeof v !== 'string') return parseBoolean(v) ?? null;
  if (/pre-?order|back-?order|limited/i.test(v)) return true;
  // State blobs write IN_STOCK, OUT_OF_STOCK, in-stock.
  return parseBoolean(v.replace(/[_-]+/g, ' ')) ?? null;
}

const NAMED: Readonly<Record<string, string>> = {
  amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ', trade: '™', reg: '®', copy: '©', hellip: '…', ndash: '–', mdash: '—', euro: '€', pound: '£', bull: '•',
};

/**
 * Text from structured data or JSON, whitespace-normalised: tags dropped and character
 * references decoded (APIs and JSON-LD often carry `&#38;`, `&#8482;`, `&amp;` in their strings).
 */
export function clean(s: unknown): string | null {
  if (typeof s !== 'string' && typeof s !== 'number') return null;
  let t = String(s);
  if (t.includes('<')) t = t.replace(/<[^>]{0,200}>/g, ' ');
  if (t.includes('&')) {
    t = t.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (m, e: string) => {
      if (e[0] !== '#') return NAMED[e.toLowerCase()] ?? m;
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    });
  }
  t = t.replace(/[\s\u00a0\u200b\u200e\u200f]+/g, ' ').trim();
  return t === '' ? null : t;
}

export function absolute(href: unknown, base: string): string | null {
  if (typeof href !== 'string') return null;
  const h = href.trim();
  if (h === '' || /^(javascript|data|mailto):/i.test(h) || h.startsWith('#')) return null;
  try {
    return new URL(h.startsWith('//') ? `https:${h}` : h, base || 'http://localhost/').href;
  } catch {
    return null;
  }
}

/** Query parameters that name a product in its URL. */
const ID_PARAMS = ['skuId', 'sku', 'productId', 'product_id', 'pid', 'itemId', 'item_id', 'asin', 'tcin', 'id'];

/**
 * The product identifier a product URL carries: `/dp/<id>`, `/sku/<id>`, `/p/<slug>/-/A-<id>`,
 * `/product/<id>/<slug>`, `/ip/<slug>/<id>`, `…-p<id>.html`, `?skuId=` and the like. Null for
 * URLs that show none (a slug alone is not an id).
 */
export function idFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const segs = u.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  for (const s of segs) {
    const m = /^(?:A-|[a-z0-9-]+-p)(\d{5,})(?:\.html?)?$/i.exec(s);
    if (m) return m[1] as string;
  }
  // An id that opens its slug: `/product-gs/285092926-children-suit-wholesalers.html`.
  for (const s of segs) {
    const m = /^(\d{6,})-\p{L}/u.exec(s);
    if (m) return m[1] as string;
  }
  // `/sku/<id>` and `/dp/<id>` name the id outright; `/product/<id>` may be followed by a slug or precede one.
  for (const marker of [/^(sku|skus|dp|gp-product)$/i, /^(product|products|item|items|p|ip|pd|prod|itm|goods|artikel|produkt|producto|produto|listing|listings)$/i]) {
    for (let i = 0; i < segs.length - 1; i++) {
      if (!marker.test(segs[i] as string)) continue;
      for (const cand of segs.slice(i + 1, i + 3)) if (isIdLike(cand)) return cand.replace(/\.html?$/i, '');
    }
  }
  for (const k of ID_PARAMS) {
    const v = u.searchParams.get(k);
    if (v && isIdLike(v)) return v;
  }
  const last = segs[segs.length - 1];
  return last !== undefined && /^\d{5,}(\.html?)?$/.test(last) ? last.replace(/\.html?$/i, '') : null;
}

/** An identifier token: digits, or letters and digits mixed, 4–40 characters, no spaces. */
export function isIdLike(s: string): boolean {
  const t = s.replace(/\.html?$/i, '');
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{3,39}$/.test(t) || !/\d/.test(t)) return false;
  // A slug with a number in it ("anker-24000mah") is words, not an id.
  const parts = t.split(/[-_]/);
  return !(parts.length > 1 && parts.some((p) => /^[A-Za-z]{3,}$/.test(p)));
}

/**
 * The page's money context: its country from the host (`.ca` → CAD, `.de` → EUR with a
 * decimal comma) or a locale in its path, and its `<html lang>` for the decimal mark.
 */
export function currencyHintOf(url: string, html?: string): MoneyContext {
  const lang = html ? /<html\b[^>]*?\blang=["']?([A-Za-z]{2}(?:[-_][A-Za-z]{2})?)/i.exec(html.slice(0, 4000))?.[1] : undefined;
  return moneyContext(url, lang ?? null);
}
