/**
 * What every page of the platform carries: the embedded player-response and initial-data JSON
 * (`var ytInitialPlayerResponse = {...};`, `var ytInitialData = {...};`, or the same objects
 * as `window["ytInitialData"] = ...`; before 2020 the player response inside
 * `ytplayer.config`, legacy-player.ts), the client configuration (`ytcfg.set({...})`: client
 * version, language, visitor data the internal API wants back), and the canonical URL. The
 * internal API (`/youtubei/v1/...`) answers the same objects as bare JSON, so a body that is
 * JSON is taken as the initial data itself (or the player response, or both when the answer
 * wraps them as `playerResponse`/`response`, alone or in the watch page's `pbj=1` list).
 */
import { jsonAfter, jsonHitAfter, parseJson } from '../../parsers/embedded.js';
import { isObj, obj, str, type Obj } from './json.js';
import type { PageParser } from '../../parsers/types.js';
import { inLanguage } from './counts.js';
import { legacyPlayer } from './legacy-player.js';

export interface PageData {
  /** The player response (`videoDetails`, `microformat`, `captions`, `streamingData`, `playabilityStatus`). */
  player: Obj | undefined;
  /** The initial data (`contents`, `header`, `metadata`, `engagementPanels`, `onResponseReceived*`). */
  data: Obj | undefined;
  /** The body was JSON (an internal API answer), not an HTML page. */
  json: boolean;
  /** The page's canonical URL, entity-decoded, or null. */
  canonical: string | null;
  /** The raw JSON text `data` was parsed from (a search for a key there is a search of `data`). */
  dataText?: string;
}

const PLAYER = 'ytInitialPlayerResponse';
const PLAYER_MARKERS = [`var ${PLAYER}`, `window["${PLAYER}"]`, PLAYER];
const DATA_MARKERS = ['var ytInitialData', 'window["ytInitialData"]', 'ytInitialData'];

export function pageData(body: string): PageData {
  let head = body.trimStart();
  if (head.startsWith(")]}'")) head = head.slice(4).trimStart();
  if (head.startsWith('{')) {
    const o = obj(parseJson(head));
    // A player call answers the player response itself; every other call answers initial-data shapes.
    if (o && (isObj(o.videoDetails) || isObj(o.playabilityStatus))) return { player: o, data: undefined, json: true, canonical: null };
    // A call asked for named parts (`$fields=playerResponse`, the shorts player call) wraps them.
    if (o && (isObj(o.playerResponse) || isObj(o.response))) return { player: obj(o.playerResponse), data: obj(o.response), json: true, canonical: null };
    return { player: undefined, data: o, json: true, canonical: null, dataText: head };
  }
  // The watch page asked as data (`&pbj=1`) is a list of parts, the player response and the
  // initial data in separate entries beside page chrome (`preconnect`, `timing`).
  if (head.startsWith('[')) {
    const parts = parseJson(head);
    if (!Array.isArray(parts)) return { player: undefined, data: undefined, json: true, canonical: null };
    const find = (key: string) => parts.map((p) => obj(obj(p)?.[key])).find((v) => v !== undefined);
    return { player: find('playerResponse'), data: find('response'), json: true, canonical: null };
  }
  return new HtmlPageData(body);
}

/**
 * The readings of an HTML page, each made when first asked for: a results or channel page
 * (~1 MB, mostly one script) never reads its player response, and each of the player's two
 * marker searches and the canonical link's search costs a scan of the whole page (a fifth of a
 * channel page's parse). Each reading is the same whenever it is made: the body is a string.
 */
class HtmlPageData implements PageData {
  readonly json = false;
  private got = 0;
  private playerValue: Obj | undefined;
  private dataValue: Obj | undefined;
  private dataRaw: string | undefined;
  private canonicalValue: string | null = null;

  constructor(private readonly body: string) {}

  get player(): Obj | undefined {
    if (!(this.got & 1)) {
      this.got |= 1;
      // Pages before the player response was embedded on its own keep it in `ytplayer.config`.
      // Every player marker holds PLAYER: one scan of the page tells a page without one (channel
      // and results pages, ~1 MB) instead of a scan per marker.
      const body = this.body;
      this.playerValue = obj(body.includes(PLAYER) ? jsonAfter(body, PLAYER_MARKERS) : undefined) ?? legacyPlayer(body);
    }
    return this.playerValue;
  }

  get data(): Obj | undefined {
    if (!(this.got & 2)) {
      this.got |= 2;
      const hit = jsonHitAfter(this.body, DATA_MARKERS);
      this.dataValue = obj(hit?.value);
      this.dataRaw = this.dataValue && hit?.raw;
    }
    return this.dataValue;
  }

