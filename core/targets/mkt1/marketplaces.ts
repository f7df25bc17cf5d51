/**
 * Per-marketplace facts of mkt1 as data: the currency each national storefront prices in (so a
 * shown `€`, `AED` or bare `$` becomes an ISO code), whether that currency has cents (the price
 * refinement is written in the smallest unit), the country name the delivery widget shows when
 * no postal code is set, and how a postal code reads in the delivery line once applied.
 *
 * The marketplaces a request may choose (and their postal-code shapes) are the registry's
 * `MKT1_MARKETPLACES`; this table also knows a few storefronts that are only ever met by URL
 * or in captured pages (`ae`, `sa`, `eg`), for currency normalisation.
 */
import { MKT1_DEFAULT_DOMAIN, MKT1_MARKETPLACES } from './routes.js';

export { MKT1_DEFAULT_DOMAIN, MKT1_MARKETPLACES };

export interface MarketFacts {
  /** ISO 4217 code the storefront prices in. */
  currency: string;
  /** Decimal places of that currency: 0 for yen, so `p_36` is written in whole yen. */
  minorUnits: 0 | 2;
  /** ISO 3166-1 alpha-2 country. */
  country: string;
  /** What the delivery line shows when only the country is known. */
  countryName: string;
}

const m = (currency: string, country: string, countryName: string, minorUnits: 0 | 2 = 2): MarketFacts => ({ currency, minorUnits, country, countryName });

export const MARKET_FACTS: Readonly<Record<string, MarketFacts>> = {
  com: m('USD', 'US', 'United States'),
  ca: m('CAD', 'CA', 'Canada'),
  'com.mx': m('MXN', 'MX', 'Mexico'),
  'com.br': m('BRL', 'BR', 'Brazil'),
  'co.uk': m('GBP', 'GB', 'United Kingdom'),
  de: m('EUR', 'DE', 'Germany'),
  fr: m('EUR', 'FR', 'France'),
  it: m('EUR', 'IT', 'Italy'),
  es: m('EUR', 'ES', 'Spain'),
  nl: m('EUR', 'NL', 'Netherlands'),
  'com.be': m('EUR', 'BE', 'Belgium'),
  se: m('SEK', 'SE', 'Sweden'),
  pl: m('PLN', 'PL', 'Poland'),
  'com.tr': m('TRY', 'TR', 'Turkey'),
  in: m('INR', 'IN', 'India'),
  'co.jp': m('JPY', 'JP', 'Japan', 0),
  'com.au': m('AUD', 'AU', 'Australia'),
  sg: m('SGD', 'SG', 'Singapore'),
  // Met by URL and in captured pages only (not selectable by `domain`).
  ae: m('AED', 'AE', 'United Arab Emirates'),
  sa: m('SAR', 'SA', 'Saudi Arabia'),
  eg: m('EGP', 'EG', 'Egypt'),
};

/** The storefronts' marketplace ids (the `ue_mid` a page's scripts carry), for a page met at an address that does not name its storefront. */
const MARKETPLACE_IDS: Readonly<Record<string, string>> = {
  ATVPDKIKX0DER: 'com', A2EUQ1WTGCTBG2: 'ca', A1AM78C64UM0Y8: 'com.mx', A2Q3Y263D00KWC: 'com.br', A1F83G8C2ARO7P: 'co.uk', A1PA6795UKMFR9: 'de',
  A13V1IB3VIYZZH: 'fr', APJ6JRA9NG5V4: 'it', A1RKKUPIHCS9HS: 'es', A1805IZSGTT6HS: 'nl', AMEN7PMS3EDWL: 'com.be', A2NODRKZP88ZB9: 'se',
  A1C3SOZRARQ6R3: 'pl', A33AVAJ2PDY3EV: 'com.tr', A21TJRUUN4KGV: 'in', A1VC38T7YXB528: 'co.jp', A39IBJ37TRP1C6: 'com.au', A19VAU5U5O7RUS: 'sg',
  A2VIGQ35RCS4UG: 'ae', A17E79C6D8DWNP: 'sa', ARBP9OOSHTCHU: 'eg',
};

/** The marketplace of a page by the marketplace id its scripts name (`ue_mid = 'A2EUQ1WTGCTBG2'`). */
export function domainOfPage(html: string): string | undefined {
  const id = /\bue_mid\s*=\s*['"]([A-Z0-9]{10,14})['"]/.exec(html)?.[1];
  return id ? MARKETPLACE_IDS[id] : undefined;
}

const DOMAINS_LONGEST_FIRST = Object.keys(MARKET_FACTS).sort((a, b) => b.length - a.length);

/** The marketplace a host belongs to (`www.example.co.uk` → `co.uk`), by its longest known suffix. */
export function domainOfHost(host: string): string | undefined {
  const h = host.toLowerCase();
  return DOMAINS_LONGEST_FIRST.find((d) => h.endsWith(`.${d}`));
}

/**
 * The marketplace a page URL belongs to: its host, else a path segment naming one (the
 * simulator serves each storefront under `/mkt1/<domain>/`).
 */
export function domainOfUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const byHost = domainOfHost(u.hostname);
  if (byHost) return byHost;
  for (const seg of u.pathname.split('/').slice(1, 4)) if (Object.hasOwn(MARKET_FACTS, seg)) return seg;
  return undefined;
}

export function currencyOfDomain(domain: string | undefined): string | undefined {
  return domain !== undefined && Object.hasOwn(MARKET_FACTS, domain) ? MARKET_FACTS[domain]!.currency : undefined;
}

/** A price in the smallest unit the price refinement takes: 12.5 → 1250 (yen: 12.5 → 13). */
export function minorAmount(value: number, domain: string): number {
  const units = Object.hasOwn(MARKET_FACTS, domain) ? MARKET_FACTS[domain]!.minorUnits : 2;
  return Math.round(value * 10 ** units);
}

const squash = (s: string): string => s.toUpperCase().replace(/[\s\u00a0\u200e\u200f-]+/g, '');

/**
 * Whether a delivery line (`Deliver to New York 10001`, `Delivering to London SW1A 1`) names
 * the postal code. Compared without spaces and hyphens, case-insensitively. The storefront
 * shortens some codes: a US ZIP+4 shows its five digits, a UK or Canadian code its outward
 * part and the first character of the inward part (the postal sector).
 */
export function deliveryNames(shown: string, postal: string, domain: string): boolean {
  const line = squash(shown);
  const code = squash(postal);
  if (code === '' || line === '') return false;
  if (line.includes(code)) return true;
  const country = Object.hasOwn(MKT1_MARKETPLACES, domain) ? MKT1_MARKETPLACES[domain]!.country : undefined;
  if (country === 'US') return line.includes(code.slice(0, 5));
  if (country === 'GB' || country === 'CA') return code.length > 4 && line.includes(code.slice(0, -2));
  return false;
}
