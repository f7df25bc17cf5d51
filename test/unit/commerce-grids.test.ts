/**
 * The generic commerce parsers on three kinds of retail page they have no rules for (written
 * in the real pages' structure, test/sites/commerce-grids.ts): a handmade-goods marketplace's
 * grid whose tiles are rendered twice and whose JSON-LD names only two of them, an auction
 * marketplace's `s-item` results behind a placeholder card, and a furniture retailer's product
 * page whose rating, review count and decimal-comma price exist only in its visible markup;
 * then the markups met on unseen captures (test/sites/commerce-grids-older.ts): older auction,
 * handmade and wholesale lists, an electronics chain's tiles, book results with several formats,
 * a media product page's buy box beside an offers summary, and searches that found nothing.
 */
import { describe, expect, it } from 'vitest';
import { parseListing } from '../../core/targets/commerce/listing.js';
import { parseProduct } from '../../core/targets/commerce/product.js';
import { parseAnyPage } from '../../core/targets/commerce/parsers.js';
import { CATALOGUE } from '../sites/commerce-data.js';
import { AUCTION_ID, auctionGrid, furnitureProduct, handmadeGrid, listingId } from '../sites/commerce-grids.js';
import { buyBoxProduct, CHAIN_ID, chainSearch, mediaSearch, HANDMADE_ID, handmadeFreeShippingGrid, noResultsPage, OLD_AUCTION_ID, oldAuctionTable, oldAuctionTitle, WHOLESALE_ID, wholesale2010List, wholesaleList } from '../sites/commerce-grids-older.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const listing = (html: string, url: string) => parseListing('search')({ html, url, page: 1, params: {} });
const row = (r: J) => [r.pos, r.product_id, r.title, r.price, r.old_price, r.currency, r.rating, r.reviews_count];

describe('a handmade-goods marketplace grid', () => {
  const parsed = listing(handmadeGrid(CATALOGUE, 'mug'), 'https://www.handmade.test/search?q=mug');
  const json = parsed.json as J;

  it('every tile once (the desktop and mobile copies are one result), not the two the JSON-LD names', () => {
    expect(parsed.status).toBe('parsed');
    expect(json.results.map(row)).toEqual([
      [1, listingId(CATALOGUE[0]!), 'Trail Running Shoe', 89.99, 109.99, 'USD', 4.6, 128],
      [2, listingId(CATALOGUE[1]!), 'Insulated Water Bottle', 24.5, null, 'USD', 4.8, 2310],
      [3, listingId(CATALOGUE[2]!), 'Two-Person Dome Tent', 1299, null, 'USD', 4.2, 57],
      [4, listingId(CATALOGUE[3]!), 'Headlamp 400 Lumen', 34.99, 39.99, 'USD', 4.4, 1200],
      [5, listingId(CATALOGUE[4]!), 'Merino Hiking Socks', 18, null, 'USD', 4.7, 845],
      [6, listingId(CATALOGUE[5]!), 'Camping Stove Kit', 59, null, 'USD', 4.1, 96],
    ]);
    expect(json.total_results_count).toBe(6);
    expect(json.results[0].url).toBe(`https://www.handmade.test/listing/${listingId(CATALOGUE[0]!)}/trail-running-shoe?ga_order=most_relevant&ref=search_grid-0&sts=1&ls=s`);
  });
});

describe('an auction marketplace results list', () => {
  const parsed = listing(auctionGrid(CATALOGUE, 'tent'), 'https://www.auction.test/sch/i.html?_nkw=tent');
  const json = parsed.json as J;

  it('the listings without the placeholder card, titles without their "New Listing" tag, the low end of a price range', () => {
    expect(json.results.map(row)).toEqual(CATALOGUE.map((p, i) => [i + 1, AUCTION_ID(p), p.title, p.price, null, 'USD', p.rating, p.reviews]));
    expect([json.total_results_count, json.results[0].url]).toEqual([6, `https://www.auction.test/itm/${AUCTION_ID(CATALOGUE[0]!)}?hash=item${AUCTION_ID(CATALOGUE[0]!)}&amdata=enc`]);
  });
});

describe('a furniture retailer product page without structured data', () => {
  it('rating, review count and a decimal-comma price split over two elements, read off the visible page', () => {
    const p = { ...CATALOGUE[1]!, price: 53.11 };
    const parsed = parseProduct({ html: furnitureProduct(p), url: 'https://www.furniture.test/de/de/p/insulated-water-bottle/', page: 1, params: {} });
    const json = parsed.json as J;
    expect([parsed.status, json.title, json.price, json.currency, json.currency_symbol, json.rating, json.reviews_count, json.product_id]).toEqual([
      'parsed', 'Insulated Water Bottle Rivo', 53.11, 'EUR', '€', 4.8, 2310, '10021002',
    ]);
  });
});

