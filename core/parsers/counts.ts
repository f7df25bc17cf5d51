/**
 * Counts and star ratings as displayed ("1,234 ratings", "1.2K", "4,5 von 5 Sternen",
 * "5つ星のうち4.3"), for every parser family. Pure, no I/O.
 */

/** A count as displayed: `1,234 ratings` → 1234, `1.2K` → 1200, `3 600 000 views` → 3600000. */
export function parseCount(raw: string | null | undefined): number | null {
  if (!raw) return null;
  // Counts are whole: a lone group of three digits after a separator is thousands in every
  // locale ("1.234 Bewertungen", "1,234 ratings"), which a price reader cannot assume.
  const grouped = /\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?![\d.,])/.exec(raw);
  if (grouped && !/^\s*[kKmMbB](?![a-zA-Z])/.test(raw.slice(grouped.index + grouped[0].length))) return Number(grouped[0].replace(/\D/g, ''));
  const m = /(\d+(?:[.,]\d+)?)\s*([kKmMbB](?![a-zA-Z])|[Tt]sd\.?|[Mm]io\.?|万)?/.exec(raw);
  if (!m) return null;
  const n = Number((m[1] as string).replace(',', '.'));
  const suffix = (m[2] ?? '').toLowerCase();
  const mult = suffix.startsWith('k') || suffix.startsWith('tsd') ? 1e3 : suffix.startsWith('m') ? 1e6 : suffix === 'b' ? 1e9 : suffix === '万' ? 1e4 : 1;
  return Number.isFinite(n) ? Math.round(n * mult) : null;
}

/** Languages that name the scale before the value: `5つ星のうち4.3`, `5 yıldız üzerinden 4,3`. */
const SCALE_FIRST = /(?:つ星のうち|yıldız üzerinden|颗星，最多\s*5\s*颗星)\s*(\d(?:[.,]\d+)?)/;

/** A rating as displayed: `4.5 out of 5 stars`, `4,5 von 5 Sternen`, `Rated 4.7/5`, `5つ星のうち4.3` → 4.5 / 4.7 / 4.3. */
export function parseRating(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const m = SCALE_FIRST.exec(raw) ?? /(\d(?:[.,]\d+)?)/.exec(raw);
  if (!m) return null;
  const n = Number((m[1] as string).replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}
