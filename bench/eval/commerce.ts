/**
 * The generic commerce parsers on the captured retail and marketplace pages: per product page
 * the title, price, currency and product id; per listing page the share of cards found with
 * the right title and price, plus whether as many cards were found as the page shows.
 *
 * Few fixtures come with expected output, so the facts below were read off each page by hand
 * (the visible title, the buy-box price, the product id of the add-to-cart form or URL; for
 * listings, a sample of the cards with their title's first words and shown price) and are
 * written here. Nothing of the pages is copied beyond those facts; the pages are read at run
 * time. Two evaluators, one per criterion of the issue, each with the 90% threshold.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseListing } from '../../core/targets/commerce/listing.js';
import { parseAnyPage } from '../../core/targets/commerce/parsers.js';
import { parseProduct } from '../../core/targets/commerce/product.js';
import type { Listing, Product } from '../../core/targets/commerce/types.js';
import type { EvalRow, FamilyEval, Fixture } from './types.js';

/** Parsers get a neutral address: ids and prices must come from the page, not the URL. */
const PAGE_URL = 'https://fixture.invalid/page';

interface ProductFacts {
  title: string;
  price: number | null;
  currency: string | null;
  /** Accepted ids (a page may name the variant in its cart form and the parent in its canonical URL). */
  ids: string[];
}

const PRODUCTS: Record<string, ProductFacts> = {
  'pricechecker_bestbuy_product_anker-A1383H11-1': { title: 'Anker - Power Bank (20K, 87W, Built-In USB-C Cable) - Black', price: 59.99, currency: 'USD', ids: ['6644753'] },
  pricechecker_microcenter_product: { title: 'Womier S-K80 75% Mechanical Keyboard - Black Kanagawa', price: 59.99, currency: 'USD', ids: ['698072'] },
  'pricechecker_target_pdp-api_tcin-91803751': {
    title: 'Anker 24000mAh 140W GaN Prime Power Bank - Silver: USB & USB-C Charging, Quick Charge',
    price: 109.99,
    currency: 'USD',
    ids: ['91803751'],
  },
  'amazonparser_amazon-ae_dp_B00LAYVPOU_philips-juicer': {
    title: 'Philips Viva Collection Compact Juicer, 1.5 Litre, 500 Watt, Quick Clean Technology, Drip Stop, Dishwasher Safe Parts, See-through Pulp Container, Direct Serve, Black (HR1832/01)',
    price: 330,
    currency: 'AED',
    ids: ['B00LAYVPOU'],
  },
  'amazonparser_amazon-ae_dp_B0D83GHDW2_ugreen': {
    title: "UGREEN iPhone 16 Pro Max Screen Protector Privacy 6.9''【100% Privacy Protection】【Ultimate Drop Protection】1:1 Full Coverage Anti Spy Screen Protector 9H+ Tempered Glass Fit for Most Case (2 Pack)",
    price: 55,
    currency: 'AED',
    ids: ['B0D83GHDW2'],
  },
  'metascraper_amazon-co-uk_dp_1849757097_book': { title: 'Vegetable Perfection: 100 delicious recipes for roots, bulbs, shoots and stems', price: 4.45, currency: 'GBP', ids: ['1849757097'] },
  // No buy box on this capture ("see all buying options"): no price is the right answer.
  'metascraper_amazon-es_dp_B01MUGXRT9_cecotec': {
    title: 'Cecotec Robot Limpiacristales Windroid 880 SprayWater Smart Connected. 90 W, Pulveriza, Limpia y Seca, Control por App y Mando a Distancia, 4 Programas, Cable 5,5m, Incluye 12 Paños',
    price: null,
    currency: null,
    ids: ['B01MUGXRT9'],
  },
  'nsoupspider_amazon-co-uk_product_compass_2016': {
    title: 'BestDealUK Outdoor Camping Hiking Portable Brass Round Golden Compass Navigation Tool',
    price: 1.98,
    currency: 'GBP',
    ids: ['B009A4A8ZO', 'B00VM4KQNY'],
  },
  // "Regular Price $45.99"; $35.99 is the Prime member price of the upsell row.
  'pricechecker_amazon-com_dp_charmast-20000mah': {
    title: 'charmast 20000mAh Portable Charger with Built-in Cables and AC Wall Plug | 20W Fast Charging Power Bank, Power 3 Devices at Once, Family Travel Essential Battery Pack for iPhone, Samsung, Android',
    price: 45.99,
    currency: 'USD',
    ids: ['B0DR8G428S'],
  },
};

