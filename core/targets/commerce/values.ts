/**
 * Value readers the commerce parsers share: prices with their ISO currency and the symbol the
 * page shows, availability, identifiers in product URLs, text and URL clean-up. Each answers
 * null when a value does not fit, so a caller can try its next source. Pure, no I/O.
 */
import { parseBoolean } from '../../extraction/coerce.js';
import { parseCount, parsePrice, parseRating } from '../../parsers/money.js';

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

/** A currency as structured data writes it: an ISO code, or a symbol (`$`, `€`). */
export function currencyCode(v: unknown, hint?: string | null): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^[A-Za-z]{3}$/.test(s)) return s.toUpperCase();
  return parsePrice(`${s} 1`, hint ?? undefined)?.currency ?? null;
}

/**
 * A price from structured data or a state blob (a number, `"49.95"`, `"$1,299.99"`,
 * `"1.299,00 €"`), with the currency the source names beside it (`currency`) or the page's
 * hint for a bare `$`.
 */
export function priceOf(v: unknown, currency?: unknown, hint?: string | null): Price | null {
  const named = currencyCode(currency, hint);
  if (typeof v === 'number') return Number.isFinite(v) ? { amount: v, currency: named ?? hint ?? null, symbol: symbolOf(named ?? hint ?? null) } : null;
  if (typeof v !== 'string') return null;
  const text = v.trim();
  // A plain decimal number written by a machine: "1299.00" is never thousands.
  if (/^-?\d+(\.\d+)?$/.test(text)) return { amount: Number(text), currency: named ?? hint ?? null, symbol: symbolOf(named ?? hint ?? null) };
  const p = parsePrice(text, named ?? hint ?? undefined);
  if (!p || p.amount === null) return null;
  return { amount: p.amount, currency: named ?? p.currency, symbol: p.symbol ?? symbolOf(named ?? p.currency) };
}

const SYM = String.raw`US\$|CA\$|C\$|AU\$|A\$|NZ\$|HK\$|S\$|MX\$|R\$|[$€£¥₹₩₽₺₫₪₴]|zł|Kč|\bkr|\bFt|\blei|\b[A-Z]{3}`;
const NUM = String.raw`\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?(?!\d)`;
const MONEY = new RegExp(`(${SYM})\\s?(${NUM})|(${NUM})\\s?(${SYM})`, 'g');
const CURRENCY_HINT = /[$€£¥₹₩₽₺₫₪₴]|zł|Kč|kr|Ft|lei|[A-Z]{3}/;
let codes: Set<string> | undefined;

function isCurrencyCode(s: string): boolean {
  codes ??= new Set(Intl.supportedValuesOf('currency'));
  return codes.has(s);
}

/**
 * The first price shown in a text: a number with a currency symbol or ISO code right beside
 * it ("1 offer from $59.99" → 59.99, "AED330.00" → 330 AED). Null when no number carries a
 * currency: a bare number is not a price, and "USB 3" names no currency.
 */
export function shownPrice(text: string, hint?: string | null): Price | null {
  // Most texts a page holds name no currency: one cheap test before the full pattern.
  if (!CURRENCY_HINT.test(text)) return null;
  MONEY.lastIndex = 0;
  for (let m = MONEY.exec(text); m; m = MONEY.exec(text)) {
    const sym = (m[1] ?? m[4]) as string;
    if (/^[A-Z]{3}$/.test(sym) && !isCurrencyCode(sym)) continue;
    const p = parsePrice(m[1] !== undefined ? `${sym} ${m[2]}` : `${m[3]} ${sym}`, hint ?? undefined);
    if (p && p.amount !== null) return { amount: p.amount, currency: p.currency, symbol: p.symbol ?? sym };
  }
  return null;
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
  // `/sku/<id>` and `/dp/<id>` name the id outright; `/product/<id>` may be followed by a slug or precede one.
  for (const marker of [/^(sku|skus|dp|gp-product)$/i, /^(product|products|item|items|p|ip|pd|prod|itm|goods|artikel|produkt|producto|produto)$/i]) {
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

/** The page's country currency from its host, for a bare `$` (`.ca` → CAD); null when `$` means dollars. */
export function currencyHintOf(url: string): string | null {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const m = /\.(ca|au|nz|mx|ar|cl|co|sg|hk|br|uy)$/.exec(host.replace(/\.com(?=\.[a-z]{2}$)/, ''));
  const map: Record<string, string> = { ca: 'CAD', au: 'AUD', nz: 'NZD', mx: 'MXN', ar: 'ARS', cl: 'CLP', co: 'COP', sg: 'SGD', hk: 'HKD', br: 'BRL', uy: 'UYU' };
  return m ? (map[m[1] as string] ?? null) : null;
}
