/**
 * The one money reader of every parser family: a displayed price ("$1,299.99", "1.234,56 €",
 * "CDN$ 75.98", "53,11 €", "AED330.00", "R$ 1.299,00", "19,-") becomes an amount and an
 * ISO 4217 code. What a bare symbol means (`$` on a `.ca` page is CAD, `kr` on `.no` NOK,
 * `¥` on `.cn` CNY) and which separator is the decimal one when the text alone cannot say
 * ("1.234": thousands on `.de`, "1,234": thousands on `.com`) come from the page's context,
 * read once per page from its URL (`moneyContext`). Ranges ("$10 – $25"), "from" prices
 * ("ab 5,99 €") and unit prices ("$0.25/count") are recognised and reported as such.
 *
 * Counts and star ratings as displayed are read by counts.ts (re-exported here). Pure, no I/O.
 */
import { ISO_CODES, SYMBOL_TOKENS, symbolCurrency } from './currencies.js';

export { moneyContext } from './currencies.js';
export { parseCount, parseRating } from './counts.js';

export interface MoneyContext {
  /** ISO code the page prices in: what a bare `$`, `kr` or `¥` means, and the currency of a price shown without one. */
  currency: string | null;
  /** The page locale's decimal mark, for texts that do not show which separator is which. */
  decimal: ',' | '.' | null;
}

export const NO_CONTEXT: MoneyContext = { currency: null, decimal: null };

export interface Money {
  /** The price as shown, whitespace-normalised: `$1,299.99`, `31,95 €`. */
  text: string;
  amount: number | null;
  /** ISO 4217 code, from the symbol or code shown, else the context's. */
  currency: string | null;
  /** The symbol or code as displayed (`$`, `€`, `AED`), or null. */
  symbol: string | null;
  /** The high end of a range ("$10.99 – $24.99" → 24.99). */
  upper?: number;
  /** Shown as a starting price ("from $5", "ab 5,99 €"). */
  from?: true;
  /** A unit price's unit ("$0.25/count" → `count`, "2,50 €/kg" → `kg`). */
  unit?: string;
}

/** `ctx` may be a context or (older call sites) a bare ISO hint. */
type Ctx = MoneyContext | string | null | undefined;
const ctxOf = (c: Ctx): MoneyContext => (c == null ? NO_CONTEXT : typeof c === 'string' ? { currency: c, decimal: null } : c);

/** Locales that write a decimal comma, when the page gives no other hint: the currency decides. */
const COMMA_CURRENCIES = new Set(['EUR', 'PLN', 'SEK', 'NOK', 'DKK', 'ISK', 'CZK', 'HUF', 'RON', 'BGN', 'TRY', 'RUB', 'UAH', 'BRL', 'ARS', 'CLP', 'COP', 'IDR', 'VND']);

const NUM = String.raw`\d{1,3}(?:(?:[.,'’]|[\u00a0\u202f\u2009 ](?=\d{3}(?!\d)))\d{3})+(?:[.,]\d{1,2})?(?![\d])|\d+(?:[.,]\d{1,3})?(?![\d])`;
const DASH_CENTS = String.raw`(?:[.,][-–—]{1,2})?`;
const MONEY = new RegExp(`(${SYMBOL_TOKENS})\\s?(${NUM})${DASH_CENTS}|(${NUM})${DASH_CENTS}\\s?(${SYMBOL_TOKENS})`, 'g');
const HAS_SYMBOL = new RegExp(SYMBOL_TOKENS);
const FIRST_NUMBER = new RegExp(NUM);
const LEADING_NUMBER = new RegExp(`^(?:${NUM})`);
const RANGE_JOIN = /^\s*(?:[-–—~]|to|bis|à|a|al|hasta|tot|till|do|до)\s*/i;
const FROM_WORD = /(?:^|[\s(])(?:from|starting at|as low as|ab|à partir de|dès|a partir de|desde|da|vanaf|från|fra|fr\.|od|от|から)\s*[:.]?\s*$/i;
const RANGE_LOW = new RegExp(`(${NUM})\\s*[-–—]\\s*$`);
const UNIT_AFTER = /^\s*\)?\s*(?:\/|per\s|pro\s|par\s|por\s|je\s)\s*(?:\d+(?:[.,]\d+)?\s*)?([A-Za-zµ]{1,12}\.?)/;

/**
 * A number as displayed, with its thousands and decimal separators told apart: both shown →
 * the last is the decimal mark; one repeated → thousands; one with three digits after it →
 * the context's decimal mark decides ("1.234" is 1234 on a decimal-comma page, 1.234 with a
 * decimal point), thousands when there is no context; else a decimal mark.
 */
