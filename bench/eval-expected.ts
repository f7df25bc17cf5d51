/**
 * Reading the expected outputs that sit beside the captured search pages, in their three
 * shapes, as checks against our parser output:
 *
 * - `*.expected.json` (WebSearcher snapshots): a component list; `general` components are the
 *   organic results (title, url), other component types name the blocks present;
 * - `*.expected.assertions.json` (serp-parser jest assertions as data): subject paths into the
 *   serp-parser model with matchers;
 * - `*.expected.partial.json` (se-scraper, serp-parser, parsy): partial objects with keys such as
 *   `organic[1]`, `organic_count`, `top_products`.
 *
 * Assertions and partial objects are flattened into `Check`s over a serp-parser-shaped view of
 * our output (see `viewOf`). A check whose expected text does not occur in the page at all is
 * `stale` (the assertion was written for another capture) and is not counted.
 */

export type Path = (string | number)[];
export interface Check {
  path: Path;
  kind: 'equals' | 'length' | 'defined' | 'undefined' | 'truthy' | 'contains';
  value?: unknown;
}

export interface ExpectedOrganic {
  title: string;
  url: string;
}

export interface Expected {
  /** Expected organic results, in order, when the file lists them. */
  organic: ExpectedOrganic[] | null;
  /** Expected organic count, when the file states one. */
  organicCount: number | null;
  checks: Check[];
  /** Block names (our field names) the expected output says are on the page. */
  blocks: string[];
  notes: string[];
}

const WS_BLOCKS: Record<string, string> = {
  ad: 'paid',
  shopping_ads: 'shopping',
  people_also_ask: 'people_also_ask',
  searches_related: 'related_searches',
  ai_overview: 'ai_overview',
  top_stories: 'top_stories',
  videos: 'videos',
  knowledge: 'knowledge_panel',
  side_bar: 'knowledge_panel',
  local_results: 'local_pack',
};

export function fromWebSearcher(data: { results: { type: string; title?: string | null; url?: string | null }[] }): Expected {
  const organic = data.results.filter((r) => r.type === 'general' && r.url).map((r) => ({ title: r.title ?? '', url: r.url ?? '' }));
  const blocks = [...new Set(data.results.map((r) => WS_BLOCKS[r.type]).filter((b): b is string => !!b))];
  return { organic, organicCount: organic.length, checks: [], blocks, notes: [] };
}

/** `serp.organic[2].url` → ['organic', 2, 'url']; `serp.hotels?.hotels` → ['hotels', 'hotels']. */
export function subjectPath(subject: string): Path {
  return subject
    .replace(/^serp\.?/, '')
    .replace(/\?\./g, '.')
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== '')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

interface Assertion {
  subject: string;
  matcher: string;
  args: unknown[];
}

export function fromAssertions(data: { blocks: { describe: string; assertions: Assertion[] }[] }): Expected {
  const checks: Check[] = [];
  let organicCount: number | null = null;
  const notes: string[] = [];
  for (const block of data.blocks) {
    // The "optional module" blocks of those suites run against a different, empty page.
    if (/optional/i.test(block.describe)) {
      notes.push(`skipped block "${block.describe}" (asserts on another page)`);
      continue;
    }
    for (const a of block.assertions) {
      let path = subjectPath(a.subject);
      let value: unknown = a.args[0];
      if (a.matcher.endsWith('toHaveProperty')) {
        path = [...path, ...(a.args[0] as Path).map((p) => (typeof p === 'string' && /^\d+$/.test(p) ? Number(p) : p))];
        value = a.args[1];
      }
      const negated = a.matcher.startsWith('not.');
      const m = a.matcher.replace(/^not\./, '');
      if (m === 'toHaveLength') {
        checks.push({ path, kind: 'length', value });
        if (path.length === 1 && path[0] === 'organic' && organicCount === null) organicCount = value as number;
      } else if (m === 'toBe' || m === 'toEqual') checks.push({ path, kind: 'equals', value });
      else if (m === 'toContain') checks.push({ path, kind: 'contains', value });
      else if (m === 'toBeTruthy') checks.push({ path, kind: 'truthy' });
      else if (m === 'toBeDefined') checks.push({ path, kind: negated ? 'undefined' : 'defined' });
      else if (m === 'toBeUndefined') checks.push({ path, kind: 'undefined' });
      else if (m === 'toHaveProperty') checks.push(negated ? { path, kind: 'undefined' } : a.args.length > 1 ? { path, kind: 'equals', value } : { path, kind: 'defined' });
    }
  }
  return { organic: null, organicCount, checks, blocks: [], notes };
}

const COUNT_KEYS: Record<string, Path> = {
  organic_count: ['organic'],
  organic_results_count: ['organic'],
  relatedKeywords_count: ['relatedKeywords'],
};

/** Flattens `{ "organic[0]": { "sitelinks[0]": { title } } }` into checks. */
export function fromPartial(data: Record<string, unknown>): Expected {
  const checks: Check[] = [];
  const notes: string[] = [];
  let organicCount: number | null = null;
  const walk = (prefix: Path, obj: Record<string, unknown>) => {
    for (const [key, v] of Object.entries(obj)) {
      if (key.startsWith('_')) continue;
      if (COUNT_KEYS[key]) {
        checks.push({ path: COUNT_KEYS[key], kind: 'length', value: v });
        if (COUNT_KEYS[key][0] === 'organic') organicCount = v as number;
        continue;
      }
      if (key === 'results_count') {
        notes.push(`results_count ${String(v)} counts top-level result containers (the source recipe selects #rso > div), not organic results`);
        continue;
      }
      if (key === 'error') {
        notes.push(`expects error "${String(v)}"`);
        continue;
      }
      const path = [...prefix, ...subjectPath(key === 'search_term' ? 'keyword' : key)];
      if (v === 'defined') checks.push({ path, kind: 'defined' });
      else if (v === null) checks.push({ path, kind: 'undefined' });
      else if (Array.isArray(v)) v.forEach((item, i) => walk([...path, i], item as Record<string, unknown>));
      else if (typeof v === 'object') walk(path, v as Record<string, unknown>);
      else checks.push({ path, kind: 'equals', value: v });
    }
  };
  walk([], data);
  // se-scraper's product keys live under top_products / right_info; name them as our view does.
  return { organic: null, organicCount, checks, blocks: [], notes };
}
