/** se2 web results parser on simulator pages (structure of the engine's result list). Exact outputs. */
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { parsePage } from '../../core/targets/index.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/index.js';
import { unwrapTracking } from '../../core/targets/se2/parse.js';
import { se2Docs } from '../sites/se-data.js';
import { se2Page } from '../sites/se2-web.js';

const URL2 = 'http://127.0.0.1:9/se2/search?q=green+tea';
const parse = (route: string, html: string) => parsePage(route, { html, url: URL2, page: 1, params: { query: 'green tea' } });

describe('se2/search parser', () => {
  it('reads organic results, ads, related searches and the count', () => {
    const html = se2Page({ query: 'green tea', page: 1, docs: se2Docs('green tea', 1).slice(0, 3) });
    expect(parse('se2/search', html)).toEqual({
      status: 'parsed',
      json: {
        query: 'green tea',
        page: 1,
        vertical: 'web',
        result_count: 1434000,
        organic: [
          [2, 'echo', 'Tutorial'],
          [1, 'delta', 'Notes'],
          [4, 'golf', 'Primer'],
        ].map(([n, host, topic], i) => ({
          position: i + 1,
          title: `Green Tea ${topic} ${n}`,
          url: `https://www.${host}-${n}.example/green-tea/${n}`,
          displayed_url: `https://www.${host}-${n}.example/green-tea/${n}`,
          snippet: `Everything about green tea: ${String(topic).toLowerCase()} number ${n} with details and examples.`,
          sitelinks: [],
        })),
        paid: (['top', 'bottom'] as const).map((block, i) => ({
          position: i + 1,
          block,
          title: `Green Tea Offers (${block})`,
          url: `https://www.se2-${block}-ad.example/green-tea`,
          displayed_url: `www.se2-${block}-ad.example`,
          description: 'Compare green tea offers.',
          sitelinks: [],
        })),
        related_searches: ['near me', 'price', 'reviews', 'history', 'for beginners', 'vs alternatives'].map((w) => ({
          query: `green tea ${w}`,
          url: `http://127.0.0.1:9/se2/search?q=${`green tea ${w}`.replace(/ /g, '+')}`,
        })),
        local_pack: [],
        hotels: [],
        image_results: [],
      },
    });
  });

  it('a page with no results is recognised and empty; an unknown page is unrecognised', () => {
    const empty = parse('se2/search', se2Page({ query: 'green tea', page: 1, docs: [] }))!;
    expect(empty).toEqual({ status: 'parsed', json: { query: 'green tea', page: 1, vertical: 'web', result_count: null, organic: [], paid: [], related_searches: [], local_pack: [], hotels: [], image_results: [] } });
    expect(parse('se2', '<html><body><p>Access denied</p></body></html>')!.status).toBe('unrecognised');
  });

  it('unwraps click-tracking links carrying the target in u=a1<base64url>', () => {
    const target = 'https://www.delta-1.example/green-tea/1?x=1';
    const wrapped = `https://engine.example/ck/a?!&&p=abc&u=a1${Buffer.from(target).toString('base64url')}&ntb=1`;
    expect([unwrapTracking(wrapped), unwrapTracking(target), unwrapTracking('/relative')]).toEqual([target, target, '/relative']);
  });

  it('output matches the published JSON Schema', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(OUTPUT_SCHEMAS['se2/search']);
    const ok = validate(parse('se2/search', se2Page({ query: 'x', page: 2, docs: se2Docs('x', 2) }))!.json);
    expect({ errors: validate.errors ?? null, ok }).toEqual({ errors: null, ok: true });
  });
});
