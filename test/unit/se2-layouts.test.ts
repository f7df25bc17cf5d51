/**
 * se2 on pages of other generations and blocks (test/sites/se2-layouts.ts): the 2009-2014
 * result list, clusters and answers inside the 2019-2022 list, hotel and local answers, and
 * image results served by the simulator over HTTP (port 0). Exact outputs.
 */
import { createServer, type Server } from 'node:http';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_SCHEMAS, parsePage } from '../../core/targets/index.js';
import { doc } from '../sites/se-data.js';
import { seSite } from '../sites/se.js';
import { se2BoxLinksPage, se2Hotels, se2HotelsPage, se2Images, se2LocalCardPage, se2OldAds, se2OldPage, se2OldRelated, se2RichPage } from '../sites/se2-layouts.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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

const URL2 = 'https://se2.example/search?q=x';
const parse = (html: string, url = URL2) => parsePage('se2/search', { html, url, page: 1, params: {} })!;
const docs = (q: string, n: number, from = 1) => Array.from({ length: n }, (_, i) => doc(q, from + i));
const validate = new Ajv({ allErrors: true, strict: false }).compile(OUTPUT_SCHEMAS['se2/search'] as object);

describe('se2 layouts', () => {
  it('2009-2014 list (ul.sb_results, li.sa_wr): title, cite, snippet, deep links; the answer item is not a result', () => {
    const list = docs('green tea', 4);
    const parsed = parse(se2OldPage('green tea', list));
    const json = parsed.json as J;
    expect(json.organic.map((o: J) => [o.title, o.url, o.snippet])).toEqual(list.map((d) => [d.title, d.url, d.snippet]));
    expect(json.organic[0].displayed_url).toBe(list[0]!.host);
    expect(json.organic[0].sitelinks).toEqual(['History', 'Products', 'Contact'].map((t) => ({ title: t, url: `${list[0]!.url}#${t.toLowerCase()}` })));
    // The meta line's "Cached page" link is no sitelink.
    expect(json.organic.slice(1).map((o: J) => o.sitelinks)).toEqual([[], [], []]);
    expect(parsed.status).toBe('parsed');
  });

  it('2009-2014 ads (sb_adsWv2 above, sb_adsW2v2 below, sb_adsNv2 side; h3 titles) and related searches (#sw_rel menu, .qsa answer + side copy)', () => {
    const [top, side] = se2OldAds('green tea');
    const ad = (a: (typeof top)[number], i: number, block: 'top' | 'bottom') => ({ position: i, block, title: a.title, url: a.url, displayed_url: a.cite, description: a.description, sitelinks: [] });
    const related = se2OldRelated('green tea').map((q) => `https://se2.example/search?q=${q.replace(/ /g, '+')}&FORM=`);
    for (const [extras, form] of [['menu', 'R5FD'], ['answer', 'QSRE1']] as const) {
      const parsed = parse(se2OldPage('green tea', docs('green tea', 3), extras));
      const json = parsed.json as J;
      expect(json.paid).toEqual([ad(top[0]!, 1, 'top'), ad(top[0]!, 2, 'bottom'), ad(side[0]!, 3, 'top')]);
      // The search-history menu beside #sw_rel is not related searches; the side copy of the answer adds nothing.
      expect(json.related_searches).toEqual(se2OldRelated('green tea').map((query, i) => ({ query, url: related[i] + form })));
      expect([json.organic.length, parsed.status]).toEqual([3, 'parsed']);
    }
  });

  it('sitelinks are the deep links only: not licence lines, engine searches, social cards, other sites\' pages or pop-ups', () => {
    const list = docs('wonder kids', 2);
    const page = se2BoxLinksPage('wonder kids', list);
    const json = parse(page.html).json as J;
    expect(json.organic.map((o: J) => [o.url, o.snippet, o.sitelinks])).toEqual([
      [list[0]!.url, list[0]!.snippet, page.deep],
      [list[1]!.url, null, []],
    ]);
  });

  it('2019-2022 list: results in a cluster row count in page order; people-also-ask entries and the encyclopedia block do not', () => {
    const list = docs('green tea', 7);
    const qna = docs('green tea qna', 2, 50);
    const json = parse(se2RichPage('green tea', list, qna)).json as J;
    expect(json.organic.map((o: J) => [o.position, o.url])).toEqual(list.map((d, i) => [i + 1, d.url]));
  });

  it('hotel answer: name, rating, review count, star class', () => {
    const list = docs('paris', 3);
    const parsed = parse(se2HotelsPage('paris', list));
    const json = parsed.json as J;
    expect(json.hotels).toEqual(
      se2Hotels('paris').map((h, i) => ({ position: i + 1, name: h.name, url: null, price: null, rating: h.rating, reviews: h.reviewCount, stars: h.stars, description: null, amenities: [], deal: null })),
    );
    expect([json.organic.length, json.local_pack, parsed.status]).toEqual([3, [], 'parsed']);
    expect({ ok: validate(json), errors: validate.errors ?? null }).toEqual({ ok: true, errors: null });
  });

  it('side-column local card: title and address from its save overlay, category from its fact row', () => {
    const page = se2LocalCardPage('hoepfner', docs('hoepfner', 2));
    const json = parse(page.html).json as J;
    expect(json.local_pack).toEqual([{ position: 1, title: page.title, rating: null, reviews: null, category: page.category, address: page.address, details: page.category, url: null }]);
  });

  it('image results from the simulator: m-JSON links (full page) and .item cells (no scripts)', async () => {
    const want = se2Images('green tea').map((m, i) => ({ position: i + 1, title: m.title, url: m.page, image_url: m.image, thumbnail: m.thumbnail, source: m.source, width: m.width, height: m.height }));
    for (const path of ['/se2/images/search?q=green+tea', '/se2/images/search?q=green+tea&nojs=1']) {
      const html = await (await fetch(origin + path)).text();
      const parsed = parse(html, origin + path);
      const json = parsed.json as J;
      expect([json.vertical, json.image_results, parsed.status]).toEqual(['images', want, 'parsed']);
      expect(json.organic.map((o: J) => [o.title, o.url, o.displayed_url])).toEqual(want.map((w) => [w.title, w.url, w.source]));
    }
  });

  it('a result list whose items lost their title heading is partial, naming organic', () => {
    const html = se2OldPage('green tea', docs('green tea', 3)).replace(/<h3>|<\/h3>/g, '');
    expect(parse(html)).toMatchObject({ status: 'partial', missing: ['organic'] });
  });
});
