/**
 * Numbers as the platform displays them, in the interface language of the page: exact counts
 * with any grouping (`1,077,715 views`, `1.077.715 visualizaciones`, `3 600 000 vues`),
 * abbreviated counts with a language's multiplier word (`4,69 M de suscriptores`,
 * `17,3 mil`, `34,2 N người đăng ký`, `1,2 Mio.`, `12万`) and clock durations (`3:06:26`).
 * Printed dates are read in dates.ts.
 */
import { parseCount } from '../../parsers/money.js';

/**
 * Multiplier words, lower-cased without a trailing dot, as most languages read them. A word that
 * means another power in some language (Turkish `B` is `bin`, a thousand) is read by the page's
 * language first (BY_LANGUAGE); without a known language, by this table.
 */
const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3, thousand: 1e3, mil: 1e3, n: 1e3, 'nghìn': 1e3, tsd: 1e3, 'тыс': 1e3, tys: 1e3, tis: 1e3, rb: 1e3, ribu: 1e3, ezer: 1e3,
  m: 1e6, million: 1e6, millions: 1e6, millones: 1e6, 'millón': 1e6, mio: 1e6, mi: 1e6, mln: 1e6, 'млн': 1e6, tr: 1e6, 'triệu': 1e6, jt: 1e6, mn: 1e6, mill: 1e6,
  b: 1e9, billion: 1e9, bn: 1e9, mrd: 1e9, md: 1e9, mld: 1e9, 'млрд': 1e9, 'tỷ': 1e9,
  lakh: 1e5, crore: 1e7, 'लाख': 1e5, 'करोड़': 1e7,
  // Ukrainian, Hungarian (`E` = ezer), Greek, Arabic, Thai, Finnish/Swedish.
  'тис': 1e3, e: 1e3, 'χιλ': 1e3, 'εκ': 1e6, 'ألف': 1e3, 'مليون': 1e6, 'พัน': 1e3, 'หมื่น': 1e4, 'แสน': 1e5, 'ล้าน': 1e6, milj: 1e6, tn: 1e3,
};
/**
 * The abbreviations of the interface languages whose short forms differ from MULTIPLIERS (the
 * platform prints ICU/CLDR compact numbers: thousand, million, billion per language), keyed by
 * base language code. Only the words to add or read otherwise are listed.
 */
const BY_LANGUAGE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  tr: { b: 1e3, bin: 1e3, mn: 1e6, mr: 1e9, milyon: 1e6, milyar: 1e9 },
  az: { min: 1e3, mln: 1e6, mlrd: 1e9 },
  id: { rb: 1e3, jt: 1e6, m: 1e9, t: 1e12 },
  ms: { rb: 1e3, j: 1e6, b: 1e9 },
  vi: { n: 1e3, tr: 1e6, t: 1e9 },
  ro: { k: 1e3, mil: 1e6, mld: 1e9 },
  cs: { tis: 1e3, mil: 1e6, mld: 1e9 },
  sk: { tis: 1e3, mil: 1e6, mld: 1e9 },
  hr: { tis: 1e3, mil: 1e6, mlr: 1e9 },
  bs: { hilj: 1e3, mil: 1e6, mlr: 1e9 },
  sr: { 'хиљ': 1e3, 'мил': 1e6, 'млрд': 1e9, hilj: 1e3, mil: 1e6, mlrd: 1e9 },
  sl: { tis: 1e3, mio: 1e6, mrd: 1e9 },
  da: { t: 1e3, mio: 1e6, mia: 1e9 },
  fi: { t: 1e3, milj: 1e6, mrd: 1e9 },
  no: { k: 1e3, mill: 1e6, mrd: 1e9 },
  nb: { k: 1e3, mill: 1e6, mrd: 1e9 },
  pt: { mil: 1e3, mi: 1e6, bi: 1e9 },
  lt: { 'tūkst': 1e3, mln: 1e6, mlrd: 1e9 },
  lv: { 'tūkst': 1e3, milj: 1e6, mljrd: 1e9 },
  et: { tuh: 1e3, mln: 1e6, mld: 1e9 },
  bg: { 'хил': 1e3, 'млн': 1e6, 'млрд': 1e9 },
  sq: { 'mijë': 1e3, mln: 1e6, mld: 1e9 },
  uz: { ming: 1e3, mln: 1e6, mlrd: 1e9 },
  ca: { k: 1e3, m: 1e6, km: 1e9 },
};

/**
 * The interface language of the page being parsed (its base code, `tr` of `tr-TR`), set by
 * `inLanguage` around one parse. The parsers are synchronous and one parse runs at a time on a
 * worker, so the value cannot leak into another page; it saves handing the language down
 * through every reader that prints a count.
 */
let pageLanguage: string | null = null;

/** Runs `parse` with `language` as the page's interface language for every count read in it. */
export function inLanguage<T>(language: string | null, parse: () => T): T {
  const before = pageLanguage;
  pageLanguage = language ? (language.toLowerCase().split(/[-_]/)[0] ?? null) : null;
  try {
    return parse();
  } finally {
    pageLanguage = before;
  }
}

/** The language `inLanguage` set, or null. */
export function currentLanguage(): string | null {
  return pageLanguage;
}

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
  // Spanish writes its billion in two words, thousand-million: `1,2 mil M`, `3 mil millones`.
  if (/^mil\s+m(?:illones)?(?![\p{L}])/iu.test(first)) return 1e9;
  const word = /^([^\s\d]+)/.exec(first)?.[1];
  if (!word) return 1;
  const key = word.toLowerCase().replace(/\.$/, '');
  return (pageLanguage ? BY_LANGUAGE[pageLanguage]?.[key] : undefined) ?? MULTIPLIERS[key] ?? 1;
}

/** `3:06:26` → 11186, `2:16` → 136; null for anything else (`LIVE`, `SHORTS`). */
export function clockSeconds(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})\s*$/.exec(raw);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** `hh:mm:ss` → seconds (the download route's `start_at`/`end_at`). */
export function hmsSeconds(raw: string | null | undefined): number | null {
  const m = raw ? /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(raw) : null;
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}
