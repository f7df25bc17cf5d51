/**
 * Turning page values (strings from markup, JSON-LD values) into the types a schema asks for:
 * locale-aware numbers and prices ("1.299,00 €" → 1299), currencies, stock booleans, dates,
 * absolute URLs, enums and patterns. Every function answers `undefined` when the value does
 * not fit, so the caller can try the next candidate.
 */
import { clean } from './dom.js';
import type { SchemaView } from './schema.js';

// Letter-prefixed dollars first, each not preceded by another letter ("US$" is not "S$").
const SYMBOLS: [RegExp, string][] = [
  [/(?<![A-Z])US\$/i, 'USD'], [/(?<![A-Z])R\$/, 'BRL'], [/(?<![A-Z])(?:CA|C)\$/, 'CAD'], [/(?<![A-Z])(?:AU|A)\$/, 'AUD'],
  [/(?<![A-Z])NZ\$/, 'NZD'], [/(?<![A-Z])HK\$/, 'HKD'], [/(?<![A-Z])S\$/, 'SGD'], [/(?<![A-Z])MX\$/, 'MXN'], [/\$/, 'USD'],
  [/€/, 'EUR'], [/£/, 'GBP'], [/¥|円/, 'JPY'], [/₹/, 'INR'], [/₩/, 'KRW'], [/₽/, 'RUB'], [/zł/i, 'PLN'], [/Kč/, 'CZK'],
  [/₺/, 'TRY'], [/₫/, 'VND'], [/₪/, 'ILS'], [/₴/, 'UAH'], [/\bFt\b/, 'HUF'], [/\blei\b/i, 'RON'],
];
const CODES = /\b(USD|EUR|GBP|JPY|CAD|AUD|NZD|CHF|CNY|RMB|INR|BRL|MXN|PLN|SEK|NOK|DKK|CZK|HUF|RON|TRY|AED|SAR|ZAR|SGD|HKD|KRW|RUB|UAH|ILS|THB|IDR|MYR|PHP|VND|ARS|CLP|COP|PEN)\b/;

/** The ISO 4217 code named or symbolised in a price text, if any. */
export function currencyOf(text: string): string | undefined {
  const code = CODES.exec(text.toUpperCase());
  if (code) return code[1] === 'RMB' ? 'CNY' : code[1];
  for (const [re, iso] of SYMBOLS) if (re.test(text)) return iso;
  return undefined;
}

const EURO_CONTEXT = /€|EUR|\bkr\b|zł|Kč|\bCHF\b|₽|\bFt\b|\blei\b|₺|R\$/i;

/**
 * The first number in a text, with thousands and decimal separators told apart: "1.299,00 €",
 * "$1,299.00", "1 299,00", "12,99", "4.5 out of 5", "1.2K views".
 */
