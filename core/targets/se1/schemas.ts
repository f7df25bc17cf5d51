/**
 * JSON Schemas of the search-engine parsers' `results[].json` (se1, se2), mirroring the types in
 * se1/types.ts, se1/shopping.ts, se1/hotels.ts, se1/lens.ts, se1/aio.ts, se1/trends.ts and
 * se2/search.ts. Merged into OUTPUT_SCHEMAS.
 */
import { arr, int, intN, nullable, num, numN, obj, s, str, strN, type Schema } from '../schema-kit.js';


const link = obj({ title: str, url: str });
const organic = obj({ position: int, title: str, url: str, displayed_url: strN, snippet: strN, sitelinks: arr(link) }, 'An organic result.');
const paid = obj(
  { position: int, block: s('string', { enum: ['top', 'bottom'] }), title: str, url: str, displayed_url: strN, description: strN, sitelinks: arr(link) },
  'A text ad.',
);
const shoppingUnit = obj({ position: int, title: str, url: strN, price: strN, merchant: strN }, 'A product listing ad card.');
const related = obj({ query: str, url: strN });
const price = nullable(obj({ text: str, value: numN, currency: strN }, 'A price as shown, its amount and its ISO 4217 currency code.'));
const source = obj({ title: str, url: str, publisher: strN });
const product = obj(
  { position: int, title: str, url: strN, product_id: strN, price, merchant: strN, rating: numN, reviews: intN, thumbnail: strN },
  'A shopping product card.',
);
const hotel = obj({ position: int, name: str, url: strN, price, rating: numN, reviews: intN, stars: intN, description: strN, amenities: arr(str), deal: strN });
const local = obj({ position: int, title: str, rating: numN, reviews: intN, category: strN, address: strN, details: strN, url: strN }, 'A place card.');
const newsResult = obj(
  { position: int, title: str, url: str, source: strN, date: strN, snippet: strN, thumbnail: strN },
  'A News-tab article; `date` as the page prints it ("3 hours ago", "Apr 20, 2019").',
);
const imageResult = obj(
  { position: int, title: str, url: str, image_url: strN, thumbnail: strN, source: strN, width: intN, height: intN },
  'An Images-tab image: `url` is the page it is on; `image_url`, width and height where the page carries them.',
);

export const SE_OUTPUT_SCHEMAS: Record<string, Schema> = {
  'se1/search': obj(
    {
      query: strN,
      page: int,
      vertical: s('string', { enum: ['web', 'news', 'images', 'videos', 'shopping', 'books'], description: 'The result tab the page shows.' }),
      result_count: intN,
      organic: arr(organic),
      paid: arr(paid),
      shopping: arr(shoppingUnit),
      people_also_ask: arr(obj({ question: str, title: strN, url: strN, snippet: strN })),
      related_searches: arr(related),
      ai_overview: nullable(obj({ text: str, sources: arr(source) })),
      featured_snippet: nullable(obj({ title: strN, url: strN, displayed_url: strN, text: str })),
      knowledge_panel: nullable(obj({ title: str, subtitle: strN, description: strN, source: nullable(link), facts: arr(obj({ label: str, value: str })) })),
      local_pack: arr(local),
      top_stories: arr(obj({ position: int, title: str, url: str, source: strN, published: strN })),
      videos: arr(obj({ position: int, title: str, url: str, source: strN, duration: strN })),
      news_results: arr(newsResult, 'The News tab\'s articles; empty on other tabs.'),
      image_results: arr(imageResult, 'The Images tab\'s images; empty on other tabs.'),
      shopping_results: arr(product, 'The Shopping tab\'s products; empty on other tabs.'),
    },
    'A parsed se1 results page (web, News, Images, Videos or Books tab).',
  ),
  'se1/ads': obj({ query: strN, page: int, paid: arr(paid), shopping: arr(shoppingUnit) }, 'The paid block of an se1 results page.'),
  'se1/aimode': obj({ query: strN, answer_text: strN, citations: arr(source), links: arr(link) }, 'An se1 AI Mode answer.'),
  'se1/shopping/search': obj(
    {
      query: strN,
      page: int,
      results: arr(product),
    },
    'An se1 shopping results page.',
  ),
  'se1/shopping/product': obj(
    {
      product_id: strN,
      title: strN,
      rating: numN,
      reviews: intN,
      description: strN,
      offers: arr(obj({ merchant: str, url: strN, price, details: strN })),
    },
    'An se1 shopping product page with its offers.',
  ),
  'se1/travel/hotels': obj(
    {
      query: strN,
      page: int,
      hotels: arr(hotel),
    },
    'An se1 hotel search page.',
  ),
  'se1/lens': obj(
    {
      image_url: strN,
      keywords: strN,
      best_guess: strN,
      visual_matches: arr(obj({ position: int, title: str, url: str, source: strN, thumbnail: strN, price })),
    },
    'An se1 search-by-image page.',
  ),
  'se1/trends/explore': obj(
    {
      query: strN,
      interest_over_time: arr(obj({ date: str, value: num })),
      related_queries: arr(obj({ query: str, value: numN })),
    },
    'An se1 trends page.',
  ),
  'se2/search': obj(
    {
      query: strN,
      page: int,
      vertical: s('string', { enum: ['web', 'images'], description: 'images on an image results page (its images also listed, as pages, in organic).' }),
      result_count: intN,
      organic: arr(organic),
      paid: arr(paid),
      related_searches: arr(related),
      local_pack: arr(local, 'Places of a local answer, or the side column\'s local card.'),
      hotels: arr(hotel, 'Hotels of a hotel answer.'),
      image_results: arr(imageResult),
    },
    'A parsed se2 results page (web or images).',
  ),
};

/** `se1` and `se2` (by URL) answer with the schema of the page kind the URL names. */
SE_OUTPUT_SCHEMAS.se1 = {
  description: 'Any se1 page, parsed by its kind (web results, shopping, product, hotels, image search, trends, AI Mode).',
  anyOf: ['se1/search', 'se1/shopping/search', 'se1/shopping/product', 'se1/travel/hotels', 'se1/lens', 'se1/trends/explore', 'se1/aimode'].map(
    (id) => SE_OUTPUT_SCHEMAS[id],
  ),
};
SE_OUTPUT_SCHEMAS.se2 = SE_OUTPUT_SCHEMAS['se2/search'];
