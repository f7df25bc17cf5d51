/**
 * Commerce targets (spec 4.3 families table, DESIGN.md token table). A family is a template:
 * which of the routes `/{token}`, `/{token}/product`, `/{token}/search` (and `/category`, or the
 * social shop's `/shop/...`) exist and which parameters each takes. A target is one line: a
 * token and its family. More targets of a family are more lines of the same shape.
 * Modes are sync and async; billed as ecommerce_scraper_api; `location` is a country code.
 */
import { defineRoute, pick, SYNC_ASYNC } from '../../registry/define.js';
import { bool, COMMON, query, str, url } from '../../registry/params.js';
import type { ParamSpec, RouteSpec } from '../../registry/types.js';

/** Route kind → path suffix below `/{token}` and the description of its input. */
const KINDS = {
  page: { suffix: '', input: url('A product or search page address of the target (absolute http/https URL).') },
  product: { suffix: '/product', input: query('Product ID.', 256) },
  search: { suffix: '/search', input: query('Search keyword.') },
  category: { suffix: '/category', input: query('Category ID or name.', 256) },
  shopProduct: { suffix: '/shop/product', input: query('Product ID.', 256) },
  shopSearch: { suffix: '/shop/search', input: query('Search keyword.') },
} as const;

type Kind = keyof typeof KINDS;

/** A family: its name and, per route kind it offers, the parameters besides the input. */
export interface CommerceFamily {
  name: string;
  routes: Partial<Record<Kind, readonly string[]>>;
}

const P: Readonly<Record<string, ParamSpec>> = {
  ...COMMON,
  brand: str('Only products of this brand.'),
  price_range: str('Price band filter, as the target names it.', 64),
  fulfillment_speed: str('Delivery speed filter, as the target names it.', 64),
  sort_by: str('Result order, as the target names it.', 64),
  delivery_eligible: bool('Only products that can be delivered.'),
  fulfillment_center: str('Fulfillment center whose stock is shown.', 64),
  in_stock_today: bool('Only products in stock today.'),
  pickup_at_store_eligible: bool('Only products that can be picked up at the store.'),
  delivery_time: str('Delivery time filter, as the target names it.', 64),
  shipping_from: str('Only offers shipped from this place.', 64),
  store_city: str('City of the store whose offers are shown.', 128),
  store_region: str('Region of the store whose offers are shown.', 128),
  zip_code_url: url('Address of the category page for the postal code (absolute http/https URL).'),
  uuid: str('Shop product UUID.', 64),
};

