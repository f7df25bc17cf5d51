/**
 * mkt1 seller profile (`/sp?seller=<id>`; output-shapes §2.4). Two layouts: the "At a Glance"
 * page (2012-2020: header `h1` and `.feedbackMeanRating`, `.aagLegalRow` legal rows,
 * `.feedbackRow` recent feedback, `.feedbackTable` with 30/90/365-day and lifetime columns)
 * and the 2021+ seller page (`#seller-name`, `#page-section-detail-seller-info` rows,
 * `#seller-info-feedback-summary`, `#feedback-content` rows). `rating` is the share of
 * positive feedback over the last 12 months (an integer percentage, as the page states it).
 */
import { Blocks } from '../../parsers/blocks.js';
import type { Document, Element } from '../../parsers/dom.js';
import { all, closest, one, text } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import { countOf, isBotWall, pageOf, statusCode, textAt } from './common.js';
import { storefrontProducts, type StorefrontProduct } from './storefront.js';

export interface Feedback {
  feedback: string;
  rated_by: string;
  rating_stars: number;
}

type Periods = Record<string, string>;

/** Column labels of the feedback table → the reference's period keys. */
function periodKey(label: string): string | undefined {
  const l = label.toLowerCase();
  if (/30/.test(l)) return '30_days';
  if (/90/.test(l)) return '90_days';
  if (/365|12/.test(l)) return '12_months';
  if (/lifetime|all|gesamt|total|siempre/.test(l)) return 'all_time';
  return undefined;
}

function legalRow(doc: Document, label: RegExp): Element | null {
  for (const row of all('.aagLegalRow, #page-section-detail-seller-info .a-row', doc)) {
    const head = one('.bold, .a-text-bold', row);
    if (head && label.test(text(head))) return row;
  }
  return null;
}

function legalValue(doc: Document, label: RegExp): string {
  const row = legalRow(doc, label);
  if (!row) return '';
  const head = one('.bold, .a-text-bold', row);
  const lines = all('.displayAddress li, .indent-left span, .indent-left', row).map((e) => text(e)).filter(Boolean);
  if (lines.length > 0) return [...new Set(lines)].join(', ');
  // The 2021+ page puts the address lines in the rows after the label row.
  const t = text(row, (e) => e === head).trim();
  if (t) return t;
  const lines2: string[] = [];
  for (let n = row.next; n; n = n.next) {
    if (n.type !== 'tag') continue;
    if (one('.a-text-bold', n as Element)) break;
    const v = text(n as Element);
    if (v) lines2.push(v);
  }
  return lines2.join(', ');
}

function recentFeedback(doc: Document): Feedback[] {
  const out: Feedback[] = [];
  for (const row of all('.feedbackRow, #feedback-content .feedback-row, [id^=feedback-row]', doc)) {
    const stars = countOf(textAt('.feedback-num b, .feedback-num', row)) ?? countOf(text(one('.a-icon-alt', row))) ?? 0;
    const comment = textAt('.feedback-comment, [id^=-expanderContent], .feedback-text', row).replace(/^"|"$/g, '');
    const rater = textAt('.feedback-rater-date, .feedback-rater', row);
    // "Kim, 19 December 2016" (At a Glance) reads as the 2021+ page writes it.
    const m = /^(.*),\s*(\d{1,2}\s+\S+\s+\d{4}|\S+\s+\d{1,2},\s*\d{4})$/.exec(rater);
    const ratedBy = /^by\s/i.test(rater) ? rater : m ? `By ${m[1]} on ${m[2]}.` : rater;
    if (comment || ratedBy) out.push({ feedback: comment, rated_by: ratedBy, rating_stars: stars });
  }
  return out;
}