interface ListingFacts {
  /** Cards the page shows (rendered ones: a virtualised grid leaves the rest empty). */
  count: number;
  /** A sample of cards: the title's first words and the shown price. */
  cards: [string, number][];
}

const LISTINGS: Record<string, ListingFacts> = {
  'pricechecker_bestbuy_search_portable-charger': {
    count: 4,
    cards: [['Samsung - Magnetic Wireless Battery Pack', 64.99], ['Energizer - 10,000mAh SLIM METAL 20W Mag', 19.99], ['Anker - Power Bank (20K, 87W, Built-In U', 59.99], ['UGREEN - Nexode 165W 20,000mAh Power Ban', 84.99]],
  },
  'pricechecker_target_search-api': {
    count: 24,
    cards: [
      ['Anker 10000mAh 22.5W Power Bank - Black', 35.99], ['GEMS Neon Power Bank - Red', 5], ['5000mAh Power Bank with Built in USB-C', 20],
      ['INIU Pocket Ultra 45W Fast Charging', 69.99], ['Anker Nano Power Bank, 10,000mAh', 44.99], ['iWalk 4800mAh Portable Charger', 26.99],
      ['10000mAh Power Bank with Retractable Cab', 29.99], ['Anker 30W 5000mAh Fusion Power Bank', 44.99], ['Anker 621 Magnetic Portable Charger', 42.99],
      ['Anker MagGo Power Bank, Qi2 Certified', 89.99], ['GEMS Figural Keychain Cable - Ghost', 5], ['INIU Leopard Power 20000 mAh PD 65W', 69.99],
    ],
  },
  'parsy_amazon-com_bestsellers_tools': {
    count: 30,
    cards: [
      ['Ring Video Doorbell - 1080p HD video', 59.99], ['Star Projector, Rossetta Galaxy Projecto', 32.46], ['Kasa Smart Plug HS103P4', 22.76],
      ['Kasa Outdoor Smart Plug', 16.99], ['RAK Telescoping Magnetic Pickup Tool', 15.99], ['Pooqla Colorful LED Marquee Letter Light', 12.43],
      ['Ontel Battery Daddy 180 Battery Organize', 12.99], ['BN-LINK BND-60/U47 Indoor Mini 24-Hour', 11.99], ['Ring Video Doorbell 3', 104.99],
      ['Makeup Mirror Vanity Mirror with Lights', 29.99],
    ],
  },
  'parsy_amazon-de_bestsellers_elektronik': {
    count: 30,
    cards: [
      ['Der neue Echo Dot (5. Generation, 2022)', 24.99], ['Fire TV Stick 4K mit Alexa', 24.99], ['Echo Dot (3. Gen.) Intelligenter', 17.99],
      ['Echo Show 5 (2. Generation, 2021)', 34.99], ['20 Stück CR2032 3V Batterien', 8.99], ['VARTA Batterien Knopfzellen CR2032', 3.29],
      ['Blink Outdoor, witterungsbeständige', 55.99], ['Das neue Fire HD 8 Kids Pro-Tablet', 84.99], ['Amazon Basics AA-Batterien mit hoher Kap', 17.75],
      ['Jabra Elite 4 Active In Ear', 69],
    ],
  },
  'amazonparser_amazon-ae_bestsellers_appliances': {
    count: 30,
    cards: [
      ['Midea 8KG Front Load Washing Machine', 897.65], ['Samsung 8Kg Front Load Washing Machine W', 1132], ['Samsung 8Kg Washer Dryer Combo', 1815.5],
      ['Hisense 7Kg Front Loading Washing Machin', 698], ['AstroAI Mini Fridge 4 Litre', 149.99], ['Beauenty Silver Coating Oxford Cloth', 32],
      ['Samsung 345 Liters, Top Mount Freezer', 1177.3], ['COMFEE\' Dishwasher 6 Places', 899], ['Hawkins Pressure Cooker Safety Valve', 7],
      ['AFRA Chest Freezer, 200L Gross Capacity', 479],
    ],
  },
  'pricechecker_amazon-com_search_portable-charger': {
    count: 22,
    cards: [
      ['Portable Charger with Wall Plug, Slim US', 25.18], ['INIU 45W Fast Charging Portable Charger', 21.59], ['W&P 45W Fast Charging Magnetic Portable', 39.95],
      ['Mini Portable Charger Power Bank for iPh', 16.95], ['Miady Magnetic Portable Charger Power Ba', 12.99], ['Anker 621 MagGo Power Bank', 30.99],
      ['Anker Zolo Magnetic Power Bank,10,000mAh', 39.99], ['Jackery Explorer 1000 v2 Portable Power', 499], ['charmast Power Bank Portable Charger wit', 22.99],
      ['ZZI Portable Charger Power Bank 60000mAh', 29.98], ['Anker Prime Power Bank, 26,250mAh 300W', 279.99],
    ],
  },
};

