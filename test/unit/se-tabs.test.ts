/**
 * se1 News and Images tabs and the basic-HTML local pack: pages of each captured generation's
 * structure, the current ones served by the simulator over HTTP (port 0). Exact outputs.
 */
import { createServer, type Server } from 'node:http';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_SCHEMAS, parsePage } from '../../core/targets/index.js';
import { se1Docs } from '../sites/se-data.js';
import { seSite } from '../sites/se.js';
import { basicPlaces, imageHits, listedProducts, newsArticles, se1ImagesPage, se1NewsPage, se1ShoppingListPage } from '../sites/se1-tabs.js';
import { se1BasicPage } from '../sites/se1-web.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (!(await seSite(req, res, url, { origin, hits: new Map() }))) {
      res.writeHead(404);
      res.end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(path: string, route = 'se1/search') {
  const html = await (await fetch(origin + path)).text();
  return parsePage(route, { html, url: origin + path, page: 1, params: {} })!;
}

/** A page parsed under a URL that does not name the tab: the page's own form says it. */
const parseNeutral = (html: string) => parsePage('se1/search', { html, url: 'https://se1.example/search?q=x', page: 1, params: {} })!;

const validate = new Ajv({ allErrors: true, strict: false }).compile(OUTPUT_SCHEMAS['se1/search'] as object);

describe('se1 News tab', () => {
  const q = 'green tea';
  const articles = newsArticles(q);

  it('card layout (2020-2025): source, heading title, snippet, date, thumbnail; organic lists the same articles', async () => {
    const parsed = await get('/se1/search?q=green+tea&tbm=nws');
    const json = parsed.json as J;
    expect(parsed.status).toBe('parsed');
    expect(json.vertical).toBe('news');
    expect(json.news_results).toEqual(articles.map((a, i) => ({ position: i + 1, title: a.title, url: a.url, source: a.source, date: a.date, snippet: a.snippet, thumbnail: a.thumbnail })));
    expect(json.organic).toEqual(articles.map((a, i) => ({ position: i + 1, title: a.title, url: a.url, displayed_url: a.source, snippet: a.snippet, sitelinks: [] })));
    expect({ ok: validate(json), errors: validate.errors ?? null }).toEqual({ ok: true, errors: null });
  });

  it('2019 cards without a heading role: title from the line order (source, title, snippet)', () => {
    const json = parseNeutral(se1NewsPage(q, 'card2019')).json as J;
    expect(json.news_results.map((r: J) => [r.source, r.title, r.snippet, r.date])).toEqual(articles.map((a) => [a.source, a.title, a.snippet, a.date]));
  });

  it('basic HTML (gbv=1, 2013-2018): headed title links with their source - date line; a cluster follow-up and engine links are not results', async () => {
    const parsed = await get('/se1/search?q=green+tea&tbm=nws&gbv=1');
    const json = parsed.json as J;
    expect(json.news_results).toEqual(articles.map((a, i) => ({ position: i + 1, title: a.title, url: a.url, source: a.source, date: a.date, snippet: a.snippet, thumbnail: null })));
    expect(parsed.status).toBe('parsed');
  });

  it('cards that no longer carry their lines make the page partial, naming news_results', () => {
    const html = se1NewsPage(q, 'card').replace(/<div class="iRPxbe">.*?<\/div><div class="uhHOwf">/g, '<div class="uhHOwf">');
    expect(parseNeutral(html)).toMatchObject({ status: 'partial', missing: ['news_results'] });
  });
});

describe('se1 Images tab', () => {
  const q = 'green tea';
  const hits = imageHits(q);

  it('full page (udm=2): data-id boxes with the full-size image and size from the inline data', async () => {
    const parsed = await get('/se1/search?q=green+tea&udm=2');
    const json = parsed.json as J;
    expect(json.vertical).toBe('images');
    expect(json.image_results).toEqual(hits.map((h, i) => ({ position: i + 1, title: h.title, url: h.page, image_url: h.image, thumbnail: h.thumbnail, source: h.source, width: h.width, height: h.height })));
    expect(json.organic.map((o: J) => [o.title, o.url, o.displayed_url])).toEqual(hits.map((h) => [h.title, h.page, h.source]));
    expect({ ok: validate(json), errors: validate.errors ?? null }).toEqual({ ok: true, errors: null });
  });

  it('basic HTML (gbv=1, images_table): domain, title and W × H lines; no full-size address on the page', async () => {
    const json = (await get('/se1/search?q=green+tea&tbm=isch&gbv=1')).json as J;
    expect(json.image_results).toEqual(hits.map((h, i) => ({ position: i + 1, title: h.title, url: h.page, image_url: null, thumbnail: h.thumbnail, source: h.source, width: h.width, height: h.height })));
  });

  it('2021 basic cells (title and domain spans in a second link) and 2014-2019 rg_meta boxes', () => {
    const basic = parseNeutral(se1ImagesPage(q, 'basic2021')).json as J;
    expect(basic.image_results.map((r: J) => [r.title, r.url, r.source, r.width])).toEqual(hits.map((h) => [h.title, h.page, h.source, null]));
    const meta = parseNeutral(se1ImagesPage(q, 'rgmeta')).json as J;
    expect(meta.image_results).toEqual(hits.map((h, i) => ({ position: i + 1, title: h.title, url: h.page, image_url: h.image, thumbnail: h.thumbnail, source: h.source, width: h.width, height: h.height })));
  });
});

describe('se1 local pack on the basic-HTML page', () => {
  it('place cards by their ludocid links: name, rating and reviews, category, locality; their links are not organic', () => {
    const html = se1BasicPage({ query: 'green tea', page: 1, num: 3, docs: se1Docs('green tea', 1, 3) });
    const parsed = parsePage('se1/search', { html, url: 'https://se1.example/search?q=green+tea&gbv=1', page: 1, params: {} })!;
    const json = parsed.json as J;
    expect(json.local_pack).toEqual(
      basicPlaces('green tea').map((p, i) => ({
        position: i + 1,
        title: p.title,
        rating: p.rating,
        reviews: p.reviews,
        category: p.category,
        address: p.locality,
        details: `${p.rating === null ? 'No reviews' : `${p.rating.toFixed(1)} (${p.reviews})`} · ${p.category} · ${p.locality} · (555) 010-20${p.id.slice(-2)}`,
        url: null,
      })),
    );
    expect(json.organic).toHaveLength(3);
    expect(parsed.status).toBe('parsed');
  });
});

describe('se1 Shopping tab, 2024-2025 list grid', () => {
  it('products with the price in the page notation read as EUR, merchant, rating, reviews, thumbnail; filter chips are not products', () => {
    const html = se1ShoppingListPage('green tea');
    const read = (route: string) => parsePage(route, { html, url: 'https://www.se1.fr/search?q=green+tea&udm=28', page: 1, params: {} })!;
    const expected = listedProducts('green tea').map((p, i) => ({
      position: i + 1,
      title: p.title,
      url: p.url,
      product_id: null,
      price: { text: p.price, value: p.amount, currency: 'EUR' },
      merchant: p.merchant,
      rating: p.rating,
      reviews: p.reviews,
      thumbnail: p.thumbnail,
    }));
    expect((read('se1/shopping/search').json as J).results).toEqual(expected);
    const search = read('se1/search').json as J;
    expect([search.vertical, search.shopping_results]).toEqual(['shopping', expected]);
  });
});
