/**
 * Dates as the platform prints them beside a video or channel, in the interface language of the
 * page, as ISO `YYYY-MM-DD`: the watch page's `dateText` ("Apr 14, 2017", "14 Nis 2017",
 * "14 de abr. de 2017", "14.04.2017", "2017年4月14日", "Premiered …", "Streamed live on …") and
 * the About panel's "Joined …". A `next` answer without the player response has only this text.
 *
 * The platform prints ICU medium dates: a day, a month abbreviation (or number) and a year, in
 * the language's order, with words around them that do not matter here. Relative texts ("3 hours
 * ago", "vor 3 Stunden", "3 saat önce") are read against the answer's own clock (`now`), when it
 * states one; the result is then the day in UTC.
 */

/**
 * Month abbreviations by their first letters, lower-case, for the languages whose counts
 * counts.ts reads (en, es, pt, fr, it, de, nl, sv, da, no, pl, tr, id, ru, uk, hu, el). No two
 * languages use one abbreviation for different months; French `juin`/`juil` need four letters.
 */
const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, ene: 1, gen: 1, sty: 1, oca: 1, 'янв': 1, 'січ': 1, 'ιαν': 1,
  feb: 2, fev: 2, 'fév': 2, lut: 2, 'şub': 2, 'фев': 2, 'лют': 2, 'φεβ': 2,
  mar: 3, 'mär': 3, mrt: 3, 'már': 3, 'бер': 3, 'μαρ': 3, 'мар': 3,
  apr: 4, abr: 4, avr: 4, kwi: 4, nis: 4, 'ápr': 4, 'апр': 4, 'кві': 4, 'απρ': 4,
  may: 5, mai: 5, mag: 5, mei: 5, maj: 5, 'máj': 5, 'мая': 5, 'май': 5, 'тра': 5, 'μαΐ': 5, 'μαϊ': 5,
  jun: 6, juin: 6, giu: 6, cze: 6, haz: 6, 'jún': 6, 'июн': 6, 'чер': 6, 'ιου': 6,
  jul: 7, juil: 7, lug: 7, lip: 7, tem: 7, 'júl': 7, 'июл': 7, 'лип': 7,
  aug: 8, ago: 8, 'aoû': 8, sie: 8, 'ağu': 8, agu: 8, 'авг': 8, 'сер': 8, 'αυγ': 8,
  sep: 9, set: 9, wrz: 9, eyl: 9, sze: 9, 'сен': 9, 'вер': 9, 'σεπ': 9,
  oct: 10, okt: 10, ott: 10, out: 10, 'paź': 10, eki: 10, 'окт': 10, 'жов': 10, 'οκτ': 10,
  nov: 11, lis: 11, kas: 11, 'ноя': 11, 'лис': 11, 'νοε': 11,
  dec: 12, dic: 12, dez: 12, 'déc': 12, des: 12, gru: 12, ara: 12, 'дек': 12, 'гру': 12, 'δεκ': 12,
};

/** Greek June and July share three letters (`Ιουν`, `Ιουλ`): four decide. */
const MONTHS4: Readonly<Record<string, number>> = { 'ιουν': 6, 'ιουλ': 7 };

function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS4[w.slice(0, 4)] ?? MONTHS[w.slice(0, 4)] ?? MONTHS[w.slice(0, 3)] ?? null;
}

