/**
 * The video simulator's catalogue and watch pages. Pages follow the real watch page's structure
 * (the `ytInitialPlayerResponse` / `ytInitialData` script variables and their JSON paths, the
 * `ytcfg.set` configuration, the canonical link) with small hand-written content; nothing is
 * copied from a captured page. Every id is 11 characters, every channel id `UC` + 22.
 *
 * Videos: `vid00000001` normal (chapters, captions en/en-asr/de, transcript panel, three real
 * formats and one that needs a signature), `vid00000002` age-restricted, `vid00000003`
 * private, `vid00000004` removed, `vid00000005` live now, `vid00000006` a caption track whose
 * URL refuses (the transcript panel still answers), `vid00000007` formats that all need a
 * signature, `botcheck000` the bot check; any other id is "Video unavailable".
 */

export const CHANNEL_ID = 'UCGleanerOutdoors0000001';
export const HANDLE = '@gleaneroutdoors';
export const CHANNEL_NAME = 'Gleaner Outdoors';
export const CLIENT_VERSION = '2.20250301.00.00';

export interface CaptionLine {
  start: number;
  dur: number;
  text: string;
}

export interface SimVideo {
  id: string;
  title: string;
  description: string;
  length: number;
  views: number;
  likes: number;
  comments: number;
  date: string;
  category: string;
  keywords: string[];
  chapters: [number, string][];
  /** Caption tracks: language, kind ('' or 'asr'), display name, lines. */
  tracks: { lang: string; kind: '' | 'asr'; name: string; lines: CaptionLine[]; refuse?: boolean }[];
  state: 'ok' | 'age' | 'private' | 'removed' | 'live' | 'bot';
  /** Which formats the page lists: the real media, or only ciphered ones. */
  formats: 'media' | 'ciphered' | 'none';
}

const EN: CaptionLine[] = [
  { start: 0, dur: 2500, text: 'Welcome to the trail.' },
  { start: 2500, dur: 3000, text: 'Pack light, drink often.' },
  { start: 5500, dur: 4000, text: 'See you at the summit.' },
];
const DE: CaptionLine[] = [
  { start: 0, dur: 2500, text: 'Willkommen auf dem Pfad.' },
  { start: 2500, dur: 7000, text: 'Bis zum Gipfel.' },
];
const ASR: CaptionLine[] = [
  { start: 0, dur: 2400, text: 'welcome to the trail' },
  { start: 2600, dur: 3100, text: 'pack light drink often' },
];

const base = (id: string, over: Partial<SimVideo>): SimVideo => ({
  id,
  title: `Trail video ${id}`,
  description: 'Short trail film.',
  length: 600,
  views: 1000,
  likes: 10,
  comments: 1,
  date: '2024-03-05T08:00:00-08:00',
  category: 'Sports',
  keywords: [],
  chapters: [],
  tracks: [],
  state: 'ok',
  formats: 'none',
  ...over,
});

export const VIDEOS: Readonly<Record<string, SimVideo>> = {
  vid00000001: base('vid00000001', {
    title: 'Trail Running Basics',
    // Braces and "};" inside a string: the page scan must find where the JSON really ends.
    description: 'Gear list: {shoes, vest}; see you};\nMore at the channel.',
    views: 123456,
    likes: 4321,
    comments: 87,
    keywords: ['trail', 'running', 'basics'],
    chapters: [[0, 'Intro'], [120, 'Gear'], [420, 'On the trail']],
    tracks: [
      { lang: 'en', kind: '', name: 'English', lines: EN },
      { lang: 'en', kind: 'asr', name: 'English (auto-generated)', lines: ASR },
      { lang: 'de', kind: '', name: 'German', lines: DE },
    ],
    formats: 'media',
  }),
  vid00000002: base('vid00000002', { title: 'Night Descent', state: 'age', views: 5000, likes: 50 }),
  vid00000003: base('vid00000003', { state: 'private' }),
  vid00000004: base('vid00000004', { state: 'removed' }),
  vid00000005: base('vid00000005', { title: 'Summit Live Cam', state: 'live', length: 0, views: 98765, likes: 700, date: '2025-01-10T06:00:00-08:00' }),
  vid00000006: base('vid00000006', {
    title: 'River Crossing',
    tracks: [{ lang: 'en', kind: '', name: 'English', lines: EN, refuse: true }],
  }),
  vid00000007: base('vid00000007', { title: 'Locked Formats', formats: 'ciphered' }),
  botcheck000: base('botcheck000', { state: 'bot' }),
};

/** JSON for a `<script>`: `</` escaped so no string can close the script element. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/<\//g, '<\\/');
}

export function ytcfg(): string {
  return `<script>ytcfg.set({"INNERTUBE_API_KEY":"sim-key","INNERTUBE_CLIENT_VERSION":"${CLIENT_VERSION}","HL":"en","GL":"US"});</script>`;
}

export function pageHtml(title: string, canonical: string | null, scripts: string): string {
  const link = canonical ? `<link rel="canonical" href="${canonical.replace(/&/g, '&amp;')}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Video</title>${link}${ytcfg()}</head><body><div id="app"></div>${scripts}</body></html>`;
}

export const thumbs = (id: string) => ({
  thumbnails: [
    { url: `https://img.example/vi/${id}/default.jpg`, width: 120, height: 90 },
    { url: `https://img.example/vi/${id}/hqdefault.jpg`, width: 480, height: 360 },
  ],
});

export const clock = (s: number) =>
  s >= 3600 ? `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export const grouped = (n: number) => n.toLocaleString('en-US');

/** The channel's owner block, as the watch page's secondary info shows it. */
export function ownerRenderer(): Record<string, unknown> {
  const browse = { browseId: CHANNEL_ID, canonicalBaseUrl: `/${HANDLE}` };
  return {
    videoOwnerRenderer: {
      title: { runs: [{ text: CHANNEL_NAME, navigationEndpoint: { browseEndpoint: browse } }] },
      subscriberCountText: { accessibility: { accessibilityData: { label: '12.5 thousand subscribers' } }, simpleText: '12.5K subscribers' },
      navigationEndpoint: { browseEndpoint: browse },
      badges: [{ metadataBadgeRenderer: { style: 'BADGE_STYLE_TYPE_VERIFIED', tooltip: 'Verified' } }],
    },
  };
}
