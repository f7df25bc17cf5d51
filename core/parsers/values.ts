/**
 * Reading values out of card text: prices, ratings with review counts, abbreviated counts.
 * Language-neutral where the markup is (digits, currency symbols, "4.5(1.2K)" shapes).
 */
import { parseNumber } from './dom.js';

const CURRENCY = '[$€£¥₹₩]|US\\$|CA\\$|A\\$|R\\$|[A-Z]{3}(?=\\s?\\d)';
const AMOUNT = '\\d{1,3}(?:[.,\\u00a0\\u202f ]\\d{3})*(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?';
const PRICE = new RegExp(`(?:(${CURRENCY})\\s?(${AMOUNT}))|(?:(${AMOUNT})\\s?(${CURRENCY.replace('(?=\\s?\\d)', '\\b')}))`);

export interface Price {
  /** As shown, e.g. `$1,299.00`, `31,95 €`. */
  text: string;
  value: number | null;
  currency: string | null;
}

/** The first price in a text. */
export function priceOf(raw: string | null | undefined): Price | null {
  if (!raw) return null;
  const m = raw.match(PRICE);
  if (!m) return null;
  const currency = m[1] ?? m[4] ?? null;
  const amount = m[2] ?? m[3] ?? '';
  return { text: m[0].trim(), value: amountOf(amount), currency };
}

/** `1,299.00` → 1299; `31,95` → 31.95; `1.299,00` → 1299. */
export function amountOf(raw: string): number | null {
  const s = raw.replace(/[\u00a0\u202f ]/g, '');
  const m = s.match(/^(.*?)([.,](\d{1,2}))?$/);
  if (!m) return null;
  const whole = m[1].replace(/[.,]/g, '');
  const n = Number(m[3] !== undefined ? `${whole}.${m[3]}` : whole);
  return Number.isFinite(n) ? n : null;
}

const RATING = /(\d[.,]\d)\s*\(([\d.,]+\s*[KkMm]?)\)/;

/** `1.2K` → 1200; `4,863` → 4863. */
export function countOf(raw: string): number | null {
  const m = raw.trim().match(/^\(?([\d.,]+)\s*([KkMm]?)\)?$/);
  if (!m) return parseNumber(raw);
  if (m[2] === '') return parseNumber(m[1]);
  const mult = /k/i.test(m[2]) ? 1000 : 1_000_000;
  return Math.round(Number(m[1].replace(',', '.')) * mult);
}

/** A "4.5 (1,234)" rating with its review count, anywhere in the text. */
export function ratingOf(raw: string): { rating: number | null; reviews: number | null } {
  const m = raw.match(RATING);
  if (!m) return { rating: null, reviews: null };
  return { rating: Number(m[1].replace(',', '.')), reviews: countOf(m[2]) };
}

export { RATING };
