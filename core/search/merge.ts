/**
 * The merge behind `POST /v1/search`: several engines' parsed first pages become one ranked list
 * (spec 2.2). Pure and deterministic.
 *
 * Ranking follows SearXNG's idea: a result found by several engines, or high on one, ranks high.
 * Each result's score is the sum over the engines that returned it of `weight_engine / position`;
 * ties go to the better (smaller) best position, then to the order in which the result was first
 * seen (engines in the order given, each in rank order).
 * Results are the same document when their normalised URLs are equal (see `normaliseUrl`).
 */

export interface EngineOrganic {
  title: string;
  url: string;
  snippet: string | null;
  /** 1-based rank on the engine's page. */
  position: number;
}

export interface EngineQuestion {
  question: string;
  title: string | null;
  snippet: string | null;
}

export interface EngineResults {
  /** Target token of the engine (`se1`, `se2`). */
  engine: string;
  organic: readonly EngineOrganic[];
  related_questions?: readonly EngineQuestion[];
  related_searches?: readonly { query: string }[];
}

/** One `results[]` item of spec 2.2. */
export interface SearchItem {
  title: string;
  outline: string;
  url: string;
  metadata: { position: number };
}

export interface RelatedQuestionItem {
  question: string;
  title: string | null;
  snippet: string | null;
}

export interface MergedSearch {
  results: SearchItem[];
  related_questions: RelatedQuestionItem[];
  related_searches: { query: string }[];
}

export interface MergeOptions {
  maxResults: number;
  /** Engine weights; engines not listed weigh 1. */
  weights?: Readonly<Record<string, number>>;
}

const TRACKING = /^(?:utm_[a-z]+|gclid|fbclid|msclkid|yclid|mc_[a-z]+|_ga|ref_src)$/i;

/**
 * The identity of a result URL: scheme, `www.`, default port, fragment, tracking parameters,
 * parameter order and a trailing slash do not distinguish documents.
 */
export function normaliseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return url.trim().toLowerCase();
  }
  const host = u.hostname.toLowerCase().replace(/^www\d?\./, '');
  const port = u.port && u.port !== '80' && u.port !== '443' ? `:${u.port}` : '';
  let path = u.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (path === '/') path = '';
  const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k)).sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const qs = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${host}${port}${path}${qs ? `?${qs}` : ''}`;
}

interface Entry {
  key: string;
  score: number;
  bestPosition: number;
  firstSeen: number;
  /** The occurrence whose title and snippet are shown: highest weight, then best position. */
  shown: EngineOrganic;
  shownWeight: number;
}

export function mergeResults(engines: readonly EngineResults[], options: MergeOptions): MergedSearch {
  const weightOf = (engine: string) => options.weights?.[engine] ?? 1;
  const byKey = new Map<string, Entry>();
  let seen = 0;
  for (const e of engines) {
    const w = weightOf(e.engine);
    const counted = new Set<string>();
    for (const r of e.organic) {
      if (!r.url || !(r.position >= 1)) continue;
      const key = normaliseUrl(r.url);
      // An engine listing the same document twice counts once, at its best position.
      if (counted.has(key)) continue;
      counted.add(key);
      const entry = byKey.get(key);
      if (!entry) {
        byKey.set(key, { key, score: w / r.position, bestPosition: r.position, firstSeen: seen++, shown: r, shownWeight: w });
        continue;
      }
      entry.score += w / r.position;
      entry.bestPosition = Math.min(entry.bestPosition, r.position);
      if (w > entry.shownWeight || (w === entry.shownWeight && r.position < entry.shown.position)) {
        entry.shown = r;
        entry.shownWeight = w;
      }
    }
  }
  const ranked = [...byKey.values()].sort(
    (a, b) => b.score - a.score || a.bestPosition - b.bestPosition || a.firstSeen - b.firstSeen,
  );
  const max = Math.max(0, Math.floor(options.maxResults));
  const results = ranked.slice(0, max).map(
    (e, i): SearchItem => ({
      title: e.shown.title,
      outline: e.shown.snippet ?? '',
      url: e.shown.url,
      metadata: { position: i + 1 },
    }),
  );
  return { results, related_questions: mergeQuestions(engines), related_searches: mergeSearches(engines) };
}

function questionKey(q: string): string {
  return q.toLowerCase().replace(/[\s?¿!.]+/g, ' ').trim();
}

function mergeQuestions(engines: readonly EngineResults[]): RelatedQuestionItem[] {
  const out: RelatedQuestionItem[] = [];
  const index = new Map<string, RelatedQuestionItem>();
  for (const e of engines) {
    for (const q of e.related_questions ?? []) {
      const question = q.question.trim();
      if (!question) continue;
      const key = questionKey(question);
      const have = index.get(key);
      if (have) {
        // Keep the first wording; fill an answer the first engine did not carry.
        if (have.title === null && q.title) have.title = q.title;
        if (have.snippet === null && q.snippet) have.snippet = q.snippet;
        continue;
      }
      const item = { question, title: q.title ?? null, snippet: q.snippet ?? null };
      index.set(key, item);
      out.push(item);
    }
  }
  return out;
}

function mergeSearches(engines: readonly EngineResults[]): { query: string }[] {
  const out: { query: string }[] = [];
  const seen = new Set<string>();
  for (const e of engines) {
    for (const s of e.related_searches ?? []) {
      const query = s.query.replace(/\s+/g, ' ').trim();
      const key = query.toLowerCase();
      if (!query || seen.has(key)) continue;
      seen.add(key);
      out.push({ query });
    }
  }
  return out;
}
