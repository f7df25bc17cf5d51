/**
 * Currency facts as data, for the money reader (money.ts): the symbols and codes a price may
 * show and the ISO 4217 code each stands for, and the currency and decimal mark a page's
 * country or language implies. A symbol shared by several currencies (`$`, `kr`, `¥`, `£`)
 * reads as the page's own currency when that is one of them.
 */
import type { MoneyContext } from './money.js';

/**
 * Codes read as currencies where a page shows them beside a number. A curated list, not all of
 * ISO 4217: codes that are also common words or brands (ALL, TOP, CUP, AMD, MAD, BOB, ...) would
 * turn "TOP 10" or "AMD 5600" into prices.
 */
export const ISO_CODES: ReadonlySet<string> = new Set(
  (
    'USD EUR GBP JPY CNY CAD AUD NZD CHF SEK NOK DKK ISK PLN CZK HUF RON BGN RSD TRY RUB UAH BYN KZT INR PKR LKR BDT ' +
    'IDR MYR SGD THB VND PHP HKD TWD KRW AED SAR QAR KWD BHD OMR JOD EGP ILS ZAR NGN KES GHS TND DZD BRL ARS CLP COP PEN ' +
    'MXN UYU PYG CRC DOP GTQ HNL NIO PAB'
  ).split(' '),
);

