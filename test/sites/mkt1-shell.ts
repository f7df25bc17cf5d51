/**
 * Pieces every mkt1 simulator page shares: the page shell with the storefront's header (the
 * delivery widget `#glow-ingress-line1/2` and the location modal carrying an
 * `anti-csrftoken-a2z`), price blocks in the storefront's `.a-price` markup, star ratings and
 * HTML escaping. The markup follows the captured pages (same ids, classes and attributes).
 */
import { formatMoney, WORDS } from './mkt1-data.js';
import type { Words } from './mkt1-data.js';

export interface View {
  /** Marketplace domain (`com`, `de`, ...). */
  domain: string;
  /** Path prefix of the marketplace: `/mkt1/<domain>`. */
  base: string;
  /** Currency the storefront shows (the shopper's preference or the marketplace's). */
  currency: string;
  /** The marketplace's own currency. */
  home: string;
  words: Words;
  /** Delivery postal code of the session, if set. */
  zip?: string;
  city: string;
  countryName: string;
  token: string;
}

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The delivery widget: the 2024+ one-line form on `com`, the older two-line form elsewhere. */
function glow(v: View): [string, string] {
  if (!v.zip) return [v.words.deliverTo, v.countryName];
  if (v.domain === 'com') return [`Delivering to ${v.city} ${v.zip}`, 'Update location'];
  return [v.words.deliverTo, `${v.city} ${v.zip}`];
}

export function shell(v: View, title: string, body: string, head = ''): string {
  const [line1, line2] = glow(v);
  const modal = JSON.stringify({
    width: 375,
    closeButton: 'true',
    popoverLabel: 'Choose your location',
    ajaxHeaders: { 'anti-csrftoken-a2z': v.token },
    name: 'glow-modal',
    url: '/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Detail&storeContext=NoStoreName&actionSource=desktop-modal',
  });
  return (
    `<!doctype html><html lang="${v.words.lang}" class="a-no-js" data-19ax5a9jf="dingo"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head><body>` +
    `<header id="navbar-main"><div id="nav-belt"><div id="nav-global-location-slot">` +
    `<span id="nav-global-location-data-modal-action" class="a-declarative nav-progressive-attribute" data-a-modal="${esc(modal)}" data-action="a-modal">` +
    `<a id="nav-global-location-popover-link" role="button" tabindex="0" class="nav-a nav-a-2 a-popover-trigger a-declarative nav-progressive-attribute">` +
    `<div class="nav-sprite nav-progressive-attribute" id="nav-packard-glow-loc-icon"></div><div id="glow-ingress-block">` +
    `<span class="nav-line-1 nav-progressive-content" id="glow-ingress-line1"> ${esc(line1)} </span>` +
    `<span class="nav-line-2 nav-progressive-content" id="glow-ingress-line2"> ${esc(line2)} </span>` +
    `</div></a></span></div>` +
    `<form id="nav-search-bar-form" action="${v.base}/s" method="GET"><input type="text" id="twotabsearchtextbox" name="field-keywords"></form></div></header>` +
    `<div id="a-page">${body}</div></body></html>`
  );
}

/** A price in the storefront's `.a-price` markup (offscreen text plus visible parts). */
export function priceHtml(amount: number, v: View, opts: { size?: string; strike?: boolean; cls?: string } = {}): string {
  const shown = formatMoney(amount, v.currency, v.home);
  const m = /^(\D*?)\s?([\d.,]+?)(?:([.,])(\d{2}))?\s?(\D*)$/.exec(shown);
  const symbol = m ? (m[1] || m[5] || '').trim() : '';
  const whole = m ? (m[2] as string) : shown;
  const visible =
    `<span aria-hidden="true">${symbol && m?.[1] ? `<span class="a-price-symbol">${esc(symbol)}</span>` : ''}` +
    `<span class="a-price-whole">${esc(whole)}${m?.[3] ? `<span class="a-price-decimal">${m[3]}</span>` : ''}</span>` +
    `${m?.[4] ? `<span class="a-price-fraction">${m[4]}</span>` : ''}${symbol && !m?.[1] ? `<span class="a-price-symbol">${esc(symbol)}</span>` : ''}</span>`;
  const strike = opts.strike ? ' a-text-price" data-a-strike="true' : '';
  return `<span class="a-price${opts.cls ? ` ${opts.cls}` : ''}${strike}" data-a-size="${opts.size ?? 'xl'}" data-a-color="${opts.strike ? 'secondary' : 'base'}"><span class="a-offscreen">${esc(shown)}</span>${visible}</span>`;
}

export function starsHtml(rating: number, v: View, cls = 'a-icon-star-small'): string {
  const half = Math.round(rating * 2) / 2;
  const tag = `a-star-small-${String(half).replace('.', '-')}`;
  return `<i class="a-icon ${cls} ${tag} aok-align-bottom"><span class="a-icon-alt">${esc(v.words.stars(rating))}</span></i>`;
}

export function wordsFor(domain: string, language: string | null): Words {
  const lang = (language ?? '').slice(0, 2).toLowerCase() || (domain === 'de' ? 'de' : 'en');
  return lang === 'de' ? WORDS.de : WORDS.en;
}

/** The storefront's robot check (what the parsers must report as `blocked`). */
export function captchaPage(): string {
  return (
    '<!doctype html><html><head><title>Amazon.com</title></head><body><div class="a-container a-padding-double-large">' +
    '<h4>Enter the characters you see below</h4><p class="a-last">Sorry, we just need to make sure you\'re not a robot.</p>' +
    '<form method="get" action="/errors/validateCaptcha" name=""><input autocomplete="off" spellcheck="false" placeholder="Type characters" id="captchacharacters" name="field-keywords" type="text"></form>' +
    '</div></body></html>'
  );
}

export function notFoundPage(v: View): string {
  return shell(v, 'Page Not Found', '<div id="g"><a href="/ref=cs_404_logo"><img alt="Sorry! We couldn\'t find that page. Try searching or go to the home page."></a></div>');
}
