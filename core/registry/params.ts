/**
 * Parameter building blocks shared by the family files.
 *
 * Bounds the spec leaves open are chosen here, once (spec 8 gives only query, url, prompt,
 * schema and callback_url limits):
 *   - free-text strings: at most 256 characters; verbatim pass-through strings: 2048;
 *   - `query` on search-like routes: 1–2048 (as `POST /v1/search`); assistant questions: 1–4096;
 *   - `url`: absolute http/https URL, at most 8192 (spec 4.2);
 *   - `pages`: 1–100, default 1 (each page is a fetch and a charge, so a typo must not cost
 *     thousands); `start_page`: 1–1000, default 1;
 *   - prices: numbers ≥ 0; ids and postal codes: strings.
 * Formats are ajv formats registered by core/schema: `http-url` (absolute http/https URL) and
 * `country` (ISO 3166-1 alpha-2, either case).
 */
import type { ParamSpec } from './types.js';

export const TEXT_MAX = 256;
export const VERBATIM_MAX = 2048;
export const QUERY_MAX = 2048;
export const ASSISTANT_QUERY_MAX = 4096;
export const URL_MAX = 8192;
export const PAGES_MAX = 100;
export const START_PAGE_MAX = 1000;

export function str(description: string, maxLength: number = TEXT_MAX): ParamSpec {
  return { type: 'string', description, minLength: 1, maxLength };
}

export function bool(description: string): ParamSpec {
  return { type: 'boolean', description };
}

export function int(description: string, minimum: number, maximum: number, dflt?: number): ParamSpec {
  return { type: 'integer', description, minimum, maximum, ...(dflt === undefined ? {} : { default: dflt }) };
}

export function price(description: string): ParamSpec {
  return { type: 'number', description, minimum: 0 };
}

export function strEnum(description: string, values: readonly string[], dflt?: string): ParamSpec {
  return { type: 'string', description, enum: values, ...(dflt === undefined ? {} : { default: dflt }) };
}

/** A string forwarded to the upstream exactly as sent (se1 `tbm`, `tbs`, ...). */
export function verbatim(description: string): ParamSpec {
  return { type: 'string', description, maxLength: VERBATIM_MAX, verbatim: true };
}

export function query(description: string, maxLength: number = QUERY_MAX): ParamSpec {
  return { type: 'string', description, minLength: 1, maxLength };
}

export function url(description: string): ParamSpec {
  return { type: 'string', description, minLength: 1, maxLength: URL_MAX, format: 'http-url' };
}

export function postal(description: string): ParamSpec {
  return {
    type: 'string',
    description,
    minLength: 2,
    maxLength: 16,
    pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
    patternHint: 'a postal code (letters, digits, spaces and hyphens)',
  };
}

/** Parameters whose meaning is the same on every route that has them. */
export const COMMON: Readonly<Record<string, ParamSpec>> = {
  domain: {
    type: 'string',
    description: 'Top-level domain of the target site, such as com, co.uk or de; selects the national site or index.',
    maxLength: 32,
    pattern: '^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*){0,2}$',
    patternHint: 'a top-level domain such as com, co.uk or de',
  },
  subdomain: {
    type: 'string',
    description: 'Regional subdomain of the target site, such as uk or www.',
    maxLength: 63,
    pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$',
    patternHint: 'a DNS label such as uk or www',
  },
  locale: {
    type: 'string',
    description: 'Interface language of the target, such as en_US or de.',
    maxLength: 35,
    pattern: '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$',
    patternHint: 'a locale such as en_US or de',
  },
  pages: int('Consecutive pages to fetch from start_page; each page is a separate fetch and charge.', 1, PAGES_MAX, 1),
  start_page: int('First result page to fetch (1-based).', 1, START_PAGE_MAX, 1),
  store_id: str('Store whose catalogue and prices are returned.', 64),
  delivery_zip: postal('Postal code the delivery is quoted for.'),
  zip_code: postal('Postal code whose assortment and prices are returned.'),
  fulfillment_type: str('Delivery, pickup or ship-to-home filter, as the target names it.', 64),
  safe_search: bool('Filters adult content.'),
  max_price: price('Highest price, in the storefront currency.'),
  min_price: price('Lowest price, in the storefront currency.'),
  country: {
    type: 'string',
    description: 'Shop country, ISO 3166-1 alpha-2.',
    format: 'country',
  },
};