function iso(year: number, month: number | null, day: number): string | null {
  if (!month || month < 1 || month > 12 || day < 1 || day > 31 || year < 2005 || year > 2100) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const WORD = '([\\p{L}]{3,}\\.?)';
/** `14 Apr 2017`, `14 de abr. de 2017`, `14 avr. 2017`, `14 апр. 2017 г.`, `14. Apr. 2017`. */
const DAY_MONTH_YEAR = new RegExp(`(?<!\\d)(\\d{1,2})\\.?\\s+(?:de\\s+)?${WORD}\\s+(?:de\\s+)?(\\d{4})`, 'u');
/** `Apr 14, 2017` (US English). */
const MONTH_DAY_YEAR = new RegExp(`${WORD}\\s+(\\d{1,2}),?\\s+(\\d{4})`, 'u');
/** `2017. ápr. 14.` (Hungarian). */
const YEAR_MONTH_DAY = new RegExp(`(\\d{4})\\.\\s+${WORD}\\s+(\\d{1,2})`, 'u');
/** `2017年4月14日`, `2017/04/14`, `2017. 4. 14.`, `2017-04-14`. */
const NUMERIC_YMD = /(\d{4})\s*[年./-]\s*(\d{1,2})\s*[月./-]\s*(\d{1,2})/;
/** `14.04.2017`, `14. 4. 2017`, `14/04/2017`, `14 thg 4, 2017` (Vietnamese). */
const NUMERIC_DMY = /(?<!\d)(\d{1,2})(?:\s*[./]\s*|\s+thg\s+)(\d{1,2})(?:\s*[./]\s*|,?\s+)(\d{4})/;

/** An absolute printed date as ISO, in any of the orders above; null when none is found. */
function absoluteDate(s: string, language: string | null): string | null {
  let m = NUMERIC_YMD.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = DAY_MONTH_YEAR.exec(s);
  if (m && monthOf(m[2] as string)) return iso(Number(m[3]), monthOf(m[2] as string), Number(m[1]));
  m = MONTH_DAY_YEAR.exec(s);
  if (m && monthOf(m[1] as string)) return iso(Number(m[3]), monthOf(m[1] as string), Number(m[2]));
  m = YEAR_MONTH_DAY.exec(s);
  if (m && monthOf(m[2] as string)) return iso(Number(m[1]), monthOf(m[2] as string), Number(m[3]));
  m = NUMERIC_DMY.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    // Slashes put the month first in US English only; a part over 12 settles the order anyway.
    const monthFirst = a <= 12 && (b > 12 || (language === 'en' && s.includes('/')));
    return monthFirst ? iso(Number(m[3]), a, b) : iso(Number(m[3]), b, a);
  }
  return null;
}

/**
 * Units of relative dates by stem, across the same languages (and CJK), in seconds. Months and
 * years are left out: a date that far back is printed absolute on the watch page.
 */
const UNITS: readonly [RegExp, number][] = [
  [/^(?:sec|sek|seg|saniye|detik|giây|секунд|δευτ|秒|초|másodperc)/, 1],
  [/^(?:min|dakika|menit|phút|минут|хвилин|λεπτ|分|분|perc)/, 60],
  [/^(?:h(?:ou)?rs?\b|hour|stunde|std|heure|hora|or[ae]\b|uur|tim|godz|saat|jam|giờ|час|годин|ώρ|時間|小时|小時|시간|óra)/, 3600],
  [/^(?:day|tag|jour|día|dia|giorn|dag|dni|dzień|gün|hari|ngày|дн|день|дня|дней|μέρ|ημέρ|日|天|일|nap)/, 86400],
  [/^(?:week|woche|semaine|semana|settiman|veck|uge|tydz|tygod|hafta|minggu|tuần|недел|тижн|εβδομ|週|周|주|hét)/, 604800],
];
/** Words that make a relative text a time to come ("Premieres in 3 hours"), not a past one. */
const FUTURE = /\b(?:in|dans|en|em|tra|fra|über|через|за)\s+\d/i;

function relativeDate(s: string, now: number): string | null {
  if (FUTURE.test(s)) return null;
  const m = /(\d+)\s*([\p{L}]+)/u.exec(s);
  if (!m) return null;
  const word = (m[2] as string).toLowerCase();
  const unit = UNITS.find(([re]) => re.test(word))?.[1];
  if (!unit) return null;
  return new Date((now - Number(m[1]) * unit) * 1000).toISOString().slice(0, 10);
}

/**
 * A printed date as ISO `YYYY-MM-DD`, or null. `language`: the page's base language code
 * (decides `04/05/2017`); `now`: the answer's own time in epoch seconds, for relative texts.
 */
export function displayedDate(raw: string | null | undefined, language: string | null, now: number | null = null): string | null {
  if (!raw) return null;
  const s = raw.replace(/[\u00a0\u202f\u200e\u200f]/g, ' ');
  return absoluteDate(s, language) ?? (now !== null && Number.isFinite(now) ? relativeDate(s, now) : null);
}
