/**
 * Prices, counts and ratings as displayed, normalised for the commerce and marketplace parsers
 * ("1.299,00 €", "$1,299.99", "AED 25.00", "4.5 out of 5 stars", "1.2K ratings"). A thin facade
 * over the locale-aware number and currency readers of core/extraction/coerce.ts, so that one
 * reading of numbers serves extraction and parsers alike.
 */
import { currencyOf, parseNumber } from '../extraction/coerce.js';

export interface Money {
  /** The price as shown, whitespace-normalised: `$1,299.99`, `31,95 €`. */
  text: string;
  amount: number | null;
  /** ISO 4217 code read from the symbol or code shown (`$` reads as USD without a hint). */
  currency: string | null;
  /** The symbol or code as displayed (`$`, `€`, `AED`), or null. */
  symbol: string | null;
}

const GLUED_CODE = /(?<![A-Za-z])([A-Z]{3})(?=\d)/;
const SYMBOL = /US\$|CA\$|C\$|AU\$|A\$|NZ\$|HK\$|S\$|MX\$|R\$|[$€£¥₹₩₽₺₫₪₴]|zł|Kč|\bkr\b|\b[A-Z]{3}\b/;

/**
 * A displayed price. `currencyHint` (an ISO code, e.g. from the storefront's domain) decides
 * what a bare `$` or `kr` means and is used when the text shows no currency at all.
 */
export function parsePrice(raw: string | null | undefined, currencyHint?: string): Money | null {
  if (!raw) return null;
  const text = raw.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  if (!/\d/.test(text)) return null;
  // Some storefronts glue the ISO code to the amount ("AED330.00"); the readers want a word
  // boundary between them. `text` stays as shown.
  const spaced = text.replace(GLUED_CODE, '$1 ');
  const amount = parseNumber(spaced) ?? null;
  const symbol = SYMBOL.exec(spaced)?.[0] ?? null;
  const read = currencyOf(spaced) ?? null;
  const currency = read === 'USD' && symbol === '$' && currencyHint ? currencyHint : (read ?? currencyHint ?? null);
  return { text, amount, currency, symbol };
}

/** A count as displayed: `1,234 ratings` → 1234, `1.2K` → 1200, `3 600 000 views` → 3600000. */
export function parseCount(raw: string | null | undefined): number | null {
  if (!raw) return null;
  // Counts are whole: a lone group of three digits after a separator is thousands in every
  // locale ("1.234 Bewertungen", "1,234 ratings"), which a price reader cannot assume.
  const grouped = /\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?![\d.,])/.exec(raw);
  if (grouped && !/^\s*[kKmMbB](?![a-zA-Z])/.test(raw.slice(grouped.index + grouped[0].length))) return Number(grouped[0].replace(/\D/g, ''));
  const n = parseNumber(raw);
  return n === undefined ? null : Math.round(n);
}

/** A rating as displayed: `4.5 out of 5 stars`, `4,5 von 5 Sternen`, `Rated 4.7/5` → 4.5 / 4.7. */
export function parseRating(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const m = /(\d(?:[.,]\d+)?)/.exec(raw);
  if (!m) return null;
  const n = Number((m[1] as string).replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}