describe('older and other retail listing markups (test/sites/commerce-grids-older.ts)', () => {
  const items = CATALOGUE.slice(0, 3);

  it('an auction results table: the full title from the link, a price inside a title kept, not the payment icon text', () => {
    const json = listing(oldAuctionTable(items), 'http://www.auction.test/sch/i.html?_nkw=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, OLD_AUCTION_ID(p), oldAuctionTitle(p), p.price, null, 'EUR', null, null]));
  });

  it('a handmade grid whose price boxes hold a "FREE shipping" badge: every card priced', () => {
    const json = listing(handmadeFreeShippingGrid(items), 'https://www.handmade.test/search?q=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, HANDMADE_ID(p), p.title, p.price, null, 'USD', Math.round(p.rating), p.reviews]));
  });

  it("a wholesale list: a seller's minimum order is not a price, the feedback and orders links do not split a card, \"Feedback (N)\" is the review count", () => {
    const json = listing(wholesaleList(items), 'http://www.wholesale.test/wholesale?SearchText=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, WHOLESALE_ID(p), p.title, p.price, null, 'USD', i % 2 === 0 ? p.rating : null, i % 2 === 0 ? p.reviews : null]));
    expect(json.total_results_count).toBe(41812);
  });

  it('a 2017 wholesale list: the price the card marks, not a number in the seller\'s name ("Jewelry 10$ Min...")', () => {
    const json = listing(wholesaleList(items, items.length, true), 'http://www.wholesale.test/wholesale?SearchText=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, WHOLESALE_ID(p), p.title, p.price, null, 'USD', i % 2 === 0 ? p.rating : null, i % 2 === 0 ? p.reviews : null]));
  });

  it('a 2013 wholesale list whose seller name "10$ Min..." puts a price in a card\'s details: still one result per card', () => {
    const json = listing(wholesaleList(items, items.length, false, true), 'http://www.wholesale.test/wholesale?SearchText=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, WHOLESALE_ID(p), p.title, p.price, null, 'USD', i % 2 === 0 ? p.rating : null, i % 2 === 0 ? p.reviews : null]));
  });

  it('a wholesale list whose later cards wait as markup in a lazy-render textarea: all of them, not the recommendations', () => {
    const all = CATALOGUE.slice(0, 5);
    const json = listing(wholesaleList(all, 2), 'http://www.wholesale.test/wholesale?SearchText=outdoor').json as J;
    expect(json.results.map(row)).toEqual(all.map((p, i) => [i + 1, WHOLESALE_ID(p), p.title, p.price, null, 'USD', i % 2 === 0 ? p.rating : null, i % 2 === 0 ? p.reviews : null]));
  });

  it("a 2010 wholesale list: the lazily loaded photo, not the 'hot product' icon; the id that opens the URL's slug", () => {
    const json = listing(wholesale2010List(items), 'http://www.wholesale.test/wholesale?SearchText=outdoor').json as J;
    expect(json.results.map((r: J) => [r.product_id, r.title, r.price, r.image])).toEqual(
      items.map((p) => [WHOLESALE_ID(p), p.title, p.price, `http://img.wholesale.test/photo/${WHOLESALE_ID(p)}/${p.title.toLowerCase().replace(/\W+/g, '-')}.summ.jpg`]),
    );
  });

  it('an electronics chain: the title in a div.h2 (not the quick-view link), the review count from the rating label', () => {
    const json = listing(chainSearch(items), 'https://www.chain.test/search/search_results.aspx?Ntt=outdoor').json as J;
    expect(json.results.map(row)).toEqual(items.map((p, i) => [i + 1, CHAIN_ID(p), p.title, p.price, null, 'USD', p.rating, p.reviews]));
    expect(json.results[0].url).toBe(`https://www.chain.test/product/${CHAIN_ID(items[0]!)}/trail-running-shoe`);
  });

  it('book results listing several formats and "More Buying Choices" offers: every card, priced by its first format', () => {
    const json = listing(mediaSearch(items), 'https://www.marketplace.test/s?k=outdoor').json as J;
    expect(json.results.map((r: J) => [r.pos, r.product_id, r.title, r.price, r.old_price, r.rating, r.reviews_count])).toEqual(
      items.map((p, i) => [i + 1, `B0${p.id.slice(1)}XYZ1`, p.title, p.price, p.price + 50, p.rating, p.reviews]),
    );
  });

  it('a search that found nothing: parsed, 0 results, and the url route reads it as a listing', () => {
    const input = { html: noResultsPage('微信 lottery'), url: 'https://www.auction.test/sch/i.html?_nkw=x', page: 1, params: {} };
    const parsed = parseListing('search')(input);
    expect([parsed.status, (parsed.json as J).total_results_count, (parsed.json as J).results]).toEqual(['parsed', 0, []]);
    const any = parseAnyPage(input);
    expect([any.status, (any.json as J).page_type]).toEqual(['parsed', 'listing']);
  });
});

describe('a media product page whose add-to-cart form holds an offers summary', () => {
  const product = (html: string) => parseProduct({ html, url: 'https://www.marketplace.test/dp/P1003', page: 1, params: {} }).json as J;

  it('the buy box price, not "40 New from" the cheapest other seller; the summary only when there is no buy box', () => {
    const p = CATALOGUE[2]!;
    expect([product(buyBoxProduct(p, true)).price, product(buyBoxProduct(p, true)).currency]).toEqual([p.price, 'USD']);
    expect(product(buyBoxProduct(p, false)).price).toBe(p.price - 6);
  });
});