/** Currencies written with a bare `$` in their own country. */
const DOLLARS = new Set(['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'SGD', 'HKD', 'ARS', 'CLP', 'COP', 'TWD', 'UYU', 'DOP']);
const CROWNS = new Set(['SEK', 'NOK', 'DKK', 'ISK']);
const POUNDS = new Set(['GBP', 'EGP']);
const YENS = new Set(['JPY', 'CNY']);

/** Symbol → ISO code, for symbols that name one currency. */
const FIXED: Readonly<Record<string, string>> = {
  'US$': 'USD', 'CA$': 'CAD', 'CDN$': 'CAD', 'C$': 'CAD', 'AU$': 'AUD', 'A$': 'AUD', 'NZ$': 'NZD', 'HK$': 'HKD', 'S$': 'SGD',
  'MX$': 'MXN', 'R$': 'BRL', 'NT$': 'TWD', 'RD$': 'DOP', '€': 'EUR', Euro: 'EUR', EURO: 'EUR', 'E£': 'EGP', '円': 'JPY', '元': 'CNY',
  '₹': 'INR', Rs: 'INR', 'Rs.': 'INR', '₩': 'KRW', '₽': 'RUB', 'руб': 'RUB', 'руб.': 'RUB', 'zł': 'PLN', 'Kč': 'CZK', Ft: 'HUF',
  lei: 'RON', '₺': 'TRY', TL: 'TRY', '₫': 'VND', '₪': 'ILS', '₴': 'UAH', 'грн': 'UAH', CHF: 'CHF', 'Fr.': 'CHF', '₱': 'PHP',
  '฿': 'THB', RM: 'MYR', Rp: 'IDR', 'S/': 'PEN', 'د.إ': 'AED', 'ر.س': 'SAR', 'ج.م': 'EGP', RMB: 'CNY',
};

/** The regex source matching any symbol or code, longest first (so `CDN$` wins over `$`). */
export const SYMBOL_TOKENS = [
  String.raw`CDN\$|US\$|CA\$|AU\$|NZ\$|HK\$|MX\$|NT\$|RD\$|C\$|A\$|S\$|R\$|\$`,
  String.raw`€|E£|£|¥|￥|円|元|₹|Rs\.?|₩|₽|руб\.?|zł|Kč|Ft|lei|₺|TL|₫|₪|₴|грн|kr\.?|Fr\.|₱|฿|RM|Rp|S\/|د\.إ|ر\.س|ج\.م`,
  String.raw`Euro|EURO|[A-Z]{3}`,
].join('|');

/** The ISO code a shown symbol or code stands for on a page that prices in `pageCurrency`. */
export function symbolCurrency(symbol: string, pageCurrency: string | null): string | null {
  const s = symbol.trim();
  const fixed = FIXED[s];
  if (fixed) return fixed;
  if (/^[A-Z]{3}$/.test(s)) return ISO_CODES.has(s) ? s : null;
  const page = pageCurrency ?? '';
  switch (s) {
    case '$':
      return DOLLARS.has(page) ? page : 'USD';
    case '£':
      return POUNDS.has(page) ? page : 'GBP';
    case '¥':
    case '￥':
      return YENS.has(page) ? page : 'JPY';
    case 'kr':
    case 'kr.':
      return CROWNS.has(page) ? page : s === 'kr.' ? 'DKK' : 'SEK';
    default:
      return null;
  }
}

/** Country (ISO 3166 alpha-2, or a top-level domain) → the currency it prices in. */
const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  us: 'USD', ca: 'CAD', mx: 'MXN', br: 'BRL', ar: 'ARS', cl: 'CLP', pe: 'PEN', uy: 'UYU', uk: 'GBP', gb: 'GBP', ie: 'EUR', de: 'EUR',
  at: 'EUR', ch: 'CHF', li: 'CHF', fr: 'EUR', be: 'EUR', nl: 'EUR', lu: 'EUR', es: 'EUR', pt: 'EUR', it: 'EUR', gr: 'EUR', fi: 'EUR',
  ee: 'EUR', lv: 'EUR', lt: 'EUR', sk: 'EUR', si: 'EUR', hr: 'EUR', mt: 'EUR', cy: 'EUR', pl: 'PLN', cz: 'CZK', hu: 'HUF', ro: 'RON',
  bg: 'BGN', rs: 'RSD', se: 'SEK', no: 'NOK', dk: 'DKK', is: 'ISK', tr: 'TRY', ru: 'RUB', ua: 'UAH', in: 'INR', jp: 'JPY', cn: 'CNY',
  kr: 'KRW', tw: 'TWD', hk: 'HKD', sg: 'SGD', my: 'MYR', th: 'THB', id: 'IDR', vn: 'VND', ph: 'PHP', au: 'AUD', nz: 'NZD', za: 'ZAR',
  ae: 'AED', sa: 'SAR', qa: 'QAR', kw: 'KWD', eg: 'EGP', il: 'ILS', ng: 'NGN', ke: 'KES', pk: 'PKR',
};

/** Languages that write a decimal comma. */
const COMMA_LANGS = new Set('de fr es it nl pt pl sv no nb nn da fi cs sk hu ro bg hr sl sr ru uk tr el id vi lt lv et ca eu gl is'.split(' '));
/** Countries whose prices use a decimal point whatever the language (`de-CH`, `es-MX`). */
const POINT_COUNTRIES = new Set(['ch', 'li', 'mx', 'us', 'gb', 'uk', 'ie', 'au', 'nz', 'ca', 'in', 'jp', 'cn', 'kr', 'tw', 'hk', 'sg', 'my', 'th', 'ph', 'za', 'ae', 'sa', 'qa', 'kw', 'eg', 'il', 'ng', 'ke', 'pk', 'pe']);
/** Countries whose prices use a decimal comma. */
const COMMA_COUNTRIES = new Set(['de', 'at', 'fr', 'be', 'nl', 'lu', 'es', 'pt', 'it', 'gr', 'fi', 'ee', 'lv', 'lt', 'sk', 'si', 'hr', 'pl', 'cz', 'hu', 'ro', 'bg', 'rs', 'se', 'no', 'dk', 'is', 'tr', 'ru', 'ua', 'br', 'ar', 'cl', 'uy', 'id', 'vn']);

/** Hosts under a country's second-level domain: `co.uk`, `com.au`, `com.br`. */
function countryOfHost(host: string): string | null {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const last = labels[labels.length - 1] ?? '';
  return last.length === 2 && Object.hasOwn(COUNTRY_CURRENCY, last) ? last : null;
}

/** `de-CH` → {lang: 'de', country: 'ch'}; `/en-gb/` and `/de/de/` path locales alike. */
function splitLocale(locale: string | null | undefined): { lang: string | null; country: string | null } {
  const m = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i.exec((locale ?? '').trim());
  return m ? { lang: (m[1] as string).toLowerCase(), country: m[2] ? (m[2] as string).toLowerCase() : null } : { lang: null, country: null };
}

/** A locale named by the first path segments of a generic-domain URL (`/en-gb/...`, `/de/de/...`). */
function pathLocale(path: string): { lang: string | null; country: string | null } {
  const segs = path.split('/').filter(Boolean).slice(0, 2);
  const first = splitLocale(segs[0]);
  if (first.lang && first.country) return first;
  // `/de/de/` (IKEA-like: country then language) or `/de/` alone: a country when it is one.
  const a = (segs[0] ?? '').toLowerCase();
  const b = (segs[1] ?? '').toLowerCase();
  if (/^[a-z]{2}$/.test(a) && /^[a-z]{2}$/.test(b) && Object.hasOwn(COUNTRY_CURRENCY, a)) return { lang: b, country: a };
  return { lang: null, country: null };
}

/**
 * The money context of a page: its country from the host (`.ca`, `.co.uk`) or, on a generic
 * domain, from a locale in the path (`/en-gb/`); the page's language (`<html lang>`, when the
 * parser has it) decides the decimal mark where the country does not.
 */
export function moneyContext(url: string | null | undefined, lang?: string | null): MoneyContext {
  let host = '';
  let path = '';
  try {
    const u = new URL(url ?? '');
    host = u.hostname;
    path = u.pathname;
  } catch {
    // No URL: the language alone.
  }
  const fromLang = splitLocale(lang);
  let country = countryOfHost(host);
  let language = fromLang.lang;
  if (!country) {
    const p = pathLocale(path);
    country = p.country ?? fromLang.country;
    language ??= p.lang;
  }
  const currency = country ? (COUNTRY_CURRENCY[country] ?? null) : null;
  let decimal: ',' | '.' | null = null;
  if (country && POINT_COUNTRIES.has(country)) decimal = '.';
  else if (country && COMMA_COUNTRIES.has(country)) decimal = ',';
  else if (language) decimal = COMMA_LANGS.has(language) ? ',' : '.';
  return { currency, decimal };
}
