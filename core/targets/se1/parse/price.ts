/**
 * Prices on se1 pages through the shared money reader (core/parsers/money.ts): the amount and
 * an ISO 4217 currency, with what a bare `$` or a "1.234" means taken from the page's country
 * (the engine's domain: `.de` → EUR, decimal comma) and interface language (`<html lang>`).
 */
import type { Document } from '../../../parsers/dom.js';
import { one } from '../../../parsers/dom.js';
import { findMoney, moneyContext, type MoneyContext } from '../../../parsers/money.js';

export interface Price {
  /** As shown: `$1,299.00`, `79,95 €`. */
  text: string;
  value: number | null;
  /** ISO 4217 code (`USD`, `EUR`), or null when the page shows no currency. */
  currency: string | null;
}

export function pageMoney(doc: Document, pageUrl: string): MoneyContext {
  return moneyContext(pageUrl, one('html', doc)?.attribs.lang ?? null);
}

/** The first price shown in a text (a struck-through former price after it is ignored). */
export function priceIn(raw: string | null | undefined, ctx: MoneyContext): Price | null {
  if (!raw) return null;
  const m = findMoney(raw, ctx);
  return m ? { text: m.text, value: m.amount, currency: m.currency } : null;
}
