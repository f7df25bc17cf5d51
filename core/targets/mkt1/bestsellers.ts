/**
 * mkt1 bestseller list (`/gp/bestsellers/<node>`, `/zgbs/<node>`; output-shapes §2.5): the
 * grid of `#gridItemRoot` cards (the id repeats on every card) with the rank badge
 * (`.zg-bdg-text`, `#1`), rendered server-side for the first 30 of each page's 50; the rest
 * load by script and are not on the page. `title` is the list heading ("Best Sellers in
 * Appliances"); an unknown node is a list without cards.
 */
import { Blocks } from '../../parsers/blocks.js';
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, one, text } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import type { Page } from './common.js';
import { countOf, hrefOf, isBotWall, money, pageOf, starsOf, statusCode } from './common.js';
import { productIdOfUrl } from './vocabulary.js';

export interface BestsellerItem {
  pos: number;
  product_id: string;
  title: string;
  url: string;
  price: number;
  price_upper: number;
  currency: string;
  rating: number;
  ratings_count: number;
  is_prime: boolean;
  images: string[];
}

function item(card: Element, page: Page, fallbackPos: number): BestsellerItem | null {
  const link = one('a.a-link-normal[href*="/dp/"], a[href*="/dp/"]', card);
  const url = hrefOf(link);
  const id = attr(one('[data-asin]', card), 'data-asin') || attr(one('.p13n-sc-uncoverable-faceout[id]', card), 'id') || productIdOfUrl(url) || '';
  if (!/^[A-Z0-9]{10}$/.test(id)) return null;
  const img = one('img', card);
  const title = text(one('[class*="p13n-sc-css-line-clamp"], .p13n-sc-truncate-desktop-type2, .p13n-sc-truncated', card)) || (attr(img, 'alt') ?? '');
  const priceEls = all('[class*="p13n-sc-price"], .a-color-price .a-offscreen', card).filter((e) => /\d/.test(text(e)));
  const prices = priceEls.map((e) => money(text(e), page)).filter((p) => p !== null);
  const rank = countOf(text(one('.zg-bdg-text', card)).replace('#', ''));
  const ratingLink = one('.a-icon-row a, a[href*="product-reviews"]', card);
  return {
    pos: rank ?? fallbackPos,
    product_id: id,
    title,
    url,
    price: prices[0]?.amount ?? 0,
    price_upper: prices[prices.length - 1]?.amount ?? 0,
    currency: prices[0]?.currency ?? page.currency ?? '',
    rating: starsOf(text(one('.a-icon-alt', card))) ?? 0,
    ratings_count: countOf(text(one('.a-size-small', ratingLink ?? card))) ?? 0,
    is_prime: one('i.a-icon-prime', card) !== null,
    images: attr(img, 'src') ? [attr(img, 'src') as string] : [],
  };
}

function items(doc: Document, page: Page): BestsellerItem[] {
  const out: BestsellerItem[] = [];
  const seen = new Set<string>();
  // 2021+ grid; the 2016-2020 list (`.zg-item-immersion`, `.zg_itemImmersion`) as a fallback.
  let cards = all('#gridItemRoot', doc);
  if (cards.length === 0) cards = all('.zg-item-immersion, .zg_itemImmersion, li.zg-item', doc);
  for (const card of cards) {
    const it = item(card, page, out.length + 1);
    if (!it || seen.has(it.product_id)) continue;
    seen.add(it.product_id);
    out.push(it);
  }
  return out;
}

export function parseBestsellers(input: PageInput): Parsed {
  if (isBotWall(input.html)) return { json: null, status: 'blocked' };
  const page = pageOf(input);
  const { doc } = page;
  const b = new Blocks();
  const results = b.run('items', () => items(doc, page), []);
  const title = text(one('h1.a-size-large, #zg_banner_text_wrapper, .category-title, #zg-right-col h1', doc));
  const json = {
    url: input.url,
    query: typeof input.params.query === 'string' ? input.params.query : '',
    page: input.page,
    page_type: 'Bestsellers',
    title,
    results,
    parse_status_code: 0,
  };
  // The storefront's page for an unknown category ("Best Sellers in undefined") is empty by nature.
  b.expect('results', results.length > 0 || /undefined/.test(title));
  const parsed = b.result(json, results.length > 0 || /best ?sellers?/i.test(title) || one('#zg', doc) !== null);
  json.parse_status_code = statusCode(parsed.status);
  return parsed;
}
