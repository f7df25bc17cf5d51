/**
 * Sitemaps (sitemaps.org 0.9): an XML `<urlset>` of `<url><loc>…<lastmod>…`, an XML
 * `<sitemapindex>` of `<sitemap><loc>…`, either gzipped (`.xml.gz`, recognised by its magic
 * bytes whatever the name or content type says), or a text file of one URL per line. Parsed in
 * one streaming pass (htmlparser2 in XML mode; namespace prefixes such as `<ns:loc>` are
 * ignored). Bounds: 50,000 URLs and 50 MB uncompressed per file, as the protocol sets them.
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'index' | 'text' | 'unknown';
  /** Page URLs (urlset, text). */
  urls: SitemapEntry[];
  /** Further sitemaps (index). */
  sitemaps: SitemapEntry[];
}

/** The sitemap's text: gunzipped when the bytes are gzip (capped), else decoded as UTF-8. */
export function sitemapText(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    return gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES }).toString('utf8');
  }
  return bytes.subarray(0, MAX_SITEMAP_BYTES).toString('utf8');
}

function local(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
}

function isHttpUrl(s: string): boolean {
  return /^https?:\/\/\S+$/i.test(s);
}

export function parseSitemap(text: string): ParsedSitemap {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!body.startsWith('<')) return parseText(body);
  const out: ParsedSitemap = { kind: 'unknown', urls: [], sitemaps: [] };
  let entry: SitemapEntry | undefined;
  let field: 'loc' | 'lastmod' | undefined;
  let textBuf = '';
  const parser = new Parser(
    {
      onopentag(raw) {
        const name = local(raw);
        if (out.kind === 'unknown' && name === 'urlset') out.kind = 'urlset';
        else if (out.kind === 'unknown' && name === 'sitemapindex') out.kind = 'index';
        else if (name === 'url' || name === 'sitemap') entry = { url: '' };
        else if (entry && (name === 'loc' || name === 'lastmod')) {
          field = name;
          textBuf = '';
        }
      },
      ontext(t) {
        if (field) textBuf += t;
      },
      onclosetag(raw) {
        const name = local(raw);
        if (field && name === field && entry) {
          const value = textBuf.trim();
          if (field === 'loc') entry.url = value;
          else if (value) entry.lastmod = value;
          field = undefined;
        } else if ((name === 'url' || name === 'sitemap') && entry) {
          const list = name === 'url' ? out.urls : out.sitemaps;
          if (isHttpUrl(entry.url) && list.length < MAX_SITEMAP_URLS) list.push(entry);
          entry = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(body);
  return out;
}

function parseText(body: string): ParsedSitemap {
  const urls: SitemapEntry[] = [];
  for (const line of body.split(/\r?\n/)) {
    const url = line.trim();
    if (isHttpUrl(url) && urls.length < MAX_SITEMAP_URLS) urls.push({ url });
  }
  return { kind: urls.length > 0 ? 'text' : 'unknown', urls, sitemaps: [] };
}
