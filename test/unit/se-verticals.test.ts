/**
 * se1 vertical parsers (AI Mode, shopping, product, hotels, image search, trends) on pages
 * served by the real simulator handler over HTTP (port 0), and the simulator's failure switches.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { parsePage } from '../../core/targets/index.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/index.js';
import { seSite } from '../sites/se.js';

let server: Server;
let origin = '';
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    hits.set(url.pathname + url.search, (hits.get(url.pathname + url.search) ?? 0) + 1);
    if (!(await seSite(req, res, url, { origin, hits }))) {
      res.writeHead(404);
      res.end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function get(route: string, path: string, params: Record<string, unknown> = {}) {
  const res = await fetch(origin + path);
  const html = await res.text();
  return { status: res.status, parsed: parsePage(route, { html, url: origin + path, page: 1, params }) };
}

const money = (v: number) => ({ text: `$${v.toFixed(2)}`, value: v, currency: 'USD' });

describe('se1 vertical parsers on the simulator', () => {
  it('se1/aimode: answer text, citations and the links inside the answer', async () => {
    const { parsed } = await get('se1/aimode', '/se1/search?q=green+tea&udm=50');
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        query: 'green tea',
        answer_text: 'Green Tea: here is what AI Mode found. See the Green Tea handbook. Most sources describe green tea the same way.',
        citations: [1, 2].map((i) => ({ title: `Green Tea source ${i}`, url: `https://www.cited-${i}.example/green-tea`, publisher: `Cited ${i}` })),
        links: [{ title: 'Green Tea handbook', url: 'https://www.handbook.example/green-tea' }],
      },
    });
  });

  it('se1/shopping/search: grid cards; price filter and order come from tbs', async () => {
    const { parsed } = await get('se1/shopping/search', '/se1/search?q=green+tea&tbm=shop&num=3&tbs=mr:1,price:1,ppr_min:50,ppr_max:150,p_ord:pd');
    const results = (parsed!.json as { results: { title: string; price: unknown; merchant: string; product_id: string; url: string }[] }).results;
    expect(results.map((r) => [r.title, r.price, r.merchant])).toEqual([
      ['Green Tea Model D', money(137.5), 'Charlie Outlet'],
      ['Green Tea Model C', money(112.5), 'Bravo Store'],
      ['Green Tea Model B', money(87.5), 'Shopalpha'],
    ]);
    expect(results[0].url).toBe(`${origin}/se1/shopping/product/${results[0].product_id}`);
    expect(parsed!.status).toBe('parsed');
  });

  it('se1/shopping/product: title, rating, reviews and offers', async () => {
    const { parsed } = await get('se1/shopping/product', '/se1/shopping/product/12345', { query: '12345' });
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        product_id: '12345',
        title: 'Product 12345',
        rating: 3.4,
        reviews: 329,
        description: 'Product 12345 is a well reviewed item.',
        offers: [
          { merchant: 'Shopalpha', url: 'https://www.shopalpha.example/p/12345', price: money(44), details: 'Free delivery' },
          { merchant: 'Bravo Store', url: 'https://www.bravo-store.example/p/12345', price: money(49), details: 'Delivery $5.00' },
          { merchant: 'Charlie Outlet', url: 'https://www.charlie-outlet.example/p/12345', price: money(54), details: 'Delivery $6.00' },
        ],
      },
    });
  });

  it('se1/travel/hotels: cards with price, rating, reviews, class; adults and classes change the page', async () => {
    const two = (await get('se1/travel/hotels', '/se1/travel/search?q=paris&adults=2')).parsed!.json as { hotels: Record<string, unknown>[] };
    expect(two.hotels).toHaveLength(20);
    expect(two.hotels[0]).toEqual({
      position: 1,
      name: 'Paris Hotel 1',
      url: `${origin}/se1/travel/hotels/paris-hotel-1`,
      price: { text: '$236', value: 236, currency: 'USD' },
      rating: 4.6,
      reviews: 4656,
      stars: 2,
      description: 'Comfortable stay 1 in paris',
      amenities: ['Free Wi-Fi', 'Pool'],
      deal: 'GREAT DEAL · 20% less than usual',
    });
    const three = (await get('se1/travel/hotels', '/se1/travel/search?q=paris&adults=3')).parsed!.json as { hotels: { price: { value: number } }[] };
    expect(three.hotels[0].price.value).toBe(256);
    const fives = (await get('se1/travel/hotels', '/se1/travel/search?q=paris&hotel_class=5')).parsed!.json as { hotels: { stars: number }[] };
    expect(new Set(fives.hotels.map((h) => h.stars))).toEqual(new Set([5]));
    expect(fives.hotels).toHaveLength(10);
  });

  it('se1/lens: best guess and visual matches', async () => {
    const image = 'https://img.example/shoe.jpg';
    const { parsed } = await get('se1/lens', `/se1/lens/uploadbyurl?url=${encodeURIComponent(image)}&q=shoe`, { query: image, keywords: 'shoe' });
    const json = parsed!.json as { best_guess: string; visual_matches: { position: number; title: string; source: string }[]; image_url: string; keywords: string };
    expect([json.image_url, json.keywords]).toEqual([image, 'shoe']);
    expect(json.best_guess).toMatch(/^Best guess: shoe \d+$/);
    expect(json.visual_matches.map((m) => [m.position, m.source])).toEqual([
      [1, 'pictures-1.example'],
      [2, 'pictures-2.example'],
      [3, 'pictures-3.example'],
    ]);
  });

  it('se1/trends/explore: interest over time and related queries', async () => {
    const { parsed } = await get('se1/trends/explore', '/se1/trends/explore?q=green+tea');
    const json = parsed!.json as { interest_over_time: { date: string }[]; related_queries: unknown[] };
    expect(json.interest_over_time.map((p) => p.date)).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06']);
    expect(json.related_queries).toEqual([
      { query: 'green tea today', value: 100 },
      { query: 'green tea news', value: 70 },
    ]);
  });

  it('se1 by URL reads the page kind from the URL', async () => {
    const product = await get('se1', '/se1/shopping/product/12345');
    expect((product.parsed!.json as { title: string }).title).toBe('Product 12345');
    const hotels = await get('se1', '/se1/travel/search?q=paris');
    expect((hotels.parsed!.json as { hotels: unknown[] }).hotels).toHaveLength(20);
    const ai = await get('se1', '/se1/search?q=green+tea&udm=50');
    expect((ai.parsed!.json as { citations: unknown[] }).citations).toHaveLength(2);
  });

  it('outputs match the published JSON Schemas', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const cases: [string, string][] = [
      ['se1/aimode', '/se1/search?q=tea&udm=50'],
      ['se1/shopping/search', '/se1/search?q=tea&tbm=shop'],
      ['se1/shopping/product', '/se1/shopping/product/77'],
      ['se1/travel/hotels', '/se1/travel/search?q=rome'],
      ['se1/lens', '/se1/lens/uploadbyurl?url=https%3A%2F%2Fimg.example%2Fa.jpg'],
      ['se1/trends/explore', '/se1/trends/explore?q=tea'],
      ['se1', '/se1/search?q=tea'],
    ];
    for (const [route, path] of cases) {
      const validate = ajv.compile(OUTPUT_SCHEMAS[route]);
      const ok = validate((await get(route, path)).parsed!.json);
      expect({ route, errors: validate.errors ?? null, ok }).toEqual({ route, errors: null, ok: true });
    }
  });
});

describe('simulator failure switches', () => {
  it('__fail__ answers 503; __flaky__ fails once per URL; __captcha__ is unrecognised; other paths are not answered', async () => {
    expect((await fetch(`${origin}/se1/search?q=x+__fail__`)).status).toBe(503);
    expect((await fetch(`${origin}/se2/search?q=x+__fail__`)).status).toBe(503);
    expect((await fetch(`${origin}/se1/search?q=__flaky__+1`)).status).toBe(503);
    expect((await fetch(`${origin}/se1/search?q=__flaky__+1`)).status).toBe(200);
    const captcha = await get('se1/search', '/se1/search?q=__captcha__');
    expect([captcha.status, captcha.parsed!.status]).toEqual([200, 'unrecognised']);
    expect((await fetch(`${origin}/other/search?q=x`)).status).toBe(404);
  });

  it('an empty result page is recognised with no results', async () => {
    const { parsed } = await get('se1/search', '/se1/search?q=__empty__');
    expect(parsed!.status).toBe('parsed');
    expect((parsed!.json as { organic: unknown[] }).organic).toEqual([]);
  });
});
