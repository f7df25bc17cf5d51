/**
 * The se1 Images tab (`tbm=isch`, `udm=2`). An image result is a thumbnail linked to the page it
 * was found on, in each generation:
 *
 * - basic HTML (2013-2025): a cell per image — thumbnail link to `/url?q=<page>`, then the
 *   domain (`cite`), the title and a "1024 × 768 - 45k - jpg" line (2013-2018), or a second link
 *   to the same page holding the title and the domain (2019-2025);
 * - full pages (2014-2019): the thumbnail's box carries a `rg_meta` JSON block (`pt` title, `ru`
 *   page, `ou` image, `ow`×`oh`, `st`/`isu` source);
 * - full pages (2019-2025): image boxes with `data-id` (or `data-docid`, with `data-lpage` for
 *   the page) whose full-size address and size sit in the inline script data as
 *   `["<thumbnail>",h,w],["<image>",h,w]` next to the id.
 *
 * The full-size address is only known where the page carries it (not in basic HTML).
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, hostOf, linkTarget, one, text } from '../../../parsers/dom.js';
import { parseJson } from '../../../parsers/embedded.js';
import { linesOf } from './lines.js';
import { isEngineHost, resultsRoot } from './news-tab.js';

export interface ImageResult {
  position: number;
  title: string;
  /** The page the image was found on. */
  url: string;
  /** The full-size image, when the page carries it. */
  image_url: string | null;
  thumbnail: string | null;
  source: string | null;
  width: number | null;
  height: number | null;
}

const DIMENSIONS = /(\d{2,5})\s*[×x✕]\s*(\d{2,5})/;

