/**
 * The dedicated routes' families and their captured pages, for the per-family benches
 * (parse cost, end to end, the soak): each family is one route and the captured pages of its
 * kind in ../shared/fixtures (read at run time, never copied into the repository; the folder is
 * `GLEANER_FIXTURES` when the checkout is not beside `shared/`).
 *
 * `url` is the address the parser is given when a page is parsed in-process (shaped like the
 * page's own, as the parse snapshot does); `query` is the request parameter the end-to-end
 * bench sends, which carries `pg<N>` so the local fixture site knows which page to answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../eval/fixtures-dir.js';

export interface Family {
  /** Short name used in tables and on the command line. */
  name: string;
  /** The dedicated route (`/v1/scrape/<route>`). */
  route: string;
  /** The fixture folder and the files of it this family reads. */
  folder: string;
  match: RegExp;
  /** The address a page of this family is parsed with in-process. */
  url: (file: string) => string;
  /** Extra request parameters through the HTTP API (besides `query`). */
  params?: Record<string, unknown>;
}

export interface FamilyPage {
  family: string;
  /** `folder/file`. */
  name: string;
  html: string;
  /** Size in bytes as served. */
  bytes: number;
  /** The raw bytes as served by the fixture site. */
  body: Buffer;
}

const YT = 'https://www.youtube.com';

/** `amazon-co-uk` in a fixture name → `co.uk`. */
function tld(file: string): string {
  return /amazon-([a-z-]+?)_/.exec(file)?.[1]?.replace('-', '.') ?? 'com';
}
const asin = (file: string) => /_(?:dp|offer-listing|product)_([A-Z0-9]{10})/.exec(file)?.[1] ?? 'B000000000';

/** The commerce token the retail pages go through (a generic retailer: no templates, no session). */
export const RETAIL_TOKEN = 'electronics1';

export const FAMILIES: readonly Family[] = [
  { name: 'mkt1-product', route: 'mkt1/product', folder: 'marketplace-product', match: /\.html$/, url: (f) => `https://www.amazon.${tld(f)}/dp/${asin(f)}` },
  { name: 'mkt1-search', route: 'mkt1/search', folder: 'marketplace-search', match: /_search_.*\.html$/, url: (f) => `https://www.amazon.${tld(f)}/s?k=portable+charger` },
  { name: 'mkt1-bestsellers', route: 'mkt1/bestsellers', folder: 'marketplace-search', match: /_bestsellers_.*\.html$/, url: (f) => `https://www.amazon.${tld(f)}/gp/bestsellers/x` },
  { name: 'mkt1-offers', route: 'mkt1/pricing', folder: 'marketplace-offers', match: /_offer-listing_.*\.html$/, url: (f) => `https://www.amazon.${tld(f)}/gp/offer-listing/${asin(f)}` },
  { name: 'mkt1-seller', route: 'mkt1/sellers', folder: 'marketplace-offers', match: /_seller-profile_.*\.html$/, url: (f) => `https://www.amazon.${tld(f)}/sp?seller=A1B2C3D4E5` },
  { name: 'retail-product', route: `${RETAIL_TOKEN}/product`, folder: 'retail', match: /_product.*\.html$/, url: () => 'https://shop.example.com/p/item-1' },
  { name: 'retail-listing', route: `${RETAIL_TOKEN}/search`, folder: 'retail', match: /_search.*\.html$/, url: () => 'https://shop.example.com/search?q=x' },
  { name: 'se1', route: 'se1/search', folder: 'search-engine-1', match: /\.html$/, url: () => 'https://www.example.com/search?q=x' },
  { name: 'se2', route: 'se2/search', folder: 'search-engine-2', match: /\.html$/, url: () => 'https://www.example.com/search?q=x' },
  { name: 'video-search', route: 'media/video/search', folder: 'video-search', match: /\.html$/, url: () => `${YT}/results?search_query=x` },
  { name: 'video-watch', route: 'media/video/metadata', folder: 'video-watch', match: /\.html$/, url: (f) => `${YT}/watch?v=${/_([\w-]{11})\.html$/.exec(f)?.[1] ?? 'aaaaaaaaaaa'}` },
  { name: 'video-channel', route: 'media/video/channel', folder: 'video-channel', match: /\.html$/, url: (f) => `${YT}/channel/${/_(UC[\w-]{22})/.exec(f)?.[1] ?? 'UCaaaaaaaaaaaaaaaaaaaaaa'}/videos` },
];

/** The families named in `list` (comma-separated; all when empty). */
export function pickFamilies(list: string): Family[] {
  const names = list.split(',').filter(Boolean);
  const unknown = names.filter((n) => !FAMILIES.some((f) => f.name === n));
  if (unknown.length) throw new Error(`unknown families ${unknown.join(', ')}; choose from ${FAMILIES.map((f) => f.name).join(', ')}`);
  return names.length ? FAMILIES.filter((f) => names.includes(f.name)) : [...FAMILIES];
}

/** The captured pages of a family, sorted by name (none when the fixtures are absent). */
export function familyPages(family: Family, dir = fixturesDir()): FamilyPage[] {
  const folder = join(dir, family.folder);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => family.match.test(f) && !f.includes('.expected'))
    .sort()
    .map((f) => {
      const body = readFileSync(join(folder, f));
      return { family: family.name, name: `${family.folder}/${f}`, html: body.toString('utf8'), bytes: body.length, body };
    });
}
