/**
 * se1 web results parser (`se1/search`, `se1/ads`, `se1` by URL) on simulator pages whose
 * structure follows captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { stripRawText } from '../../core/parsers/dom.js';
import { parsePage } from '../../core/targets/index.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/index.js';
import { se1Docs } from '../sites/se-data.js';
import { se1BasicPage, se1WebPage } from '../sites/se1-web.js';

const URL1 = 'http://127.0.0.1:9/se1/search?q=green+tea&num=4';
const page1 = () => se1WebPage({ query: 'green tea', page: 1, num: 4, hl: 'en', docs: se1Docs('green tea', 1, 4) });
const parse = (route: string, html: string, url = URL1, page = 1) => parsePage(route, { html, url, page, params: { query: 'green tea' } });

const ads = (n: number, block: 'top' | 'bottom', label: string) => ({
  position: n,
  block,
  title: `Buy Green Tea Today ${label}`,
  url: `https://www.${block}-ad-${block === 'top' ? n : 1}.example/green-tea`,
  displayed_url: `https://www.${block}-ad-${block === 'top' ? n : 1}.example`,
  description: 'Great offers on green tea. Free shipping on orders over $50.',
  sitelinks: [
    { title: 'Best Sellers', url: `https://www.${block}-ad-${block === 'top' ? n : 1}.example/green-tea/best-sellers` },
    { title: 'New Arrivals', url: `https://www.${block}-ad-${block === 'top' ? n : 1}.example/green-tea/new` },
  ],
});
const organic = (position: number, host: string, topic: string, snippet?: string, sitelinks: { title: string; url: string }[] = []) => ({
  position,
  title: `Green Tea ${topic} ${position}`,
  url: `https://www.${host}-${position}.example/green-tea/${position}`,
  displayed_url: `https://www.${host}-${position}.example › ${topic.toLowerCase()}-${position}`,
  snippet: snippet ?? `Everything about green tea: ${topic.toLowerCase()} number ${position} with details and examples.`,
  sitelinks,
});
const related = ['near me', 'price', 'reviews', 'history', 'for beginners', 'vs alternatives', 'meaning', 'examples'].map((w) => ({
  query: `green tea ${w}`,
  url: `http://127.0.0.1:9/se1/search?q=${`green tea ${w}`.replace(/ /g, '+')}`,
}));

describe('se1/search parser', () => {
  it('reads every block of a first results page', () => {
    const parsed = parse('se1/search', page1());
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        query: 'green tea',
        page: 1,
        vertical: 'web',
        result_count: 1434000,
        organic: [
          organic(1, 'delta', 'Notes', 'Green Tea is explained in short: the featured answer for green tea.'),
          organic(2, 'echo', 'Tutorial', undefined, [
            { title: 'About us', url: 'https://www.echo-2.example/green-tea/2/about' },
            { title: 'Contact', url: 'https://www.echo-2.example/green-tea/2/contact' },
            { title: 'Pricing', url: 'https://www.echo-2.example/green-tea/2/pricing' },
          ]),
          organic(3, 'foxtrot', 'Guide'),
          organic(4, 'golf', 'Primer'),
        ],
        paid: [ads(1, 'top', '1'), ads(2, 'top', '2'), ads(3, 'bottom', 'Deals')],
        shopping: [
          { position: 1, title: 'Green Tea Model A', url: 'https://www.echo-goods.example/p/1441434', price: '$62.50', merchant: 'Echo Goods' },
          { position: 2, title: 'Green Tea Model B', url: 'https://www.shopalpha.example/p/1449353', price: '$87.50', merchant: 'Shopalpha' },
          { position: 3, title: 'Green Tea Model C', url: 'https://www.bravo-store.example/p/1457272', price: '$112.50', merchant: 'Bravo Store' },
        ],
        people_also_ask: ['What is green tea?', 'How does green tea work?', 'Is green tea worth it?', 'Where can I find green tea?'].map((question, i) => ({
          question,
          title: `Answer ${i + 1} about Green Tea`,
          url: `https://www.answers-${i + 1}.example/green-tea`,
          snippet: `Short answer ${i + 1}: green tea in one sentence.`,
        })),
        related_searches: related,
        ai_overview: {
          text: 'Green Tea is a topic with a short answer and a longer story. Sources agree that green tea matters most in practice.',
          sources: [1, 2, 3].map((i) => ({ title: `Green Tea explained ${i}`, url: `https://www.source-${i}.example/green-tea`, publisher: `Source ${i}` })),
        },
        featured_snippet: {
          title: 'Green Tea Notes 1',
          url: 'https://www.delta-1.example/green-tea/1',
          displayed_url: 'https://www.delta-1.example › notes-1',
          text: 'Green Tea is explained in short: the featured answer for green tea.',
        },
        knowledge_panel: {
          title: 'Green Tea',
          subtitle: 'Topic',
          description: 'Green Tea is the subject of this panel.',
          source: { title: 'Encyclopedia', url: 'https://www.encyclopedia.example/wiki/green-tea' },
          facts: [
            { label: 'Founded', value: '1974' },
            { label: 'Known for', value: 'Green Tea and related topics' },
          ],
        },
        local_pack: [1, 2, 3].map((i) => ({
          position: i,
          title: `Green Tea Place ${i}`,
          rating: 4 + i / 10,
          reviews: 100 * i,
          category: i === 2 ? 'Tea house' : 'Shop',
          address: `${i}${i} Main St`,
          details: `${(4 + i / 10).toFixed(1)}(${100 * i}) · ${i === 2 ? 'Tea house' : 'Shop'} · ${i}${i} Main St · Near the station`,
          url: `https://www.place-${i}.example/`,
        })),
        top_stories: [1, 2, 3].map((i) => ({
          position: i,
          title: `Green Tea makes headlines, part ${i}`,
          url: `https://news-${i}.example/green-tea-${i}`,
          source: `News ${i}`,
          published: `${i} hours ago`,
        })),
        videos: [
          { position: 1, title: 'Green Tea video 1', url: 'https://www.videos.example/watch?v=green-tea-1', source: 'Channel 1', duration: '3:01' },
          { position: 2, title: 'Green Tea video 2', url: 'https://www.videos.example/watch?v=green-tea-2', source: 'Channel 2', duration: '4:02' },
        ],
        news_results: [],
        image_results: [],
        shopping_results: [],
      },
    });
  });

  it('reads a later page: organic, ads, related searches; no first-page blocks', () => {
    const html = se1WebPage({ query: 'green tea', page: 2, num: 4, docs: se1Docs('green tea', 2, 4) });
    const json = parse('se1/search', html, 'http://127.0.0.1:9/se1/search?q=green+tea&num=4&start=4', 2)!.json as Record<string, unknown>;
    expect((json.organic as { title: string; position: number }[]).map((o) => [o.position, o.title])).toEqual([
      [1, 'Green Tea Review 5'],
      [2, 'Green Tea Overview 6'],
      [3, 'Green Tea Digest 7'],
      [4, 'Green Tea Handbook 8'],
    ]);
    expect(json.page).toBe(2);
    expect((json.paid as { title: string; block: string }[]).map((a) => [a.block, a.title])).toEqual([
      ['top', 'Buy Green Tea Today 1'],
      ['bottom', 'Buy Green Tea Today Deals'],
    ]);
    expect(json.related_searches).toEqual(related);
    expect([json.ai_overview, json.featured_snippet, json.knowledge_panel, json.people_also_ask, json.top_stories]).toEqual([null, null, null, [], []]);
  });

  it('reads the basic-HTML page (redirect-wrapped links, no scripts)', () => {
    const html = se1BasicPage({ query: 'green tea', page: 1, num: 2, docs: se1Docs('green tea', 1, 2) });
    const json = parse('se1/search', html)!.json as Record<string, unknown>;
    expect(json.organic).toEqual([
      { ...organic(1, 'delta', 'Notes'), displayed_url: 'www.delta-1.example › notes-1' },
      { ...organic(2, 'echo', 'Tutorial'), displayed_url: 'www.echo-2.example › tutorial-2' },
    ]);
    expect(json.related_searches).toEqual(related);
    expect(json.result_count).toBe(null);
  });

  it('reads the result count in the interface language', () => {
    const count = (hl: string) => (parse('se1/search', se1WebPage({ query: 'green tea', page: 1, num: 1, hl, docs: se1Docs('green tea', 1, 1) }))!.json as { result_count: number }).result_count;
    expect([count('en'), count('de'), count('fr')]).toEqual([1434000, 1434000, 1434000]);
  });

  it('shows the expanded AI overview and test ads as the page has them', () => {
    const html = se1WebPage({ query: 'green tea', page: 1, num: 1, expandAio: true, adtest: true, docs: se1Docs('green tea', 1, 1) });
    const json = parse('se1/search', html)!.json as { ai_overview: { text: string }; paid: { title: string }[] };
    expect(json.ai_overview.text).toBe(
      'Green Tea is a topic with a short answer and a longer story. Sources agree that green tea matters most in practice. In depth: the history of green tea goes back several decades.',
    );
    expect(json.paid.map((a) => a.title)).toEqual(['Test ad: Buy Green Tea Today 1', 'Test ad: Buy Green Tea Today 2', 'Test ad: Buy Green Tea Today Deals']);
  });

  it('se1/ads returns the paid block only', () => {
    expect(parse('se1/ads', page1())!.json).toEqual({
      query: 'green tea',
      page: 1,
      paid: [ads(1, 'top', '1'), ads(2, 'top', '2'), ads(3, 'bottom', 'Deals')],
      shopping: (parse('se1/search', page1())!.json as { shopping: unknown }).shopping,
    });
  });

  it('says unrecognised for a page it does not know, and partial when a block present on the page fails', () => {
    const captcha = '<html><body><div id="captcha-form">Please confirm you are not a robot.</div></body></html>';
    expect(parse('se1/search', captcha)!.status).toBe('unrecognised');
    expect(parse('se1/ads', captcha)!.status).toBe('unrecognised');
    const broken = page1().replace(/<div data-text-ad="1">.*?<\/div><\/div><\/div>/g, '<div data-text-ad="1"><span>Sponsored</span></div></div>');
    const parsed = parse('se1/search', broken)!;
    expect(parsed.status).toBe('partial');
    expect((parsed.json as { organic: unknown[] }).organic).toHaveLength(4);
  });

  it('se1 by URL picks the parser from the URL', () => {
    const viaUrl = parse('se1', page1());
    expect(viaUrl).toEqual(parse('se1/search', page1()));
  });

  it('outputs match the published JSON Schemas', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const route of ['se1/search', 'se1/ads']) {
      const validate = ajv.compile(OUTPUT_SCHEMAS[route]);
      const ok = validate(parse(route, page1())!.json);
      expect({ route, errors: validate.errors ?? null, ok }).toEqual({ route, errors: null, ok: true });
    }
  });

  it('drops script, style and svg bodies and comments before parsing, keeping the tags', () => {
    expect(stripRawText('<p>a<script>x<y</script>b<style>.a{}</style>c<svg viewBox="0"><path d="M0"/></svg>d<!-- c -->e<svg/>f<SCRIPT>q</SCRIPT>g<scripts>h</scripts></p>')).toBe(
      '<p>a<script></script>b<style></style>c<svg viewBox="0"></svg>de<svg/>f<SCRIPT></SCRIPT>g<scripts>h</scripts></p>',
    );
    expect(stripRawText('<p>unclosed <script>var a')).toBe('<p>unclosed <script>var a');
  });
});

/*
 * Knowledge panels without the entity's `title` slot (2024 result pages): the dictionary box and
 * the "Things to know" side panel, written here after the structure of captured pages.
 */
