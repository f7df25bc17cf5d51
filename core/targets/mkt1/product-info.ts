/**
 * The descriptive blocks of an mkt1 product page: detail tables (the 2020+ `prodDetTable`
 * rows, the `#detailBullets_feature_div` list of books and media, the 2016 `#prodDetails`
 * label/value rows), the product overview, the category breadcrumb, the sales-rank ladder,
 * bullet points, description and important information.
 */
import type { AnyNode, Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, hasClass, one, text } from '../../parsers/dom.js';
import { countOf, hrefOf, inside } from './common.js';

export interface Link {
  url: string;
  name: string;
}
export interface Row {
  name: string;
  value: string;
}

/** `Item model number` → `item_model_number`; `Fabricante ‏ : ‎` → `fabricante`. */
export function snake(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

const RANK_LABEL = /best ?sellers? ?rank|bestseller-rang|clasificaci[oó]n en los m[aá]s vendidos|classement des meilleures ventes|posizione nella classifica|ranking dos mais vendidos|売れ筋ランキング/i;
const REVIEWS_LABEL = /^(customer reviews|average customer review|durchschnittliche kundenbewertung|moyenne des commentaires client|valoraci[oó]n media de los clientes|media recensioni|opiniones de los clientes|kundenrezensionen|commentaires client|recensioni dei clienti|avaliações de clientes|カスタマーレビュー)/i;

const cleanLabel = (s: string): string => s.replace(/[\u200e\u200f:：]+/g, ' ').replace(/\s+/g, ' ').trim();

/** Label/value rows of every detail table and list, in page order; the rank row is kept for `salesRanks`. */
export function detailRows(doc: Document): { rows: Row[]; rank: Element | null } {
  const rows: Row[] = [];
  let rank: Element | null = null;
  const add = (label: string, valueEl: Element) => {
    const name = cleanLabel(label);
    if (!name) return;
    if (RANK_LABEL.test(name)) {
      rank ??= valueEl;
      return;
    }
    if (REVIEWS_LABEL.test(name)) return;
    const value = text(valueEl).replace(/^[\s:‎‏]+/, '');
    if (!rows.some((r) => r.name === name)) rows.push({ name, value });
  };
  for (const tr of inside('table.prodDetTable, #prodDetails, #productDetailsTable', 'tr', doc)) {
    const th = one('th, td.label', tr);
    const td = th ? one('td:not(.label)', tr) ?? one('td.value', tr) : null;
    if (th && td && th !== td) add(text(th), td);
  }
  // `#detail_bullets_id` is the 2018-2020 "Product details" bucket (`<li><b>Publisher:</b> ...`);
  // `#detail-bullets` the same list on the 2018 US pages, in a `td.bucket` of `#productDetailsTable`.
  for (const li of inside('#detailBullets_feature_div, #detailBulletsWrapper_feature_div, #detail_bullets_id, #detail-bullets', 'li', doc)) {
    // Sub-rank lines nested in the rank item are read with it.
    if (closest(li, (e) => hasClass(e, 'zg_hrsr'))) continue;
    const bold = one('.a-text-bold', li) ?? one('b', li);
    if (!bold) continue;
    const label = text(bold);
    if (RANK_LABEL.test(cleanLabel(label))) {
      rank ??= li;
      continue;
    }
    const full = text(li);
    const value = full.slice(full.indexOf(label) + label.length).replace(/^[\s:‎‏]+/, '').trim();
    const name = cleanLabel(label);
    if (name && value && !REVIEWS_LABEL.test(name) && !rows.some((r) => r.name === name)) rows.push({ name, value });
  }
  // 2016 pages: `#SalesRank` is its own row; its label cell was skipped above.
  rank ??= one('#SalesRank td.value, #SalesRank', doc);
  return { rows, rank };
}

/** Technical-details rows only (the spec table), as `{name, value}`. */
export function technicalRows(doc: Document): Row[] {
  const out: Row[] = [];
  for (const tr of inside('#productDetails_techSpec_section_1, #productDetails_techSpec_section_2, #technicalSpecifications_section_1', 'tr', doc)) {
    const th = one('th', tr);
    const td = one('td', tr);
    if (th && td) out.push({ name: cleanLabel(text(th)), value: text(td) });
  }
  return out;
}

export function overviewRows(doc: Document): { title: string; description: string }[] {
  const out: { title: string; description: string }[] = [];
  const seen = new Set<string>();
  for (const tr of inside('#productOverview_feature_div', 'tr', doc)) {
    const cells = all('td', tr);
    if (cells.length < 2) continue;
    const title = text(cells[0]);
    if (!title || seen.has(title)) continue;
    seen.add(title);
    out.push({ title, description: text(cells[1]) });
  }
  return out;
}

/** The category breadcrumb as one ladder (the "Back to results" link of search visits is not a category). */
export function categoryLadder(doc: Document): { ladder: Link[] }[] {
  const ladder: Link[] = [];
  for (const a of inside('#wayfinding-breadcrumbs_feature_div, #wayfinding-breadcrumbs_container', 'a', doc)) {
    const name = text(a);
    const url = hrefOf(a);
    if (!name || /back to results|volver a los resultados|zurück zu den ergebnissen/i.test(name) || attr(a, 'id') === 'breadcrumb-back-link') continue;
    if (!ladder.some((l) => l.url === url && l.name === name)) ladder.push({ url, name });
  }
  return ladder.length > 0 ? [{ ladder }] : [];
}

const MARK = '\u0001';
const LINK_AT = new RegExp(`${MARK}(\\d+)${MARK}`, 'g');
const LADDER = new RegExp(`^\\s*${MARK}\\d+${MARK}(?:\\s*(?:>|&gt;|›)\\s*${MARK}\\d+${MARK})*`);
const RANK_START = /(?:^|[\s(])(?:#|n[º°o]\.?\s*|Nr\.\s*)?(\d[\d.,\u00a0 ]*\d|\d)\s+(?:in|en|dans|su|em|in der|位)\s+/gi;

/**
 * The sales-rank ladder (`#16,222 in Kitchen (See Top 100 in Kitchen) #24 in Centrifugal
 * Juicers`): one entry per rank, with the category link that follows it (a main rank's only
 * link is its "See Top 100" link).
 */
export function salesRanks(rankEl: Element | null): { rank: number; ladder: Link[] }[] {
  if (!rankEl) return [];
  const links: Link[] = [];
  const parts: string[] = [];
  const walk = (n: AnyNode): void => {
    if (n.type === 'text') parts.push(n.data);
    else if (n.type === 'tag') {
      if (n.name === 'a' && /bestsellers|zgbs/.test(n.attribs.href ?? '')) {
        parts.push(` ${MARK}${links.length}${MARK} `);
        links.push({ url: hrefOf(n), name: text(n) });
        return;
      }
      if (n.name === 'style' || n.name === 'script') return;
      for (const c of n.children) walk(c);
    }
  };
  walk(rankEl);
  const line = parts.join(' ').replace(/&amp;/g, '&').replace(/[\s\u00a0]+/g, ' ');
  const starts = [...line.matchAll(RANK_START)];
  const out: { rank: number; ladder: Link[] }[] = [];
  for (const [i, m] of starts.entries()) {
    const end = i + 1 < starts.length ? (starts[i + 1] as RegExpMatchArray).index! : line.length;
    const seg = line.slice(m.index! + m[0].length, end);
    const rank = countOf(m[1]);
    if (rank === null) continue;
    // The 2018-2020 `zg_hrsr_ladder` names the whole path (`in Books > Children's Books >
    // <b>Girls & Women</b>`): every link chained by `>` belongs to the rank, not just the first.
    const chain = LADDER.exec(seg);
    const anyLink = new RegExp(`${MARK}(\\d+)${MARK}`).exec(seg);
    if (chain) {
      const ladder = [...chain[0].matchAll(LINK_AT)].map((l) => links[Number(l[1])] as Link);
      out.push({ rank, ladder: ladder.map((l) => ({ url: l.url, name: l.name })) });
    } else {
      const name = seg.split(/\(|\u0001/)[0]!.trim();
      out.push({ rank, ladder: [{ url: anyLink ? (links[Number(anyLink[1])] as Link).url : '', name }] });
    }
  }
  return out;
}

/** Feature bullets as ONE newline-joined string (the reference's shape), without the fitment prompt. */
export function bulletPoints(doc: Document): string {
  const items = inside('#feature-bullets, #featurebullets_feature_div', 'li', doc).filter(
    (li) => attr(li, 'id') !== 'replacementPartsFitmentBullet' && !hasClass(li, 'aok-hidden'),
  );
  const seen = new Set<string>();
  const out: string[] = [];
  for (const li of items) {
    const t = text(li);
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  return out.join('\n');
}

export function description(doc: Document): string {
  // 2023+ books and Kindle editions put the blurb in a tabbed "Product description" panel
  // (`#drengr_DesktopTabbedDescriptionOverviewContent_feature_div`), with no `#productDescription`.
  const el =
    one('#productDescription', doc) ??
    one('#bookDescription_feature_div .a-expander-content, #bookDescription_feature_div', doc) ??
    one('#drengr_DesktopTabbedDescriptionOverviewContent_feature_div', doc);
  if (!el) return '';
  return text(el, (e) => /^h[1-6]$/.test(e.name) && /product description|descripción del producto|produktbeschreibung|description du produit/i.test(text(e)));
}

export function importantInformation(doc: Document): { title: string; description: string }[] {
  const out: { title: string; description: string }[] = [];
  for (const sec of inside('#important-information, #importantInformation_feature_div', '.a-section.content', doc)) {
    const h = one('h4, h5, .a-text-bold', sec);
    const title = text(h);
    const body = text(sec, (e) => e === h);
    if (title || body) out.push({ title, description: body });
  }
  return out;
}