export function parseAmount(token: string, decimal: ',' | '.' | null = null): number | null {
  let t = token.replace(/[\s\u00a0\u202f\u2009'’]/g, '').replace(/[.,][-–—]+$/, '').replace(/[.,]+$/, '');
  if (!/^\d[\d.,]*$/.test(t)) return null;
  const dot = t.lastIndexOf('.');
  const comma = t.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) {
    const dec = dot > comma ? '.' : ',';
    t = t.split(dec === '.' ? ',' : '.').join('').replace(dec, '.');
  } else if (dot >= 0 || comma >= 0) {
    const sep = dot >= 0 ? '.' : ',';
    const parts = t.split(sep);
    const thousands = parts.length > 2 || ((parts[1] as string).length === 3 && decimal !== sep);
    t = thousands ? parts.join('') : parts.join('.');
  }
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** The decimal mark to assume for a text: the context's, else the one its currency's locales use. */
function decimalFor(ctx: MoneyContext, currency: string | null): ',' | '.' | null {
  if (ctx.decimal) return ctx.decimal;
  if (currency) return COMMA_CURRENCIES.has(currency) ? ',' : '.';
  return null;
}

interface Hit {
  index: number;
  end: number;
  symbol: string;
  number: string;
  /** `$12` rather than `12 €`. */
  symbolFirst: boolean;
}

/** Symbols that are also words or units ("5 Ft tall", "RM 3"): prices only on a page of that currency. */
const WEAK = new Set(['Ft', 'TL', 'RM', 'Rp', 'lei', 'Rs', 'Fr.']);

function nextHit(text: string, from: number, ctx: MoneyContext): Hit | null {
  MONEY.lastIndex = from;
  for (let m = MONEY.exec(text); m; m = MONEY.exec(text)) {
    const symbol = (m[1] ?? m[4]) as string;
    // An uppercase word that is not a currency ("USB 3", "SKU 12") is no price.
    if ((/^[A-Z]{3}$/.test(symbol) && !ISO_CODES.has(symbol)) || (WEAK.has(symbol) && symbolCurrency(symbol, null) !== ctx.currency)) {
      MONEY.lastIndex = m.index + 1;
      continue;
    }
    // A code glued inside a word ("XUSD12") or a lone letter symbol inside one ("Fr" of "Free 3").
    const before = text[m.index - 1];
    if (m[1] !== undefined && /^[A-Za-z]/.test(symbol) && before !== undefined && /[A-Za-z]/.test(before)) {
      MONEY.lastIndex = m.index + 1;
      continue;
    }
    const after = text[m.index + m[0].length];
    if (m[4] !== undefined && /[A-Za-z]$/.test(symbol) && after !== undefined && /[A-Za-z]/.test(after)) {
      MONEY.lastIndex = m.index + 1;
      continue;
    }
    return { index: m.index, end: m.index + m[0].length, symbol, number: (m[2] ?? m[3]) as string, symbolFirst: m[1] !== undefined };
  }
  return null;
}

function toMoney(text: string, hit: Hit, ctx: MoneyContext): Money {
  const currency = symbolCurrency(hit.symbol, ctx.currency);
  const amount = parseAmount(hit.number, decimalFor(ctx, currency));
  const out: Money = { text: text.slice(hit.index, hit.end).trim(), amount, currency, symbol: hit.symbol };
  // "from $5", "ab 5,99 €"
  if (FROM_WORD.test(text.slice(Math.max(0, hit.index - 24), hit.index))) out.from = true;
  const rest = text.slice(hit.end);
  // "10–25 €": the range's low end is a bare number before the dash.
  const low = hit.symbolFirst ? null : RANGE_LOW.exec(text.slice(Math.max(0, hit.index - 24), hit.index));
  if (low) {
    const lo = parseAmount(low[1] as string, decimalFor(ctx, currency));
    if (lo !== null && amount !== null && lo < amount) {
      out.upper = amount;
      out.amount = lo;
      out.text = `${low[0].trim()}${out.text}`.trim();
    }
  }
  const unit = UNIT_AFTER.exec(rest);
  if (unit) out.unit = (unit[1] as string).toLowerCase().replace(/\.$/, '');
  else {
    // "$10.99 – $24.99", "10–25 €": a second amount right after a dash or "to" is the range's top.
    const join = RANGE_JOIN.exec(rest);
    const tail = join ? rest.slice(join[0].length) : '';
    const second = join ? nextHit(tail, 0, ctx) : null;
    const bare = join && !(second && second.index === 0) ? LEADING_NUMBER.exec(tail) : null;
    const top = second && second.index === 0 ? { number: second.number, end: second.end } : bare ? { number: bare[0], end: bare[0].length } : null;
    const upper = top ? parseAmount(top.number, decimalFor(ctx, currency)) : null;
    if (join && top && upper !== null && amount !== null && upper > amount) {
      out.upper = upper;
      out.text = text.slice(hit.index, hit.end + join[0].length + top.end).trim();
    }
  }
  return out;
}

/**
 * Whitespace collapsed, and the cents of a price split over two elements rejoined: markup such
 * as `<span>53</span> <span>,11 €</span>` reads "53 ,11 €", which is 53.11, not 11.
 */
const squash = (raw: string): string =>
  raw
    .replace(/[\s\u00a0\u202f\u2009\u200e\u200f]+/g, ' ')
    .replace(/(\d) ([.,]\d{2}(?!\d))/g, '$1$2')
    .trim();

/**
 * A price text: the first amount shown with a currency, else (a text of digits alone, as a
 * price element may hold) its first number in the context's currency. Null without digits.
 */
export function readMoney(raw: string | null | undefined, context?: Ctx): Money | null {
  if (!raw) return null;
  const text = squash(raw);
  if (!/\d/.test(text)) return null;
  const ctx = ctxOf(context);
  if (HAS_SYMBOL.test(text)) {
    const hit = nextHit(text, 0, ctx);
    if (hit) return toMoney(text, hit, ctx);
  }
  const n = FIRST_NUMBER.exec(text);
  if (!n) return null;
  return { text, amount: parseAmount(n[0], decimalFor(ctx, ctx.currency)), currency: ctx.currency, symbol: null };
}

/**
 * The first price shown in a longer text: a number with a currency symbol or code right beside
 * it ("1 offer from $59.99" → 59.99, "AED330.00" → 330 AED). Null when no number carries a
 * currency: a bare number is not a price, and "USB 3" names no currency.
 */
export function findMoney(text: string, context?: Ctx): Money | null {
  if (!HAS_SYMBOL.test(text)) return null;
  const s = squash(text);
  const hit = nextHit(s, 0, ctxOf(context));
  return hit ? toMoney(s, hit, ctxOf(context)) : null;
}

/**
 * The first price in a text that is not a unit price, read lean (no range or "from"): the
 * candidate scans of the commerce parsers ask this of most texts on a page.
 */
export function findPrice(text: string, context?: Ctx): Money | null {
  if (!HAS_SYMBOL.test(text)) return null;
  const s = squash(text);
  const ctx = ctxOf(context);
  for (let hit = nextHit(s, 0, ctx); hit; hit = nextHit(s, hit.end, ctx)) {
    if (UNIT_AFTER.test(s.slice(hit.end, hit.end + 24))) continue;
    const currency = symbolCurrency(hit.symbol, ctx.currency);
    const amount = parseAmount(hit.number, decimalFor(ctx, currency));
    if (amount !== null) return { text: s.slice(hit.index, hit.end).trim(), amount, currency, symbol: hit.symbol };
  }
  return null;
}

/** Every price shown in a text, in order (a range counts once). */
export function findAllMoney(text: string, context?: Ctx): Money[] {
  if (!HAS_SYMBOL.test(text)) return [];
  const s = squash(text);
  const ctx = ctxOf(context);
  const out: Money[] = [];
  for (let hit = nextHit(s, 0, ctxOf(context)); hit; ) {
    const m = toMoney(s, hit, ctx);
    out.push(m);
    const skip = m.upper !== undefined ? s.indexOf(m.text, hit.index) + m.text.length : hit.end;
    hit = nextHit(s, Math.max(skip, hit.end), ctx);
  }
  return out;
}

/** A currency as data writes it (an ISO code, a symbol: `"$"`, `"€"`, `"CDN$"`) → ISO code, or null. */
export function currencyCode(v: unknown, context?: Ctx): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^[A-Za-z]{3}$/.test(s)) return ISO_CODES.has(s.toUpperCase()) ? s.toUpperCase() : null;
  if (s === '' || s.length > 6) return null;
  return symbolCurrency(s, ctxOf(context).currency);
}

/**
 * Legacy name of `readMoney` for call sites that pass an ISO hint.
 * @deprecated use readMoney with a MoneyContext.
 */
export function parsePrice(raw: string | null | undefined, currencyHint?: string): Money | null {
  return readMoney(raw, currencyHint ?? null);
}