const hit = `<div class="MjjYud"><div class="g"><a href="https://site-1.example/a"><h3>A result</h3></a><div class="VwiC3b">Text.</div></div></div>`;
const dictionaryPage = `<html><body><div id="search"><div id="rso">
  <div class="MjjYud"><div data-corpus="en-US" data-query-term="movement">
    <div data-attrid="DictionaryHeader"><div role="heading" aria-level="2">Dictionary</div>
      <div>Definitions from <a href="https://dictionary.example/about">Oxford Languages</a> · <a href="https://support.example/learn">Learn more</a></div></div>
    <div data-attrid="EntryHeader" data-psd="headword~:&amp;movement~;&amp;tts_country~:&amp;us~;&amp;homograph_index~:&amp;">
      <div role="button" aria-label="Listen"></div><span>move·ment</span><span>/ˈmo͞ovm(ə)nt/</span></div>
    <div><i><span>noun</span></i><ol><li><div data-attrid="SenseDefinition" data-psd="sense_definition~:&amp;an act of changing physical location or position.">
      <div><span>an act of changing physical location or position.</span></div><div>"a slight movement of the upper body"</div></div></li>
      <li><div data-attrid="SenseDefinition"><div><span>a change or development.</span></div></div></li></ol></div>
  </div></div>
  ${hit}
</div></div></body></html>`;

