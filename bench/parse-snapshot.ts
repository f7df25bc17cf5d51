/**
 * A fingerprint of the built-in parsers' output on the captured pages, to show that a speed
 * change kept every output byte-identical: every route of the chosen families × every page of
 * ../shared/fixtures (HTML and JSON bodies), each parsed twice — with a neutral URL and with a
 * URL shaped like the page's own (`/dp/<id>`, `/s?k=`, ...) — and `JSON.stringify` of each
 * result hashed. Prints one hash per family and the total; `--out file` writes the hash of
 * every (route, page, url) so two runs can be diffed to find the page that changed.
 *
 *   node --import tsx bench/parse-snapshot.ts [--families mkt1,commerce,se] [--out /tmp/a.json]
 *   node --import tsx bench/parse-snapshot.ts --families video   (video routes; not in the default total)
 *
 * Commerce routes share four parsers (url, product, search, category): `--quick` parses one
 * route per parser instead of all of them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { kindOf } from '../core/targets/commerce/config.js';
import { COMMERCE_ROUTES } from '../core/targets/commerce/routes.js';
import { parsePage, TARGET_ROUTES } from '../core/targets/index.js';
import type { PageInput } from '../core/parsers/types.js';
import { fixturesDir } from './eval/fixtures-dir.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = fixturesDir();

const { values: args } = parseArgs({
  options: { families: { type: 'string', default: 'mkt1,commerce,se' }, out: { type: 'string' }, quick: { type: 'boolean', default: false } },
});

const commerceIds = new Set(COMMERCE_ROUTES.map((r) => r.id));
const builtin = TARGET_ROUTES.filter((r) => r.parser === 'builtin');
const FAMILIES: Record<string, { routes: string[]; folders: string[] }> = {
  mkt1: { routes: builtin.filter((r) => r.id === 'mkt1' || r.id.startsWith('mkt1/')).map((r) => r.id), folders: ['marketplace-product', 'marketplace-search', 'marketplace-offers', 'retail', 'other'] },
  commerce: {
    routes: (() => {
      const ids = builtin.filter((r) => commerceIds.has(r.id));
      if (!args.quick) return ids.map((r) => r.id);
      const seen = new Map<string, string>();
      for (const r of ids) if (!seen.has(kindOf(r).replace(/^shop\//, ''))) seen.set(kindOf(r).replace(/^shop\//, ''), r.id);
      return [...seen.values()];
    })(),
    folders: ['marketplace-product', 'marketplace-search', 'marketplace-offers', 'retail', 'other'],
  },
  se: {
    routes: ['se1/search', 'se1/ads', 'se1/aimode', 'se1/shopping/search', 'se1/shopping/product', 'se1/travel/hotels', 'se1/lens', 'se1/trends/explore', 'se1', 'se2/search', 'se2'],
    folders: ['search-engine-1', 'search-engine-2', 'other', 'marketplace-search'],
  },
  // Not in the default list (the recorded totals predate it): `--families video` on its own.
  video: {
    routes: ['media/video/metadata', 'media/video/channel', 'media/video/search', 'media/video/subtitles'],
    folders: ['video-search', 'video-watch', 'video-channel'],
  },
};

/** A URL shaped like the page's own, from the fixture's file name. */
function ownUrl(file: string): string {
  const tld = /amazon-([a-z-]+?)_/.exec(file)?.[1]?.replace('-', '.') ?? 'com';
  const id = /_(?:dp|offer-listing|product)_([A-Z0-9]{10})/.exec(file)?.[1] ?? 'B000000000';
  if (/_search_/.test(file)) return `https://www.amazon.${tld}/s?k=portable+charger`;
  if (/_bestsellers_/.test(file)) return `https://www.amazon.${tld}/gp/bestsellers/x`;
  if (/_offer-listing_/.test(file)) return `https://www.amazon.${tld}/gp/offer-listing/${id}`;
  if (/_seller-profile_/.test(file)) return `https://www.amazon.${tld}/sp?seller=A1B2C3D4E5`;
  if (/_dp_|_product_/.test(file)) return `https://www.amazon.${tld}/dp/${id}`;
  return 'https://shop.example.com/p/item-1';
}

/** A video page's own address, from the fixture's file name (a watch id or a channel id in it). */
function videoUrl(file: string): string {
  const channel = /_(UC[\w-]{22})/.exec(file)?.[1];
  if (channel) return `https://www.youtube.com/channel/${channel}/videos`;
  const watch = /_([\w-]{11})\.html$/.exec(file)?.[1];
  return watch && file.includes('watch') ? `https://www.youtube.com/watch?v=${watch}` : 'https://www.youtube.com/results?search_query=x';
}

const detail: Record<string, string> = {};
const total = createHash('sha256');
for (const name of args.families.split(',')) {
  const fam = FAMILIES[name];
  if (!fam) throw new Error(`unknown family ${name}`);
  const h = createHash('sha256');
  let n = 0;
  for (const folder of fam.folders) {
    const dir = join(FIXTURES, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((f) => /\.(html|json)$/.test(f) && !f.includes('.expected')).sort()) {
      if ((name === 'se' || name === 'video') && !f.endsWith('.html')) continue;
      const html = readFileSync(join(dir, f), 'utf8');
      const inputs: PageInput[] = [
        { html, url: 'https://www.example.com/search?q=x', page: 1, params: { query: 'x' } },
        ...(name === 'se' ? [] : [{ html, url: name === 'video' ? videoUrl(f) : ownUrl(f), page: 1, params: {} }]),
      ];
      for (const r of fam.routes) for (const [i, input] of inputs.entries()) {
        const out = JSON.stringify(parsePage(r, input));
        h.update(out);
        detail[`${r} ${folder}/${f} #${i}`] = createHash('sha256').update(out).digest('hex').slice(0, 16);
        n++;
      }
    }
  }
  const digest = h.digest('hex');
  total.update(digest);
  console.log(`${name}: ${n} parses ${digest}`);
}
console.log(`total ${total.digest('hex')}`);
if (args.out) writeFileSync(args.out, JSON.stringify(detail, null, 1));
