/**
 * What an mkt1 product page keeps in scripts and review widgets: the image gallery (the
 * inline `'colorImages': { 'initial': [...] }` data, hi-res first), the variation matrix of
 * the twister script (`dimensionValuesDisplayData`, `variationDisplayLabels`), the rating
 * histogram and the top reviews (the classic `review-title`/`review-body` hooks and the 2026
 * `reviewTitle`/`reviewRichContentContainer` ones).
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, one, text } from '../../parsers/dom.js';
import { jsonAfter, parseJson, rawJsonAfter } from '../../parsers/embedded.js';
import { countOf, inside, starsOf, textAt } from './common.js';

type J = Record<string, unknown>;

/** Gallery images, hi-res where the page has them (`..._AC_SL1500_.jpg`). */
export function images(doc: Document, html: string): string[] {
  const at = html.indexOf("'colorImages'");
  const initial = at >= 0 ? rawJsonAfter(html, "'initial'", at) : undefined;
  const list = initial ? parseJson(initial.raw) : undefined;
  const out: string[] = [];
  if (Array.isArray(list)) {
    for (const img of list as J[]) {
      const url = typeof img?.hiRes === 'string' ? img.hiRes : typeof img?.large === 'string' ? img.large : undefined;
      if (url && !out.includes(url)) out.push(url);
    }
  }
  if (out.length > 0) return out;
  const landing = one('#landingImage, #imgBlkFront, #ebooksImgBlkFront, #main-image', doc);
  const hires = attr(landing, 'data-old-hires');
  if (hires) return [hires];
  const dynamic = parseJson(attr(landing, 'data-a-dynamic-image') ?? '');
  if (dynamic && typeof dynamic === 'object') {
    const best = Object.entries(dynamic as Record<string, number[]>).sort((a, b) => (b[1]?.[0] ?? 0) - (a[1]?.[0] ?? 0))[0];
    if (best) return [best[0]];
  }
  const src = attr(landing, 'src');
  return src && /^https?:/.test(src) ? [src] : [];
}

export interface Variation {
  product_id: string;
  selected: boolean;
  dimensions: Record<string, string>;
}

/** The twister's variations: one per product id, with its value per dimension label. */
export function variations(html: string, productId: string): Variation[] {
  const at = html.indexOf('dimensionValuesDisplayData');
  if (at < 0) return [];
  const values = jsonAfter(html.slice(at - 1, at + 400_000), '"dimensionValuesDisplayData"');
  if (!values || typeof values !== 'object') return [];
  const window = html.slice(Math.max(0, at - 60_000), at + 60_000);
  const labels = (jsonAfter(window, '"variationDisplayLabels"') ?? {}) as Record<string, string>;
  const dims = jsonAfter(window, ['"dimensions" :', '"dimensions":']);
  const keys = Array.isArray(dims) ? (dims as string[]) : Object.keys(labels);
  const out: Variation[] = [];
  for (const [id, vals] of Object.entries(values as Record<string, unknown>)) {
    if (!Array.isArray(vals)) continue;
    const dimensions: Record<string, string> = {};
    vals.forEach((v, i) => {
      const key = keys[i];
      // Labels are the seller's text: the 2018-2020 CA pages pad "Size" with CR/LF runs.
      const label = ((key && labels[key]) || key || '').replace(/\s+/g, ' ').trim() || `dimension_${i + 1}`;
      dimensions[label] = String(v);
    });
    out.push({ product_id: id, selected: id === productId, dimensions });
  }
  return out;
}

/** Direct text of an element (the 2024+ histogram pads each cell with every row's label). */
function ownText(el: Element | null): string {
  if (!el) return '';
  return el.children.map((c) => (c.type === 'text' ? c.data : '')).join(' ').replace(/\s+/g, ' ').trim();
}

