/**
 * Bot walls and captcha pages are `blocked` (the farm retries them on another proxy), on every
 * commerce parser; real pages that merely load a challenge script are not.
 */
import { describe, expect, it } from 'vitest';
import { isBlocked } from '../../core/targets/commerce/blocked.js';
import { PARSERS } from '../../core/targets/commerce/parsers.js';
import { CAPTCHA_PAGE } from '../sites/commerce-pages.js';

const page = (title: string, body = ''): string => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

describe('blocked pages', () => {
  it('walls named by their title or by a challenge vendor on a small page', () => {
    expect(isBlocked(CAPTCHA_PAGE)).toBe(true);
    expect(isBlocked(page('Just a moment...', '<div id="cf-chl-widget"></div>'))).toBe(true);
    expect(isBlocked(page('Access Denied', "<h1>Access Denied</h1>You don't have permission to access this server. Reference #18.1"))).toBe(true);
    expect(isBlocked(page('Shop', '<div id="px-captcha"></div>'))).toBe(true);
    expect(isBlocked(page('Shop', '<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>'))).toBe(true);
    expect(isBlocked(page('Pardon Our Interruption'))).toBe(true);
  });

  it('a real page that loads a challenge script, or mentions one in passing, is not a wall', () => {
    const big = page('Trail Running Shoe | Shop', `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script><h1>Trail Running Shoe</h1>${'<p>Light and fast.</p>'.repeat(12_000)}`);
    expect(isBlocked(big)).toBe(false);
    expect(isBlocked(page('Trail Running Shoe', '<h1>Trail Running Shoe</h1><span class="price">$89.99</span>'))).toBe(false);
    expect(isBlocked('{"data":{"product":{"title":"Robot check toy"}}}')).toBe(false);
  });

  it('every commerce parser answers blocked, with an empty result of its shape', () => {
    const input = { html: CAPTCHA_PAGE, url: 'https://shop.example/p/1', page: 1, params: { query: 'x' } };
    expect(PARSERS['mkt2/product']!(input)).toMatchObject({ status: 'blocked', json: { page_type: 'product', title: null, price: null } });
    expect(PARSERS['mkt2/search']!(input)).toMatchObject({ status: 'blocked', json: { page_type: 'search', results: [] } });
    expect(PARSERS['supermarket2/category']!(input)).toMatchObject({ status: 'blocked', json: { page_type: 'category' } });
    expect(PARSERS.mkt2!(input).status).toBe('blocked');
    for (const parse of Object.values(PARSERS)) expect(parse(input).status).toBe('blocked');
  });
});