const norm = (s: string | null | undefined): string => (s ?? '').toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
const nameOf = (f: Fixture): string => basename(f.file).replace(/\.(html|json)$/, '');
const read = (f: Fixture): string => readFileSync(f.file, 'utf8');

function productRow(f: Fixture, want: ProductFacts): EvalRow {
  const html = read(f);
  const r = parseProduct({ html, url: PAGE_URL, page: 1, params: {} });
  const p = r.json as Product;
  const auto = (parseAnyPage({ html, url: PAGE_URL, page: 1, params: {} }).json as { page_type: string }).page_type;
  const checks: [string, boolean, unknown, unknown][] = [
    ['title', norm(p.title) === norm(want.title), want.title, p.title],
    ['price', p.price === want.price, want.price, p.price],
    ['currency', p.currency === want.currency, want.currency, p.currency],
    ['product_id', p.product_id !== null && want.ids.includes(p.product_id), want.ids.join(' or '), p.product_id],
  ];
  const failed = checks.filter((c) => !c[1]);
  return {
    page: nameOf(f),
    status: r.status,
    right: checks.length - failed.length,
    total: checks.length,
    detail: `${failed.length === 0 ? 'all right' : `wrong: ${failed.map((c) => c[0]).join(', ')}`}; ${p.price ?? '-'} ${p.currency ?? ''}; url route reads it as ${auto}`,
    failures: failed.map((c) => `${c[0]}: expected ${JSON.stringify(c[2])}, got ${JSON.stringify(c[3])}`),
  };
}

function listingRow(f: Fixture, want: ListingFacts): EvalRow {
  const html = read(f);
  const r = parseListing('search')({ html, url: PAGE_URL, page: 1, params: {} });
  const l = r.json as Listing;
  const failures: string[] = [];
  let right = 0;
  for (const [title, price] of want.cards) {
    const hit = l.results.find((c) => norm(c.title).startsWith(norm(title)) && c.price === price);
    if (hit) right++;
    else failures.push(`card "${title}" at ${price}: ${JSON.stringify(l.results.find((c) => norm(c.title).startsWith(norm(title))) ?? null)}`);
  }
  const enough = l.results.length >= want.count;
  if (!enough) failures.push(`cards: expected at least ${want.count}, got ${l.results.length}`);
  const auto = (parseAnyPage({ html, url: PAGE_URL, page: 1, params: {} }).json as { page_type: string }).page_type;
  return {
    page: nameOf(f),
    status: r.status,
    right: right + (enough ? 1 : 0),
    total: want.cards.length + 1,
    detail: `${right}/${want.cards.length} sampled cards right; ${l.results.length} cards found (page shows ${want.count}); url route reads it as ${auto}`,
    failures,
  };
}

const FOLDERS = ['retail', 'marketplace-product', 'marketplace-search'] as const;

export const COMMERCE_PRODUCT_EVAL: FamilyEval = {
  name: 'commerce-products',
  folders: FOLDERS,
  threshold: 0.9,
  run: (fixtures) => fixtures.filter((f) => PRODUCTS[nameOf(f)]).map((f) => productRow(f, PRODUCTS[nameOf(f)] as ProductFacts)),
};

export const COMMERCE_LISTING_EVAL: FamilyEval = {
  name: 'commerce-listings',
  folders: FOLDERS,
  threshold: 0.9,
  run: (fixtures) => fixtures.filter((f) => LISTINGS[nameOf(f)]).map((f) => listingRow(f, LISTINGS[nameOf(f)] as ListingFacts)),
};