/** The star histogram: `{rating, percentage}` from 5 down to 1. */
export function starDistribution(doc: Document): { rating: number; percentage: number }[] {
  const out = new Map<number, number>();
  for (const row of inside('#histogramTable', 'tr, li', doc)) {
    const left = one('.a-text-left', row);
    const t = left ? `${ownText(left)} ${ownText(one('.a-text-right', row))}` : text(row);
    const star = /^\s*(\d)/.exec(t);
    const pct = /(\d{1,3})\s*%\s*$/.exec(t) ?? /(\d{1,3})\s*$/.exec(t);
    if (star && pct && !out.has(Number(star[1]))) out.set(Number(star[1]), Number(pct[1]));
  }
  if (out.size === 0) {
    for (const el of all('[aria-label*="percent of reviews have"]', doc)) {
      const m = /(\d{1,3}) percent of reviews have (\d) star/.exec(attr(el, 'aria-label') ?? '');
      if (m && !out.has(Number(m[2]))) out.set(Number(m[2]), Number(m[1]));
    }
  }
  return [...out.entries()].sort((a, b) => b[0] - a[0]).map(([rating, percentage]) => ({ rating, percentage }));
}

export interface Review {
  id: string;
  title: string;
  author: string;
  rating: number;
  content: string;
  timestamp: string;
  profile_id: string;
  is_verified: boolean;
  review_from: string;
  helpful_count?: number;
  product_attributes?: string;
}

/** "Read more" links and collapsed-text prompts inside a review body. */
const SEE_MORE = (e: Element): boolean => /a-expander-header|a-expander-prompt|a-see-more|cr-translate/.test(e.attribs.class ?? '');

function reviewOf(el: Element): Review | null {
  const id = attr(el, 'id')?.replace(/^customer_review(?:_foreign)?-/, '') ?? '';
  const starEl = one('[data-hook=review-star-rating], [data-hook=cmps-review-star-rating], i.a-icon-star', el);
  const starText = text(one('.a-icon-alt', starEl ?? el));
  const rating = Math.round(starsOf(starText) ?? 0);
  const titleEl = one('[data-hook=review-title], [data-hook=reviewTitle]', el);
  // The classic title carries the star text ("5.0 out of 5 stars Great"); the 2026 one does not.
  let title = text(titleEl, (e) => e.name === 'i');
  if (starText && title && !title.startsWith(starText)) title = `${starText} ${title}`;
  const content = text(one('[data-hook=review-body], [data-hook=reviewRichContentContainer], .review-text-content', el), SEE_MORE);
  const timestamp = textAt('[data-hook=review-date]', el);
  if (!id && !content) return null;
  const profile = attr(one('a.a-profile, [data-hook=genome-widget] a', el), 'href') ?? '';
  const helpful = textAt('[data-hook=helpful-vote-statement]', el);
  const attributes = textAt('[data-hook=format-strip]', el);
  const review: Review = {
    id,
    title,
    author: textAt('.a-profile-name', el),
    rating,
    content,
    timestamp,
    profile_id: /amzn1\.account\.([A-Z0-9]+)/.exec(profile)?.[1] ?? '',
    is_verified: one('[data-hook=avp-badge], [data-hook=avp-badge-linkless]', el) !== null,
    // Reviews from other marketplaces carry a `customer_review_foreign-` id.
    review_from: /foreign/.test(attr(el, 'id') ?? '') ? 'international' : 'local',
  };
  if (helpful) review.helpful_count = /^one\b|^una\b|^eine\b/i.test(helpful) ? 1 : (countOf(helpful) ?? 0);
  if (attributes) review.product_attributes = attributes;
  return review;
}

export function reviews(doc: Document): Review[] {
  const out: Review[] = [];
  const seen = new Set<string>();
  for (const el of all('[data-hook=review]', doc)) {
    const r = reviewOf(el);
    if (!r || (r.id && seen.has(r.id))) continue;
    if (r.id) seen.add(r.id);
    out.push(r);
  }
  return out;
}

/** Whether the gallery has videos (`#videoCount`, or a video block in the image data). */
export function hasVideos(doc: Document, html: string): boolean {
  const count = textAt('#videoCount', doc);
  if (count) return (countOf(count) ?? 1) > 0;
  return videosBlock(html);
}

const VIDEOS = /"videos"\s*:\s*\[\s*\{/y;

/**
 * `/"videos"\s*:\s*\[\s*\{/.test(html.slice(0, 2_000_000))`, tried only where `"videos"` occurs:
 * the regular expression alone walks the whole 2 MB page.
 */
function videosBlock(html: string): boolean {
  const limit = Math.min(html.length, 2_000_000);
  for (let at = html.indexOf('"videos"'); at >= 0 && at < limit; at = html.indexOf('"videos"', at + 8)) {
    VIDEOS.lastIndex = at;
    const m = VIDEOS.exec(html);
    if (m && at + m[0].length <= limit) return true;
  }
  return false;
}
