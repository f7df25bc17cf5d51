/**
 * se2 image results (`/images/search`), in the two page kinds seen 2016-2025:
 *
 * - the full page: each thumbnail link (`a.iusc`) carries its facts as JSON in `m` (`purl`
 *   the page, `murl` the image, `turl` the thumbnail, `t` the title), the size and source in
 *   the caption under it ("600 x 600 · jpeg", the domain link);
 * - the page without scripts: `.item` cells — a thumbnail link to the image itself, then the
 *   page link (its text the domain), the title and a "480 x 360 jpeg 12kB" line.
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, hostOf, linkTarget, one, text } from '../../parsers/dom.js';
import { parseJson } from '../../parsers/embedded.js';
import type { ImageResult } from '../se1/parse/images-tab.js';

const SIZE = /(\d{2,5})\s*[x×]\s*(\d{2,5})/;

function sizeIn(s: string): { width: number | null; height: number | null } {
  const m = SIZE.exec(s);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : { width: null, height: null };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function fromJsonLinks(doc: Document): ImageResult[] {
  const out: ImageResult[] = [];
  for (const a of all('a.iusc[m], a[m][class*="iusc"]', doc)) {
    const m = parseJson(attr(a, 'm') ?? '') as Record<string, unknown> | undefined;
    const page = str(m?.purl);
    if (!m || !page) continue;
    const cell = closest(a, (e) => e.name === 'li' || (e.attribs.class ?? '').includes('iuscp'), 4) ?? a;
    const info = one('.img_info, .infopt', cell);
    const source = one('.lnkw a, .img_info a', cell);
    out.push({
      position: out.length + 1,
      title: str(m.t) ?? (attr(one('[aria-label]', cell), 'aria-label') ?? '').trim(),
      url: page,
      image_url: str(m.murl),
      thumbnail: str(m.turl),
      source: source ? text(source) || null : hostOf(page) || null,
      ...sizeIn(info ? text(info) : ''),
    });
  }
  return out;
}

function fromCells(doc: Document, pageUrl: string): ImageResult[] {
  const out: ImageResult[] = [];
  for (const cell of all('.item', doc)) {
    const thumbLink = one('a.thumb', cell);
    const pageLink = one('a.tit', cell) ?? all('a[href]', cell).find((a) => a !== thumbLink);
    const page = pageLink ? linkTarget(pageLink.attribs.href, pageUrl) : null;
    if (!thumbLink || !page) continue;
    const img = one('img', thumbLink);
    const des = one('.des', cell);
    const info = one('.fileInfo', cell);
    out.push({
      position: out.length + 1,
      title: des ? text(des) : text(pageLink as Element),
      url: page,
      image_url: linkTarget(thumbLink.attribs.href, pageUrl),
      thumbnail: img ? (linkTarget(attr(img, 'src'), pageUrl) ?? null) : null,
      source: text(pageLink as Element) || hostOf(page) || null,
      ...sizeIn(info ? text(info) : ''),
    });
  }
  return out;
}

/** Whether the page is an image results page (by its own markup, else by its address). */
export function isImagesPage(doc: Document, pageUrl: string): boolean {
  if (one('a.iusc[m], .item > a.thumb', doc)) return true;
  try {
    return new URL(pageUrl).pathname.startsWith('/images/');
  } catch {
    return false;
  }
}

export function parseSe2Images(doc: Document, pageUrl: string): ImageResult[] {
  const json = fromJsonLinks(doc);
  return json.length > 0 ? json : fromCells(doc, pageUrl);
}