function httpSrc(img: Element): string | null {
  const s = [attr(img, 'data-src'), attr(img, 'src'), attr(img, 'data-iurl')].find((v) => v && /^(?:https?:)?\/\//.test(v));
  return s ? (s.startsWith('//') ? `https:${s}` : s) : null;
}

/** `["<thumb>",h,w],["<image>",h,w]` pairs of the inline data, by thumbnail and by id. */
function inlineImages(html: string): { byThumb: Map<string, Full>; byId: Map<string, Full> } {
  const byThumb = new Map<string, Full>();
  const byId = new Map<string, Full>();
  const re = /(?:"([\w-]{6,})",)?\["(https?:\/\/[^"]+?)",(\d+),(\d+)\],\["(https?:\/\/[^"]+?)",(\d+),(\d+)\]/g;
  for (const m of html.matchAll(re)) {
    const full: Full = { url: unescapeJs(m[5] as string), height: Number(m[6]), width: Number(m[7]) };
    byThumb.set(unescapeJs(m[2] as string), full);
    if (m[1]) byId.set(m[1], full);
  }
  return { byThumb, byId };
}

interface Full {
  url: string;
  width: number;
  height: number;
}

function unescapeJs(s: string): string {
  return s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\\//g, '/');
}

/** 2014-2019: the `rg_meta` JSON of each thumbnail box. */
function fromRgMeta(doc: Document): ImageResult[] {
  const out: ImageResult[] = [];
  for (const meta of all('.rg_meta', doc)) {
    const j = parseJson(text(meta)) as Record<string, unknown> | undefined;
    const page = typeof j?.ru === 'string' ? j.ru : null;
    if (!j || !page) continue;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    out.push({
      position: out.length + 1,
      title: str(j.pt) ?? '',
      url: page,
      image_url: str(j.ou),
      thumbnail: str(j.tu),
      source: str(j.st) ?? str(j.isu) ?? (hostOf(page) || null),
      width: typeof j.ow === 'number' ? j.ow : null,
      height: typeof j.oh === 'number' ? j.oh : null,
    });
  }
  return out;
}

/** The cell of one thumbnail: its largest ancestor holding no other thumbnail. */
function cellOf(link: Element, thumbs: Element[]): Element {
  let box = link;
  for (let i = 0; i < 10; i++) {
    const p = box.parent;
    if (!p || p.type !== 'tag' || p.name === 'body' || p.attribs.id === 'ires' || p.attribs.id === 'islmp') break;
    if (thumbs.some((t) => t !== link && contains(p, t))) break;
    box = p;
  }
  return box;
}

/** Title and source from the cell's lines: the domain line is the source, the longest other line the title. */
function captionOf(cell: Element, thumb: Element, url: string, alt: string): { title: string; source: string | null; width: number | null; height: number | null } {
  const lines = linesOf(cell, (e) => e === thumb || e.name === 'script');
  // Title and domain may be two inline spans of one link (2019-2025 basic page).
  const parts = lines.flatMap((l) => {
    const spans = l.el.name === 'a' || one('a', l.el) === null ? all('span', l.el).filter((s) => !one('span', s) && text(s)) : [];
    return spans.length >= 2 ? spans.map((s) => text(s)) : [l.text];
  });
  let width: number | null = null;
  let height: number | null = null;
  const host = hostOf(url).replace(/^www\./, '');
  const cite = one('cite', cell);
  let source: string | null = cite ? text(cite) || null : null;
  const rest: string[] = [];
  for (const p of parts) {
    const d = DIMENSIONS.exec(p);
    if (d && p.length < 40) {
      width = Number(d[1]);
      height = Number(d[2]);
    } else if (p === source) {
      continue;
    } else if (source === null && /^[\w.-]+\.[a-z]{2,}$/i.test(p) && host.endsWith(p.replace(/^www\./, ''))) {
      source = p;
    } else {
      rest.push(p);
    }
  }
  return { title: rest[0] ?? alt, source: source ?? (host || null), width, height };
}

function fromCells(doc: Document, html: string, pageUrl: string): ImageResult[] {
  const inline = inlineImages(html);
  const root = resultsRoot(doc);
  const thumbs: Element[] = [];
  const targets = new Map<Element, string>();
  for (const img of all('img', root)) {
    const box = closest(img, (e) => e.name === 'a' || e.attribs['data-lpage'] !== undefined || e.attribs['data-id'] !== undefined, 6);
    if (!box) continue;
    const page = linkTarget(box.attribs['data-lpage'] ?? box.attribs.href, pageUrl) ?? secondLink(box, pageUrl);
    if (!page || isEngineHost(page) || thumbs.includes(box)) continue;
    const w = Number(attr(img, 'width') ?? '0');
    if (w > 0 && w <= 32) continue;
    thumbs.push(box);
    targets.set(box, page);
  }
  const out: ImageResult[] = [];
  for (const box of thumbs) {
    const img = one('img', box) as Element;
    const url = targets.get(box) as string;
    const cell = cellOf(box, thumbs);
    const thumbnail = httpSrc(img);
    const id = attr(closest(img, (e) => e.attribs['data-id'] !== undefined || e.attribs['data-docid'] !== undefined, 8) ?? box, 'data-id');
    const full = (id ? inline.byId.get(id) : undefined) ?? (thumbnail ? inline.byThumb.get(thumbnail) : undefined);
    const cap = captionOf(cell, box, url, attr(img, 'alt') ?? '');
    out.push({
      position: out.length + 1,
      title: cap.title,
      url,
      image_url: full?.url ?? null,
      thumbnail,
      source: cap.source,
      width: full?.width ?? cap.width,
      height: full?.height ?? cap.height,
    });
  }
  return out;
}

/** Full pages link the thumbnail to the viewer and the page from a second link in the box. */
function secondLink(box: Element, pageUrl: string): string | null {
  const parent = box.parent;
  if (!parent || parent.type !== 'tag') return null;
  for (const a of all('a[href]', parent)) {
    if (a === box) continue;
    const u = linkTarget(a.attribs.href, pageUrl);
    if (u) return u;
  }
  return null;
}

export function parseImagesTab(doc: Document, html: string, pageUrl: string): ImageResult[] {
  const meta = fromRgMeta(doc);
  return meta.length > 0 ? meta : fromCells(doc, html, pageUrl);
}