  get dataText(): string | undefined {
    return this.data && this.dataRaw;
  }

  get canonical(): string | null {
    if (!(this.got & 4)) {
      this.got |= 4;
      this.canonicalValue = canonicalOf(this.body);
    }
    return this.canonicalValue;
  }
}

function canonicalOf(html: string): string | null {
  const m = /<link\b[^>]*\brel=["']?canonical["']?[^>]*>/i.exec(html);
  const href = m ? /\bhref=["']([^"']+)["']/i.exec(m[0])?.[1] : undefined;
  return href ? decodeAttr(href) : null;
}

/** An attribute value with its character references decoded. */
export function decodeAttr(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'");
}

/** The string value of `key` in the page's `ytcfg.set({...})` configuration, or null. */
export function ytcfgValue(html: string, key: string): string | null {
  const cfgs: unknown[] = [];
  let from = 0;
  // Pages call ytcfg.set several times; the keys the API needs are in the big first object.
  for (let i = 0; i < 4; i++) {
    const at = html.indexOf('ytcfg.set(', from);
    if (at < 0) break;
    const v = jsonAfter(html.slice(at, at + 400_000), 'ytcfg.set');
    if (v !== undefined) cfgs.push(v);
    from = at + 10;
  }
  for (const cfg of cfgs) {
    const v = obj(cfg)?.[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  // Some pages write single settings as `"KEY":"value"` in inline scripts only.
  const m = new RegExp(`"${key}"\\s*:\\s*"([^"\\\\]*)"`).exec(html);
  return m ? (m[1] as string) : null;
}

/** Paths the platform's pages and API live under; what stands before them is the site's base. */
const SITE_PATHS = ['/watch', '/results', '/channel/', '/@', '/c/', '/user/', '/youtubei/', '/shorts/', '/playlist', '/api/'];

/**
 * The site's base URL for building links, from the URL a page was fetched at: the part before
 * the first of the platform's own paths (`https://host/watch?v=x` → `https://host`;
 * `http://127.0.0.1:8090/video/results?...` → `http://127.0.0.1:8090/video`, so a base URL with
 * a path prefix from GLEANER_TARGETS is kept). Null when the URL is not absolute.
 */
export function siteBase(url: string | null | undefined): string | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const path = u.pathname;
  let cut = path.length;
  for (const p of SITE_PATHS) {
    const i = path.indexOf(p);
    if (i >= 0 && i < cut) cut = i;
  }
  return `${u.origin}${path.slice(0, cut).replace(/\/+$/, '')}`;
}

/** `path` (site-absolute, as the platform writes links) on the site base `base`; absolute URLs pass. */
export function absolute(path: string | null, base: string | null): string | null {
  if (!path) return null;
  if (/^https?:\/\//i.test(path)) return path;
  if (path.startsWith('//')) return `https:${path}`;
  if (!base) return path;
  // The base may carry a path prefix (see siteBase): append, do not resolve against the origin.
  return path.startsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

/** The `v` parameter of a watch URL, or null. */
export function videoIdOfUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, 'http://x.invalid');
    return str(u.searchParams.get('v')) ?? /\/(?:shorts|embed|live)\/([\w-]{6,})/.exec(u.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

const LANG_CODE = '([a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,4})?)';

/**
 * The interface language a page was served in (`tr-TR`, `pt-BR`, `en`), or null: the `hl` of the
 * URL it was fetched at; else the `lang` of an HTML page's root element (in its first bytes);
 * else the `hl` of the sign-in link every page and internal API answer carries in its top bar
 * (`accounts.google.com/ServiceLogin?...&hl=tr`, whose `&` is `\u0026` inside embedded JSON).
 * Each look is one native search, so a 1 MB page costs well under a millisecond.
 */
export function pageLanguageOf(body: string, url: string | null | undefined): string | null {
  const fromUrl = url ? new RegExp(`[?&]hl=${LANG_CODE}`).exec(url)?.[1] : undefined;
  if (fromUrl) return fromUrl;
  const head = body.slice(0, 4000);
  const root = /<html\b[^>]*?\slang=["']?([a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,4})?)/i.exec(head)?.[1];
  if (root) return root;
  const signIn = body.indexOf('ServiceLogin?');
  if (signIn < 0) return null;
  return new RegExp(`(?:[?&]|\\\\u0026)hl=${LANG_CODE}`).exec(body.slice(signIn, signIn + 2000))?.[1] ?? null;
}

/** `parser` reading counts and dates in the page's own interface language (counts.ts). */
export function localised(parser: PageParser): PageParser {
  return (input) => inLanguage(pageLanguageOf(input.html, input.url), () => parser(input));
}