export const FAMILIES = {
  simpleMarketplace: { name: 'simple marketplace', routes: { page: [], product: ['domain'], search: ['domain', 'start_page'] } },
  regionalMarketplace: {
    name: 'marketplace with regional subdomain',
    routes: { page: [], product: ['domain', 'subdomain'], search: ['domain', 'start_page'] },
  },
  groceryBanner: {
    name: 'grocery banner',
    routes: {
      page: ['delivery_zip', 'fulfillment_type', 'store_id'],
      product: ['delivery_zip', 'fulfillment_type', 'store_id'],
      search: ['brand', 'delivery_zip', 'fulfillment_type', 'price_range', 'store_id'],
    },
  },
  electronics: {
    name: 'electronics retailer',
    routes: {
      page: ['delivery_zip', 'store_id'],
      product: ['delivery_zip', 'domain', 'store_id'],
      search: ['delivery_zip', 'domain', 'fulfillment_type', 'start_page', 'store_id'],
    },
  },
  mexicanGrocery: {
    name: 'Mexican grocery',
    routes: {
      page: ['delivery_zip', 'store_id'],
      product: ['delivery_zip', 'domain', 'fulfillment_type', 'store_id', 'subdomain'],
      search: ['delivery_zip', 'domain', 'fulfillment_type', 'store_id', 'subdomain'],
    },
  },
  bigBox: {
    name: 'big-box retailer',
    routes: {
      page: ['fulfillment_type', 'store_id'],
      product: ['domain', 'fulfillment_type', 'store_id'],
      search: ['domain', 'fulfillment_speed', 'fulfillment_type', 'max_price', 'min_price', 'sort_by', 'start_page', 'store_id'],
    },
  },
  homeImprovement: {
    name: 'home improvement',
    routes: {
      page: [],
      product: ['domain', 'store_id'],
      search: ['delivery_eligible', 'domain', 'fulfillment_center', 'in_stock_today', 'pickup_at_store_eligible', 'start_page', 'store_id'],
    },
  },
  easternEuropeanMarketplace: {
    name: 'Eastern-European marketplace',
    routes: { product: [], search: ['delivery_time', 'domain', 'shipping_from', 'start_page', 'store_city', 'store_region'] },
  },
  petRetailer: { name: 'pet retailer', routes: { page: ['store_id'], search: ['domain', 'fulfillment_type', 'start_page', 'store_id'] } },
  supermarketWithStores: { name: 'supermarket with stores', routes: { page: ['store_id'], product: ['store_id'], search: ['store_id'] } },
  supermarketWithZip: {
    name: 'supermarket with zip',
    routes: { product: ['zip_code'], search: ['zip_code'], category: ['zip_code', 'zip_code_url'] },
  },
  departmentStore: {
    name: 'department store',
    routes: {
      page: ['delivery_zip', 'fulfillment_type', 'store_id'],
      product: ['delivery_zip', 'fulfillment_type', 'store_id'],
      search: ['delivery_zip', 'fulfillment_type', 'store_id'],
      category: ['delivery_zip', 'fulfillment_type', 'store_id'],
    },
  },
  fastFashion: { name: 'fast-fashion search', routes: { search: ['domain', 'start_page', 'subdomain'] } },
  socialShop: { name: 'social shop', routes: { page: [], shopProduct: ['country', 'uuid'], shopSearch: ['country'] } },
  forumSearch: { name: 'forum search', routes: { search: ['domain'] } },
  latamMarketplace: { name: 'Latin American marketplace', routes: { page: [], product: ['domain'], search: ['domain'] } },
} as const satisfies Record<string, CommerceFamily>;

const SUMMARY: Record<Kind, string> = {
  page: 'any page by URL',
  product: 'product page',
  search: 'search results',
  category: 'category listing',
  shopProduct: 'shop product page',
  shopSearch: 'shop search results',
};

/** Every route of one commerce target, in the order page, product, search, category. */
export function commerceTarget(token: string, family: CommerceFamily): RouteSpec[] {
  return (Object.keys(KINDS) as Kind[]).flatMap((kind) => {
    const names = family.routes[kind];
    if (!names) return [];
    const { suffix, input } = KINDS[kind];
    return [
      defineRoute({
        path: token + suffix,
        target: token,
        family: 'commerce',
        modes: SYNC_ASYNC,
        params: { [kind === 'page' ? 'url' : 'query']: input, ...pick(P, names) },
        summary: `${token} ${SUMMARY[kind]} (${family.name}).`,
      }),
    ];
  });
}

/** The commerce target tokens of DESIGN.md, one line each. */
export const COMMERCE_TARGETS: Readonly<Record<string, CommerceFamily>> = {
  mkt2: FAMILIES.simpleMarketplace,
  mkt3: FAMILIES.regionalMarketplace,
  grocery1: FAMILIES.groceryBanner,
  electronics1: FAMILIES.electronics,
  mxgrocery1: FAMILIES.mexicanGrocery,
  bigbox1: FAMILIES.bigBox,
  homeimprovement1: FAMILIES.homeImprovement,
  mkt4: FAMILIES.easternEuropeanMarketplace,
  pet1: FAMILIES.petRetailer,
  supermarket1: FAMILIES.supermarketWithStores,
  supermarket2: FAMILIES.supermarketWithZip,
  department1: FAMILIES.departmentStore,
  fashion1: FAMILIES.fastFashion,
  social1: FAMILIES.socialShop,
  forum1: FAMILIES.forumSearch,
  latam1: FAMILIES.latamMarketplace,
};

export const COMMERCE_ROUTES: readonly RouteSpec[] = Object.entries(COMMERCE_TARGETS).flatMap(([token, family]) =>
  commerceTarget(token, family),
);
