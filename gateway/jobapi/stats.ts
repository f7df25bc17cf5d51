/**
 * `GET /v2/stats` (spec 2.6, 4.6): the account's usage folded from the ledger rows.
 *
 * `data.products[]` always holds the totals of the filtered range. With `group_by` (day,
 * month, year) the answer also has `data.periods[]`, one `{period, products[]}` per period in
 * order (`2026-11-21`, `2026-11`, `2026`) — the spec names the parameter but not the shape.
 */
import { GleanerError, type FieldError } from '../../core/errors.js';
import { addCounters, emptyCounters, type UsageCounters, type UsageRow } from '../../core/store/usage.js';
import type { UsageLedger } from '../../core/store/usage.js';

const PRODUCTS = ['serp_scraper_api', 'ecommerce_scraper_api', 'web_scraper_api'];
const GROUPS = { day: 10, month: 7, year: 4 } as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface StatsQuery {
  group_by: keyof typeof GROUPS | null;
  date_from: string | null;
  date_to: string | null;
  source: string | null;
  product: string | null;
}

export function parseStatsQuery(raw: string, isSource: (s: string) => boolean): StatsQuery {
  const q = new URLSearchParams(raw);
  const errors: FieldError[] = [];
  for (const name of q.keys()) {
    if (!['group_by', 'date_from', 'date_to', 'source', 'product'].includes(name)) errors.push({ pointer: `#/${name}`, detail: 'unknown parameter' });
  }
  const groupBy = q.get('group_by');
  if (groupBy !== null && !(groupBy in GROUPS)) errors.push({ pointer: '#/group_by', detail: 'group_by must be day, month or year' });
  for (const name of ['date_from', 'date_to']) {
    const v = q.get(name);
    if (v !== null && (!DATE.test(v) || Number.isNaN(Date.parse(v)))) errors.push({ pointer: `#/${name}`, detail: `${name} must be a date YYYY-MM-DD` });
  }
  const source = q.get('source');
  if (source !== null && !isSource(source)) errors.push({ pointer: '#/source', detail: `unknown source ${JSON.stringify(source)}` });
  const product = q.get('product');
  if (product !== null && !PRODUCTS.includes(product)) errors.push({ pointer: '#/product', detail: `product must be one of ${PRODUCTS.join(', ')}` });
  if (errors.length > 0) throw new GleanerError('VALIDATION_ERROR', undefined, { errors });
  return { group_by: groupBy as StatsQuery['group_by'], date_from: q.get('date_from'), date_to: q.get('date_to'), source, product };
}

function entry(title: string, c: UsageCounters): Record<string, unknown> {
  return {
    title,
    all_count: c.all_count,
    mode_callback_count: c.mode_callback_count,
    mode_realtime_count: c.mode_realtime_count,
    mode_superapi_count: c.mode_superapi_count,
    render_count: c.render_count,
    geo_location_count: c.geo_location_count,
    average_response_time: c.all_count > 0 ? Math.round(c.response_time_ms_sum / c.all_count) / 1000 : 0,
    request_traffic: c.request_traffic,
    response_traffic: c.response_traffic,
  };
}

/** Folds rows into `products[]`, each with its `sources[]` (one per source and parsed flag). */
function fold(rows: readonly UsageRow[]): Record<string, unknown>[] {
  const products = new Map<string, { total: UsageCounters; sources: Map<string, { parsed: boolean; c: UsageCounters }> }>();
  for (const row of rows) {
    let p = products.get(row.product);
    if (!p) products.set(row.product, (p = { total: emptyCounters(), sources: new Map() }));
    addCounters(p.total, row.counters);
    const key = `${row.source}\u0000${row.parsed}`;
    let s = p.sources.get(key);
    if (!s) p.sources.set(key, (s = { parsed: row.parsed, c: emptyCounters() }));
    addCounters(s.c, row.counters);
  }
  return [...products.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([title, p]) => ({
      ...entry(title, p.total),
      contenttype_parsed_count: p.total.contenttype_parsed_count,
      contenttype_html_count: p.total.contenttype_html_count,
      sources: [...p.sources.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, s]) => ({ ...entry(key.split('\u0000')[0], s.c), parsed: s.parsed })),
    }));
}

export async function statsDocument(ledger: UsageLedger, clientId: number, query: StatsQuery): Promise<Record<string, unknown>> {
  const rows = (await ledger.rows(clientId, query.date_from ?? undefined, query.date_to ?? undefined)).filter((r) => (query.source === null || r.source === query.source) && (query.product === null || r.product === query.product));
  const data: Record<string, unknown> = { products: fold(rows) };
  if (query.group_by) {
    const width = GROUPS[query.group_by];
    const periods = new Map<string, UsageRow[]>();
    for (const row of rows) {
      const period = row.day.slice(0, width);
      periods.set(period, [...(periods.get(period) ?? []), row]);
    }
    data.periods = [...periods.keys()].sort().map((period) => ({ period, products: fold(periods.get(period)!) }));
  }
  return { meta: { ...query }, data };
}