function summaryTable(doc: Document): { counts: Record<string, number>; positive: Periods; neutral: Periods; negative: Periods } {
  const table = { counts: {} as Record<string, number>, positive: {} as Periods, neutral: {} as Periods, negative: {} as Periods };
  const root = one('.feedbackTable, #feedback-summary-table', doc);
  if (!root) return table;
  const rows = all('tr', root);
  const header = rows[0] ? all('td, th', rows[0]).map((c) => periodKey(text(c))) : [];
  for (const tr of rows.slice(1)) {
    const cells = all('td, th', tr);
    const name = text(cells[0]).toLowerCase();
    const target = /positi/.test(name) ? table.positive : /neutr/.test(name) ? table.neutral : /negati/.test(name) ? table.negative : null;
    cells.slice(1).forEach((c, i) => {
      const key = header[i + 1];
      if (!key) return;
      const v = text(c).replace(/\s+/g, '');
      if (target) target[key] = /%$/.test(v) ? v : `${v}%`;
      else if (/count|anzahl|recuento|nombre/.test(name)) table.counts[key] = countOf(v) ?? 0;
    });
  }
  return table;
}

export function parseSeller(input: PageInput): Parsed {
  if (isBotWall(input.html)) return { json: null, status: 'blocked' };
  const page = pageOf(input);
  const { doc } = page;
  const b = new Blocks();
  const header = one('#seller-name', doc) ?? one('#aag_header h1, #sellerHeader h1', doc) ?? all('h1', doc).find((h) => closest(h, (e) => /aag|seller/i.test(e.attribs.id ?? '') || /aag/.test(e.attribs.class ?? '')) !== null || one('.feedbackMeanRating', doc) !== null) ?? null;
  const table = b.run('feedback table', () => summaryTable(doc), { counts: {}, positive: {}, neutral: {}, negative: {} });
  const positiveYear = table.positive['12_months'];
  const about = all('h3', doc).find((h) => /about seller|über den verkäufer|acerca del vendedor|à propos du vendeur/i.test(text(h)));
  const aboutText = textAt('#spp-expander-about-seller .a-row, #about-seller-text', doc) || (about ? textAfter(about) : '');
  const json = {
    url: input.url,
    // A storefront's product list (`/s?me=<id>&i=merchant-items`, 2020) names the seller with `me=`.
    query: typeof input.params.query === 'string' ? input.params.query : (/[?&](?:seller|me)=([A-Z0-9]+)/i.exec(input.url)?.[1] ?? ''),
    page_type: 'Seller',
    seller_name: text(header),
    business_name: b.run('business name', () => legalValue(doc, /business name|name des unternehmens|nombre de la empresa|nom de l'entreprise/i), ''),
    business_address: b.run('business address', () => legalValue(doc, /business address|geschäftsadresse|dirección comercial|adresse de l'entreprise/i), ''),
    description: aboutText,
    rating: positiveYear ? (countOf(positiveYear) ?? 0) : (countOf(/(\d{1,3})\s*%/.exec(textAt('#seller-info-feedback-summary, #effective-timeperiod-rating-year-description', doc))?.[1]) ?? 0),
    recent_feedback: b.run('recent feedback', () => recentFeedback(doc), []),
    feedback_summary_data: {} as Record<string, unknown>,
    feedback_summary_table: table,
    // A seller's or storefront's page (by its address or its header): a product page's carousels are not a storefront.
    products: /[?&](?:seller|me|merchant)=/.test(input.url) || header !== null ? b.run('products', () => storefrontProducts(doc, page), [] as StorefrontProduct[]) : [],
    parse_status_code: 0,
  };
  const feedback = json.rating > 0 || json.recent_feedback.length > 0 || Object.keys(table.counts).length > 0;
  // A profile names the seller and shows feedback; a storefront's product grid stands on its own.
  if (json.products.length === 0) {
    b.expect('seller name', json.seller_name !== '');
    b.expect('feedback', feedback);
  }
  const parsed = b.result(json, json.seller_name !== '' || feedback || json.products.length > 0);
  json.parse_status_code = statusCode(parsed.status);
  return parsed;
}

/**
 * The text after a heading up to the next heading or feedback block: the At a Glance page
 * opens a `<p>` before the seller's `<div>`s, which closes the paragraph at once.
 */
function textAfter(heading: Element): string {
  const parts: string[] = [];
  for (let n = heading.next; n; n = n.next) {
    if (n.type === 'text') {
      parts.push(n.data);
      continue;
    }
    if (n.type !== 'tag') continue;
    const el = n as Element;
    if (/^h[1-6]$/.test(el.name) || /feedback/i.test(el.attribs.class ?? '')) break;
    parts.push(text(el));
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
