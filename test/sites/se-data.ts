/**
 * Deterministic content of the search-engine simulator: every result derives from the query,
 * the page and a few request options, so tests can compute what a page shows. Hosts are under
 * the reserved `.example` TLD.
 *
 * Both engines rank the same document universe of a query: se1 in document order, se2 with
 * neighbours swapped and every fifth slot taken by a document only se2 has — so a merge of the
 * two has overlaps, disagreements and unique results.
 */

export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'q';
}

export function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const SITES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const TOPICS = ['Guide', 'Overview', 'Reference', 'Tutorial', 'Review', 'Handbook', 'Notes', 'Primer', 'Digest', 'Manual'];

export interface Doc {
  /** 1-based document number in the query's universe; se2-only documents are negative. */
  n: number;
  title: string;
  url: string;
  host: string;
  snippet: string;
}

export function doc(query: string, n: number): Doc {
  const s = slug(query);
  if (n < 0) {
    const host = `www.only-se2-${-n}.example`;
    return { n, title: `${titleCase(query)} on Only Se2 ${-n}`, url: `https://${host}/${s}`, host, snippet: `A page about ${query} that only the second engine lists (${-n}).` };
  }
  const site = SITES[(hash(query) + n) % SITES.length];
  const host = `www.${site}-${n}.example`;
  const topic = TOPICS[(hash(s) + n * 7) % TOPICS.length];
  return {
    n,
    title: `${titleCase(query)} ${topic} ${n}`,
    url: `https://${host}/${s}/${n}`,
    host,
    snippet: `Everything about ${query}: ${topic.toLowerCase()} number ${n} with details and examples.`,
  };
}

/** se1's documents for a page: `num` consecutive documents; with `gl`, a local page comes first on page 1. */
export function se1Docs(query: string, page: number, num: number, gl?: string): Doc[] {
  const first = (page - 1) * num + 1;
  const docs = Array.from({ length: num }, (_, i) => doc(query, first + i));
  if (gl && page === 1) {
    const host = `www.local-${gl.toLowerCase()}.example`;
    docs.unshift({ n: 0, title: `${titleCase(query)} in ${gl.toUpperCase()}`, url: `https://${host}/${slug(query)}`, host, snippet: `Local results for ${query} in ${gl.toUpperCase()}.` });
    docs.pop();
  }
  return docs;
}

/** se2's documents for a page of 10: neighbours swapped, every fifth slot an se2-only document. */
export function se2Docs(query: string, page: number): Doc[] {
  const out: Doc[] = [];
  for (let i = 0; i < 10; i++) {
    const slot = (page - 1) * 10 + i + 1;
    if (slot % 5 === 0) out.push(doc(query, -slot));
    else out.push(doc(query, slot % 2 === 1 ? slot + 1 : slot - 1));
  }
  return out;
}

export function resultTotal(query: string): number {
  return 1000 * (1000 + (hash(query) % 9000));
}

/** "About 1,234,000 results" in the interface language. */
export function resultStats(query: string, hl: string | undefined): string {
  const n = resultTotal(query);
  const lang = (hl ?? 'en').slice(0, 2);
  if (lang === 'de') return `Ungefähr ${n.toLocaleString('de-DE')} Ergebnisse (0,31 Sekunden)`;
  if (lang === 'fr') return `Environ ${n.toLocaleString('en-US').replace(/,/g, '\u00a0')} résultats (0,31 secondes)`;
  return `About ${n.toLocaleString('en-US')} results (0.31 seconds)`;
}

export function relatedQueries(query: string): string[] {
  return ['near me', 'price', 'reviews', 'history', 'for beginners', 'vs alternatives', 'meaning', 'examples'].map((w) => `${query} ${w}`);
}

export function questions(query: string): string[] {
  return [`What is ${query}?`, `How does ${query} work?`, `Is ${query} worth it?`, `Where can I find ${query}?`];
}

export interface Product {
  id: string;
  title: string;
  price: number;
  merchant: string;
  rating: number;
  reviews: number;
}

const MERCHANTS = ['Shopalpha', 'Bravo Store', 'Charlie Outlet', 'Delta Market', 'Echo Goods'];

/** The shopping catalogue of a query: 12 products with prices 12.50 .. 287.50. */
export function products(query: string): Product[] {
  const h = hash(query);
  return Array.from({ length: 12 }, (_, i) => ({
    id: String(1000000 + ((h + i * 7919) % 9000000)),
    title: `${titleCase(query)} Model ${String.fromCharCode(65 + i)}`,
    price: 12.5 + ((h + i * 37) % 12) * 25,
    merchant: MERCHANTS[(h + i) % MERCHANTS.length],
    rating: 3 + ((h + i) % 20) / 10,
    reviews: 10 + ((h + i * 13) % 990),
  }));
}

export function money(v: number): string {
  return `$${v.toFixed(2)}`;
}