const aspect = (name: string, query: string) => `
  <div><div role="heading" aria-level="2"><div role="button"><div data-attrid="lab/title/${name}"><span><span>${name}</span></span><span>…</span>
  <span><span>${query}</span></span></div></div></div></div>`;
const topicsPage = `<html><body><div id="search"><div id="rso">${hit}</div></div>
  <div id="rhs" role="complementary"><h2>Complementary Results</h2><div><div><div role="heading" aria-level="3"><span>Things to know</span></div></div>
  ${aspect('Purpose', 'what are gu gels for')}${aspect('When to use', 'when to use gu energy gel')}
  <div><div role="heading" aria-level="1">Choose what you’re giving feedback on</div></div></div></div></body></html>`;

describe('se1/search knowledge panels without an entity title', () => {
  it('reads the dictionary box: headword, first sense, the dictionary credited', () => {
    const json = parse('se1/search', dictionaryPage)!.json as { knowledge_panel: unknown; organic: unknown[] };
    expect(json.knowledge_panel).toEqual({
      title: 'movement',
      subtitle: null,
      description: 'an act of changing physical location or position.',
      source: { title: 'Oxford Languages', url: 'https://dictionary.example/about' },
      facts: [],
    });
    expect(json.organic).toHaveLength(1);
  });

  it('reads the "Things to know" panel: its heading, each aspect with the search it stands for', () => {
    const json = parse('se1/search', topicsPage)!.json as { knowledge_panel: unknown };
    expect(json.knowledge_panel).toEqual({
      title: 'Things to know',
      subtitle: null,
      description: null,
      source: null,
      facts: [
        { label: 'Purpose', value: 'what are gu gels for' },
        { label: 'When to use', value: 'when to use gu energy gel' },
      ],
    });
  });
});
