/**
 * When a context's HTTP cache is emptied before a navigation (farm/browser/http-cache.ts): only
 * before a URL it may hold, once the noted bodies pass 8 MiB, or past 4,096 noted URLs. The
 * context is only a key here and the protocol session only receives the clear, so both are
 * plain objects; the real browser's behaviour is nav-fetch.test.ts's.
 */
import type { BrowserContext, CDPSession } from 'patchright-core';
import { describe, expect, test } from 'vitest';
import { cacheKey, forgetIfCached, mayBeCached, noteCached } from '../../farm/browser/http-cache.js';

function session(): { cdp: CDPSession; clears: () => number } {
  let n = 0;
  const cdp = { send: async (method: string) => void (method === 'Network.clearBrowserCache' && n++) } as unknown as CDPSession;
  return { cdp, clears: () => n };
}

describe('http-cache', () => {
  test('a URL never noted costs no clear; a noted one clears once, fragment or not', async () => {
    const ctx = {} as BrowserContext;
    const { cdp, clears } = session();
    await forgetIfCached(ctx, cdp, 'https://a.example/x');
    expect(clears()).toBe(0);
    noteCached(ctx, 'https://a.example/x#top', 1000);
    await forgetIfCached(ctx, cdp, 'https://a.example/y');
    expect(clears()).toBe(0);
    await forgetIfCached(ctx, cdp, 'https://a.example/x');
    await forgetIfCached(ctx, cdp, 'https://a.example/x');
    expect(clears()).toBe(1);
  });

  test('notes are per context', async () => {
    const [a, b] = [{} as BrowserContext, {} as BrowserContext];
    const { cdp, clears } = session();
    noteCached(a, 'https://a.example/x');
    await forgetIfCached(b, cdp, 'https://a.example/x');
    expect(clears()).toBe(0);
    await forgetIfCached(a, cdp, 'https://a.example/x');
    expect(clears()).toBe(1);
  });

  test('past 8 MiB of noted bodies the next navigation clears, whatever its URL', async () => {
    const ctx = {} as BrowserContext;
    const { cdp, clears } = session();
    for (let i = 0; i < 94; i++) noteCached(ctx, `https://a.example/p${i}`, 87 * 1024);
    await forgetIfCached(ctx, cdp, 'https://b.example/new');
    expect(clears()).toBe(0);
    noteCached(ctx, 'https://a.example/p94', 87 * 1024);
    await forgetIfCached(ctx, cdp, 'https://b.example/new');
    expect(clears()).toBe(1);
    await forgetIfCached(ctx, cdp, 'https://a.example/p1');
    expect(clears()).toBe(1);
  });

  test('what the cache may keep, and its key', () => {
    expect([mayBeCached(200, {}), mayBeCached(301, {}), mayBeCached(302, {}), mayBeCached(200, { 'cache-control': 'private, no-store' })]).toEqual([true, true, false, false]);
    expect(cacheKey('https://a.example/x?q=1#frag')).toBe('https://a.example/x?q=1');
  });
});