export function parseNumber(text: string): number | undefined {
  const s = text.replace(/[\u2212\u2013]/g, '-');
  const m = /[-+]?\d{1,3}(?:[ \u00a0\u202f'’]\d{3})+(?:[.,]\d+)?|[-+]?\d[\d.,]*/.exec(s);
  if (!m) return undefined;
  let tok = m[0].replace(/[ \u00a0\u202f'’]/g, '').replace(/[.,]+$/, '');
  const lastDot = tok.lastIndexOf('.');
  const lastComma = tok.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const thou = dec === '.' ? ',' : '.';
    tok = tok.split(thou).join('').replace(dec, '.');
  } else if (lastComma >= 0) {
    const parts = tok.split(',');
    const thousands = parts.length > 2 || ((parts[1] as string).length === 3 && !EURO_CONTEXT.test(s));
    tok = thousands ? parts.join('') : parts.join('.');
  } else if (lastDot >= 0) {
    const parts = tok.split('.');
    const thousands = parts.length > 2 || ((parts[1] as string).length === 3 && EURO_CONTEXT.test(s));
    if (thousands) tok = parts.join('');
  }
  let n = Number(tok);
  if (!Number.isFinite(n)) return undefined;
  const suffix = /^\s*([kKmMbB])(?![a-zA-Z])/.exec(s.slice(m.index + m[0].length));
  if (suffix) n *= { k: 1e3, m: 1e6, b: 1e9 }[(suffix[1] as string).toLowerCase() as 'k' | 'm' | 'b'];
  return Math.round(n * 1e6) / 1e6;
}

const FALSE_WORDS = /^(false|no|n|0|off|none|out ?of ?stock|sold ?out|unavailable|not available|currently unavailable|discontinued|disabled|outofstock|soldout|discontinued)\b/;
const TRUE_WORDS = /^(true|yes|y|1|on|in ?stock|instock|available|limitedavailability|onlineonly|instoreonly|preorder|presale|backorder|enabled|only \d+ left|\d+ (?:in stock|available|left))\b/;

export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const s = clean(value).toLowerCase().replace(/^https?:\/\/schema\.org\//, '').replace(/[!.]+$/, '');
  if (FALSE_WORDS.test(s)) return false;
  if (TRUE_WORDS.test(s)) return true;
  return undefined;
}

/** The scalar an object stands for: a Brand by its name, an Offer by its price, an image by its URL. */
function scalarOf(obj: Record<string, unknown>, numeric: boolean): unknown {
  const keys = numeric
    ? ['ratingValue', 'price', 'lowPrice', 'value', 'amount', '@value', 'userInteractionCount', 'reviewCount', 'ratingCount']
    : ['name', '@value', 'value', 'text', 'url', 'contentUrl', 'headline', 'title', '@id'];
  for (const k of keys) if (obj[k] !== undefined && obj[k] !== null && typeof obj[k] !== 'object') return obj[k];
  for (const k of keys) if (obj[k] !== null && typeof obj[k] === 'object') return scalarOf(obj[k] as Record<string, unknown>, numeric);
  return undefined;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function toDate(s: string, format: 'date' | 'date-time'): string | undefined {
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(s);
  if (format === 'date' && iso) return iso[1];
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  const out = new Date(t).toISOString();
  return format === 'date' ? out.slice(0, 10) : out;
}

function patternFit(s: string, pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return s;
  }
  if (re.test(s)) return s;
  // Search the pattern without its anchors: "es-ES" fits ^[a-z]{2}$ as "es".
  try {
    const loose = new RegExp(pattern.replace(/^\^/, '').replace(/\$$/, ''), 'u');
    const m = loose.exec(s);
    if (m && re.test(m[0])) return m[0];
  } catch {
    return undefined;
  }
  return undefined;
}

/** Concepts whose values are amounts, even where a schema asks for a string. */
const COUNTED = new Set(['price', 'rating', 'reviews', 'views']);

/** Concepts whose values are names of things (matcher.ts), never web addresses. */
const NAMED_THINGS = new Set(['name', 'author', 'brand', 'publisher', 'seller', 'company', 'venue', 'city', 'country', 'category', 'model', 'color', 'address']);

export interface CoerceContext {
  base: string;
  /** The property's concept (matcher.ts): `currency` reads a code out of a price text. */
  concept?: string | undefined;
  /**
   * The value is page text, not stated data: a number is taken only when it is the text's
   * value ("$12.99", "1,204 ratings", "4.5 out of 5"), not a number the text mentions.
   */
  strict?: boolean;
}

export function coerceString(value: unknown, v: SchemaView, ctx: CoerceContext): string | undefined {
  let raw = first(value);
  if (raw !== null && typeof raw === 'object') raw = scalarOf(raw as Record<string, unknown>, false);
  if (raw === undefined || raw === null || typeof raw === 'object') return undefined;
  let s = clean(String(raw));
  if (s === '') return undefined;
  s = s.replace(/^https?:\/\/schema\.org\/(?=[A-Z]\w*$)/, '');
  // A person, a brand or a place is never an address: a bare URL is not their value.
  if (ctx.concept !== undefined && NAMED_THINGS.has(ctx.concept) && /^https?:\/\/\S+$/i.test(s)) return undefined;
  if (ctx.concept === 'author') s = s.replace(/^(?:by|von|par|por|di|door)\s+/i, '');
  // A price, a rating or a count written as text still has a digit in it ("Gratis" is no price).
  if (ctx.concept !== undefined && COUNTED.has(ctx.concept) && !/\d/.test(s)) return undefined;
  if (ctx.concept === 'currency' && !/^[A-Z]{3}$/.test(s)) {
    const c = currencyOf(s);
    if (!c) return undefined;
    s = c;
  }
  if (v.format === 'date-time' || v.format === 'date') {
    const d = toDate(s, v.format);
    if (!d) return undefined;
    s = d;
  } else if (v.format === 'uri' || v.format === 'url' || v.format === 'iri' || v.format === 'uri-reference' || ctx.concept === 'image' || ctx.concept === 'logo') {
    if (!/^(https?:)?\/\/|^\/|^[\w.-]+\.(jpe?g|png|gif|webp|svg|avif)(\?|$)/i.test(s) && v.format !== 'uri-reference') return undefined;
    try {
      s = new URL(s, ctx.base).href;
    } catch {
      return undefined;
    }
  } else if (v.format === 'email') {
    s = s.replace(/^mailto:/i, '');
  }
  if (v.enum) {
    const key = (x: string): string => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    const hit = v.enum.find((e) => typeof e === 'string' && key(e) === key(s));
    if (hit === undefined) return undefined;
    s = hit as string;
  }
  if (v.pattern) return patternFit(s, v.pattern);
  return s;
}

/** ISO 8601 durations as seconds: schema.org writes `PT2M22S` where a schema wants 142. */
export function isoDuration(s: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(s.trim());
  if (!m || s.trim() === 'P' || s.trim() === 'PT') return undefined;
  const [d, h, min, sec] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  return d * 86400 + h * 3600 + min * 60 + sec;
}

export function coerceNumber(value: unknown, integer: boolean, strict = false, concept?: string): number | undefined {
  let raw = first(value);
  if (raw !== null && typeof raw === 'object') raw = scalarOf(raw as Record<string, unknown>, true);
  let n: number | undefined;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string') n = isoDuration(raw) ?? (strict ? textNumber(raw, concept) : parseNumber(raw));
  if (n === undefined || !Number.isFinite(n)) return undefined;
  if (integer && !Number.isInteger(n)) return undefined;
  return n;
}

const RATING_OF = /(\d{1,2}(?:[.,]\d+)?)\s*(?:\/|out of|of|von|sur|de|su|z)\s*(?:5|10)\b/i;
/** Words a value's text may carry beside its number: currencies, units, counted things. */
const MAX_OTHER_WORDS = 3;

/**
 * The number a page text states as its value, or undefined when the text only mentions one:
 * one number (thousands groups joined) with at most a few words beside it; a rating read as
 * "x out of 5"; a price needs a currency or nothing else beside it ("from 3 sellers" is not 3).
 */
export function textNumber(text: string, concept?: string): number | undefined {
  const t = clean(text);
  if (concept === 'rating') {
    const m = RATING_OF.exec(t);
    if (m) return parseNumber(m[1] as string);
  }
  const joined = t.replace(/(\d)[ \u00a0\u202f'’](?=\d{3}\b)/g, '$1');
  const tokens = joined.split(/\s+/).filter((w) => w !== '');
  const numeric = tokens.filter((w) => /\d/.test(w));
  if (numeric.length !== 1) return undefined;
  const others = tokens.length - 1;
  if (others > MAX_OTHER_WORDS) return undefined;
  if (concept === 'price' && others > 0 && currencyOf(t) === undefined) return undefined;
  if (concept === 'price' && others === 0 && currencyOf(t) === undefined && !/^[-+]?[\d.,]+$/.test(numeric[0] as string)) {
    // "12.99€" is one token with its currency; "B0SIMLMP01" is not a price.
    return undefined;
  }
  return parseNumber(joined);
}

/** A scalar or array-of-scalars value for a schema node; objects are the caller's job. */
export function coerce(value: unknown, v: SchemaView, ctx: CoerceContext): unknown {
  const declared = v.types.length > 0 ? v.types : ['string', 'number', 'boolean'];
  // The value's own type first: 12.99 stays a number under {type: ['string', 'number']}.
  const native = typeof first(value) === 'number' ? ['number', 'integer'] : typeof first(value) === 'boolean' ? ['boolean'] : [];
  const types = [...declared.filter((t) => native.includes(t)), ...declared.filter((t) => !native.includes(t))];
  for (const t of types) {
    let out: unknown;
    if (t === 'string') out = coerceString(value, v, ctx);
    else if (t === 'number' || t === 'integer') out = coerceNumber(value, t === 'integer', ctx.strict === true, ctx.concept);
    else if (t === 'boolean') out = parseBoolean(first(value));
    if (out !== undefined) return out;
  }
  return undefined;
}

/** Splits a keywords-like string into items: "a, b, c" → ["a", "b", "c"]. */
export function splitList(s: string): string[] {
  const parts = s.includes('\n') ? s.split('\n') : s.split(/\s*[,;|]\s*/);
  return parts.map(clean).filter((p) => p !== '');
}
