/**
 * se1 image search by picture (`se1/lens`). No captured page of this kind is in the fixture set,
 * so the parser reads the shape every visual-match grid has: a link to an external page that
 * wraps a thumbnail and a title, with the source site as a short separate line. The engine's
 * own guess for the picture, when shown, is a heading above the grid (`data-best-guess`).
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import type { Document } from '../../../parsers/dom.js';
import { all, attr, linkTarget, loadHtml, one, text } from '../../../parsers/dom.js';
import { pageMoney, type Price, priceIn } from './price.js';

export interface VisualMatch {
  position: number;
  title: string;
  url: string;
  source: string | null;
  thumbnail: string | null;
  price: Price | null;
}

export function parseVisualMatches(doc: Document, pageUrl: string): VisualMatch[] {
  const out: VisualMatch[] = [];
  const money = pageMoney(doc, pageUrl);
  const seen = new Set<string>();
  for (const a of all('a[href]', doc)) {
    const img = one('img', a);
    if (!img) continue;
    const url = linkTarget(a.attribs.href, pageUrl);
    if (!url || seen.has(url)) continue;
    const heading = one('[role="heading"], [data-title], h3', a);
    const title = (heading ? text(heading) : '') || (attr(a, 'aria-label') ?? '').trim() || (attr(img, 'alt') ?? '').trim();
    if (!title) continue;
    const sourceEl = one('[data-source], cite', a);
    seen.add(url);
    out.push({
      position: out.length + 1,
      title,
      url,
      source: sourceEl ? text(sourceEl) || null : null,
      thumbnail: attr(img, 'src') && !attr(img, 'src')!.startsWith('data:') ? attr(img, 'src')! : null,
      price: priceIn(text(a, (e) => e === heading), money),
    });
  }
  return out;
}

export function parseSe1Lens(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const matches = b.run('visual_matches', () => parseVisualMatches(doc, input.url), []);
  const guess = one('[data-best-guess]', doc);
  const json = {
    image_url: typeof input.params.query === 'string' ? input.params.query : null,
    keywords: typeof input.params.keywords === 'string' ? input.params.keywords : null,
    best_guess: guess ? text(guess) || null : null,
    visual_matches: matches,
  };
  return { json, status: b.status(matches.length > 0 || guess !== null) };
}
