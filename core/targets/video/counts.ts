/**
 * Numbers as the platform displays them, in the interface language of the page: exact counts
 * with any grouping (`1,077,715 views`, `1.077.715 visualizaciones`, `3 600 000 vues`),
 * abbreviated counts with a language's multiplier word (`4,69 M de suscriptores`,
 * `17,3 mil`, `34,2 N người đăng ký`, `1,2 Mio.`, `12万`), clock durations (`3:06:26`) and
 * the dates of the About panel (`Joined Jul 9, 2013`).
 */
import { parseCount } from '../../parsers/money.js';

/**
 * Multiplier words by language, lower-cased without a trailing dot. Where a word is ambiguous
 * across languages the page language decides nothing here: the table keeps only words with one
 * meaning (`mil` is thousand in Spanish and Portuguese; the Portuguese million is `mi`).
 */
const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3, thousand: 1e3, mil: 1e3, n: 1e3, 'nghìn': 1e3, tsd: 1e3, 'тыс': 1e3, tys: 1e3, tis: 1e3, rb: 1e3, ribu: 1e3, ezer: 1e3,
  m: 1e6, million: 1e6, millions: 1e6, millones: 1e6, 'millón': 1e6, mio: 1e6, mi: 1e6, mln: 1e6, 'млн': 1e6, tr: 1e6, 'triệu': 1e6, jt: 1e6, mn: 1e6, mill: 1e6,
  b: 1e9, billion: 1e9, bn: 1e9, mrd: 1e9, md: 1e9, mld: 1e9, 'млрд': 1e9, 'tỷ': 1e9,
  lakh: 1e5, crore: 1e7, 'लाख': 1e5, 'करोड़': 1e7,
  // Ukrainian, Hungarian (`E` = ezer), Greek, Arabic, Thai, Finnish/Swedish.
  'тис': 1e3, e: 1e3, 'χιλ': 1e3, 'εκ': 1e6, 'ألف': 1e3, 'مليون': 1e6, 'พัน': 1e3, 'หมื่น': 1e4, 'แสน': 1e5, 'ล้าน': 1e6, milj: 1e6, tn: 1e3,
};
/** Multipliers written without a space before the next word (`12万回視聴`). */
const CJK: Readonly<Record<string, number>> = { '千': 1e3, '万': 1e4, '萬': 1e4, '億': 1e8, '亿': 1e8, '천': 1e3, '만': 1e4, '억': 1e8 };

/**
 * A displayed count: `1,077,715 views` → 1077715, `4,69 M de suscriptores` → 4690000,
 * `8.84k subscribers` → 8840, `No views` → 0. Null when the text holds no number.
 */
export function countOf(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const s = raw.replace(/[\u00a0\u202f]/g, ' ').trim();
  if (/^(no|keine|aucune|sin|nenhuma|nessuna|geen)\b/i.test(s) && !/\d/.test(s)) return 0;
  // An integer part (possibly grouped by threes) and an optional decimal part.
  const m = /(\d{1,3}(?:([.,' ’])\d{3})+|\d+)(?:[.,](\d+))?/.exec(s);
  if (!m) return null;
  const after = s.slice(m.index + m[0].length);
  const mult = multiplierAfter(after);
  if (mult === 1) {
    // No multiplier word: the number is exact, grouped in whatever way the language groups.
    return parseCount(m[0]) ?? null;
  }
  const whole = (m[1] as string).replace(/[.,' ’]/g, '');
  const frac = m[3] ?? '';
  const n = Number(frac ? `${whole}.${frac}` : whole);
  return Number.isFinite(n) ? Math.round(n * mult) : null;
}

function multiplierAfter(after: string): number {
  const first = after.trimStart();
  const cjk = CJK[first.charAt(0)];
  if (cjk) return cjk;
  const word = /^([^\s\d]+)/.exec(first)?.[1];
  if (!word) return 1;
  const key = word.toLowerCase().replace(/\.$/, '');
  return MULTIPLIERS[key] ?? 1;
}

/** `3:06:26` → 11186, `2:16` → 136; null for anything else (`LIVE`, `SHORTS`). */
export function clockSeconds(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})\s*$/.exec(raw);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};

/**
 * An English displayed date (`Joined Jul 9, 2013`, `Joined 9 Jul 2013`, `Dec 5, 2019`) as ISO
 * `YYYY-MM-DD`; null for other languages (the caller keeps the text).
 */
export function englishDate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const us = /\b([A-Z][a-z]{2,8})\.? (\d{1,2}), (\d{4})\b/.exec(raw);
  const eu = /\b(\d{1,2}) ([A-Z][a-z]{2,8})\.? (\d{4})\b/.exec(raw);
  const [mon, day, year] = us ? [us[1], us[2], us[3]] : eu ? [eu[2], eu[1], eu[3]] : [];
  const month = mon ? MONTHS[mon.slice(0, mon.toLowerCase().startsWith('sept') ? 4 : 3).toLowerCase()] : undefined;
  if (!month || !day || !year) return null;
  return `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** `hh:mm:ss` → seconds (the download route's `start_at`/`end_at`). */
export function hmsSeconds(raw: string | null | undefined): number | null {
  const m = raw ? /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(raw) : null;
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}
