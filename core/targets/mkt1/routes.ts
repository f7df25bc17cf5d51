/**
 * The large marketplace `mkt1` (spec 4.3): `/mkt1` by URL and five sub-routes, all with sync,
 * async and batch modes, billed as ecommerce_scraper_api. On mkt1 `location` is a delivery
 * postal code that must belong to the marketplace chosen by `domain` (spec 2.1); the
 * marketplaces and their postal-code shapes are the table below, which the schema's rule
 * table reads. `domain` is limited to the marketplaces of the table.
 */
import { ALL_MODES, defineRoute, pick } from '../../registry/define.js';
import { bool, COMMON, query, str, strEnum, url } from '../../registry/params.js';
import { CONDITION_FILTERS, SORT_VALUES } from './vocabulary.js';
import type { ParamSpec, RouteSpec } from '../../registry/types.js';

export interface PostalRule {
  /** ISO 3166-1 alpha-2 country of the marketplace. */
  country: string;
  pattern: RegExp;
  /** What the code looks like, for error details: `a US ZIP code`. */
  shape: string;
  example: string;
}

/** Marketplace domain → the postal codes it delivers to. */
export const MKT1_MARKETPLACES: Readonly<Record<string, PostalRule>> = {
  com: { country: 'US', pattern: /^[0-9]{5}(-[0-9]{4})?$/, shape: 'a US ZIP code (5 digits, optionally -4 more)', example: '10001' },
  ca: { country: 'CA', pattern: /^[A-Za-z][0-9][A-Za-z] ?[0-9][A-Za-z][0-9]$/, shape: 'a Canadian postal code (A1A 1A1)', example: 'K1A 0B1' },
  'com.mx': { country: 'MX', pattern: /^[0-9]{5}$/, shape: 'a Mexican postal code (5 digits)', example: '01000' },
  'com.br': { country: 'BR', pattern: /^[0-9]{5}-?[0-9]{3}$/, shape: 'a Brazilian CEP (NNNNN-NNN)', example: '01310-100' },
  'co.uk': {
    country: 'GB',
    pattern: /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$/,
    shape: 'a UK postcode (such as SW1A 1AA)',
    example: 'SW1A 1AA',
  },
  de: { country: 'DE', pattern: /^[0-9]{5}$/, shape: 'a German postal code (5 digits)', example: '10115' },
  fr: { country: 'FR', pattern: /^[0-9]{5}$/, shape: 'a French postal code (5 digits)', example: '75001' },
  it: { country: 'IT', pattern: /^[0-9]{5}$/, shape: 'an Italian postal code (5 digits)', example: '00118' },
  es: { country: 'ES', pattern: /^[0-9]{5}$/, shape: 'a Spanish postal code (5 digits)', example: '28001' },
  nl: { country: 'NL', pattern: /^[0-9]{4} ?[A-Za-z]{2}$/, shape: 'a Dutch postcode (1234 AB)', example: '1012 AB' },
  'com.be': { country: 'BE', pattern: /^[0-9]{4}$/, shape: 'a Belgian postal code (4 digits)', example: '1000' },
  se: { country: 'SE', pattern: /^[0-9]{3} ?[0-9]{2}$/, shape: 'a Swedish postal code (NNN NN)', example: '111 22' },
  pl: { country: 'PL', pattern: /^[0-9]{2}-[0-9]{3}$/, shape: 'a Polish postal code (NN-NNN)', example: '00-001' },
  'com.tr': { country: 'TR', pattern: /^[0-9]{5}$/, shape: 'a Turkish postal code (5 digits)', example: '34000' },
  in: { country: 'IN', pattern: /^[0-9]{6}$/, shape: 'an Indian PIN code (6 digits)', example: '110001' },
  'co.jp': { country: 'JP', pattern: /^[0-9]{3}-[0-9]{4}$/, shape: 'a Japanese postal code (NNN-NNNN)', example: '100-0001' },
  'com.au': { country: 'AU', pattern: /^[0-9]{4}$/, shape: 'an Australian postcode (4 digits)', example: '2000' },
  sg: { country: 'SG', pattern: /^[0-9]{6}$/, shape: 'a Singapore postal code (6 digits)', example: '018956' },
};

export const MKT1_DEFAULT_DOMAIN = 'com';

const P: Readonly<Record<string, ParamSpec>> = {
  ...COMMON,
  domain: {
    type: 'string',
    description: 'Marketplace top-level domain (com, de, co.uk, co.jp, ...); location postal codes must belong to it.',
    enum: Object.keys(MKT1_MARKETPLACES),
    default: MKT1_DEFAULT_DOMAIN,
  },
  autoselect_variant: bool('Pick the default variant when the product ID names a parent product.'),
  category_id: str('Category (browse node) to list or search within.', 64),
  check_empty_geo: bool('Fail the request instead of returning content that ignored location.'),
  condition: strEnum('Offer condition: new, used, or a used grade (used_like_new, used_very_good, used_good, used_acceptable).', Object.keys(CONDITION_FILTERS)),
  currency: {
    type: 'string',
    description: 'Currency for prices, ISO 4217 such as EUR.',
    pattern: '^[A-Za-z]{3}$',
    patternHint: 'a three-letter currency code such as EUR',
  },
  merchant_id: str('Only offers of this seller.', 64),
  refinement: str('Search refinement filter, as the marketplace names it.', 512),
  sort_by: strEnum('Result order: relevance, price_asc, price_desc, review, newest, bestsellers, or the storefront\'s own s= value.', Object.keys(SORT_VALUES)),
  safe_search: bool('Filters adult content.'),
};

const mkt1 = (path: string, names: string[], input: ParamSpec, summary: string): RouteSpec =>
  defineRoute({
    path,
    target: 'mkt1',
    family: 'commerce',
    modes: ALL_MODES,
    // Input first, the rest alphabetical as the spec lists them (this is the echo order too).
    params: { [path === 'mkt1' ? 'url' : 'query']: input, ...pick(P, [...names].sort()) },
    location: 'postal',
    summary,
  });

const EVERY_PAGE = ['check_empty_geo', 'currency', 'domain', 'locale', 'safe_search'];

export const MARKETPLACE_ROUTES: readonly RouteSpec[] = [
  mkt1(
    'mkt1',
    [
      'autoselect_variant', 'category_id', 'check_empty_geo', 'condition', 'currency', 'locale', 'max_price',
      'merchant_id', 'min_price', 'pages', 'refinement', 'safe_search', 'sort_by', 'start_page',
    ],
    url('Any mkt1 product or search page address (absolute http/https URL).'),
    'Any mkt1 page by URL, parsed by its page type.',
  ),
  mkt1('mkt1/bestsellers', [...EVERY_PAGE, 'category_id', 'pages', 'start_page'], query('Category to list bestsellers of.'), 'mkt1 bestseller list.'),
  mkt1('mkt1/pricing', [...EVERY_PAGE, 'condition', 'pages', 'start_page'], query('Product ID.', 64), 'mkt1 offers for a product.'),
  mkt1('mkt1/product', [...EVERY_PAGE, 'autoselect_variant'], query('Product ID.', 64), 'mkt1 product page.'),
  mkt1(
    'mkt1/search',
    [...EVERY_PAGE, 'category_id', 'max_price', 'merchant_id', 'min_price', 'pages', 'refinement', 'sort_by', 'start_page'],
    query('Search keyword.'),
    'mkt1 search results.',
  ),
  mkt1('mkt1/sellers', EVERY_PAGE, query('Seller ID.', 64), 'mkt1 seller profile.'),
];
