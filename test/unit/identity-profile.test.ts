/**
 * The profile module: Chromium's GREASE brand and order per major version, Chrome's
 * Accept-Language, one profile per session key, coherence of each row.
 */
import { describe, expect, test } from 'vitest';
import { acceptLanguageOf, approximateMemory, brandLists } from '../../farm/identity/chromium-formulas.js';
import { allProfiles, profileFor, sessionKeyOf, useBrowserVersion } from '../../farm/identity/profile.js';

describe('brand lists (Chromium user_agent_utils.cc)', () => {
  test('the GREASE brand and the order follow the major version', () => {
    // Read off real Chromium builds: 156 (this machine's), and Chrome's published lists.
    expect(brandLists(156, '156.0.8078.108', undefined)).toEqual({
      brands: [{ brand: 'Not:A-Brand', version: '8' }, { brand: 'Chromium', version: '156' }],
      fullVersionList: [{ brand: 'Not:A-Brand', version: '8.0.0.0' }, { brand: 'Chromium', version: '156.0.8078.108' }],
    });
    expect(brandLists(120, '120.0.6099.109', 'Google Chrome').brands).toEqual([
      { brand: 'Not_A Brand', version: '8' }, { brand: 'Chromium', version: '120' }, { brand: 'Google Chrome', version: '120' },
    ]);
    expect(brandLists(131, '131.0.6778.85', 'Google Chrome').brands).toEqual([
      { brand: 'Google Chrome', version: '131' }, { brand: 'Chromium', version: '131' }, { brand: 'Not_A Brand', version: '24' },
    ]);
  });
});

test('Accept-Language as Chrome derives it from the language list', () => {
  expect(acceptLanguageOf(['en-US', 'en'])).toBe('en-US,en;q=0.9');
  expect(acceptLanguageOf(['de-DE', 'de', 'en-US', 'en'])).toBe('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7');
  expect(acceptLanguageOf(Array.from({ length: 12 }, (_, i) => `l${i}`)).split(',').at(-1)).toBe('l11;q=0.1');
});

test('navigator.deviceMemory is the nearer power of two, ties down', () => {
  expect([approximateMemory(24 * 2 ** 30), approximateMemory(12 * 2 ** 30), approximateMemory(13 * 2 ** 30), approximateMemory(2 ** 27)]).toEqual([16, 8, 16, 0.25]);
});

describe('profileFor', () => {
  test('one profile per session, rotated across sessions, languages and zone from the country', () => {
    useBrowserVersion('156.0.8078.108');
    const a = profileFor({ sessionKey: sessionKeyOf('s', 'http://p1:1'), device: 'desktop' });
    expect(profileFor({ sessionKey: sessionKeyOf('s', 'http://p1:1'), device: 'desktop' })).toBe(a);
    const ids = new Set(Array.from({ length: 40 }, (_, i) => profileFor({ sessionKey: sessionKeyOf(undefined, `http://p${i}:1`), device: 'desktop' }).id));
    expect(ids.size).toBeGreaterThan(3);
    const de = profileFor({ sessionKey: sessionKeyOf('s', 'http://p1:1'), device: 'desktop', country: 'DE' });
    expect([de.languages, de.acceptLanguage, de.timezone, de.screen]).toEqual([['de-DE', 'de', 'en-US', 'en'], 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'Europe/Berlin', a.screen]);
    const none = profileFor({ sessionKey: 'x', device: 'desktop', country: 'zz' });
    expect([none.languages, none.timezone]).toEqual([['en-US', 'en'], Intl.DateTimeFormat().resolvedOptions().timeZone]);
  });

  test('desktop says what this machine runs: Linux Chromium of the binary version, never Headless', () => {
    useBrowserVersion('156.0.8078.108');
    for (const p of allProfiles('desktop')) {
      expect(p.userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36');
      expect([p.platform, p.userAgentData.platform, p.userAgentData.architecture, p.userAgentData.bitness, p.userAgentData.mobile]).toEqual(['Linux x86_64', 'Linux', 'x86', '64', false]);
      expect(p.userAgentData.brands.map((b) => b.brand)).toEqual(['Not:A-Brand', 'Chromium']);
    }
  });

  test('mobile is Android Chrome with a model; every row is a plausible window on its screen', () => {
    useBrowserVersion('156.0.8078.108');
    for (const p of allProfiles('mobile')) {
      expect(p.userAgent).toBe('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36');
      expect([p.userAgentData.platform, p.userAgentData.mobile, p.isMobile, p.hasTouch, p.maxTouchPoints > 0]).toEqual(['Android', true, true, true, true]);
      expect(p.userAgentData.model).not.toBe('');
      expect(p.userAgentData.brands.map((b) => b.brand)).toEqual(['Not:A-Brand', 'Chromium', 'Google Chrome']);
    }
    for (const p of [...allProfiles('desktop'), ...allProfiles('mobile')]) {
      expect(JSON.stringify(p)).not.toMatch(/Headless/i);
      expect(p.window.width).toBeLessThanOrEqual(p.screen.availWidth);
      expect(p.window.height).toBeLessThanOrEqual(p.screen.availHeight);
      expect(p.viewport.width).toBeLessThanOrEqual(p.window.width);
      expect(p.viewport.height).toBeLessThan(p.window.height);
    }
  });

  test('after a wall a session gets a fresh identity: the next row, never the walled one', () => {
    useBrowserVersion('156.0.8078.108');
    for (const device of ['desktop', 'mobile'] as const) {
      const key = sessionKeyOf('s', 'http://p1:1');
      const rows = allProfiles(device).length;
      const seen = Array.from({ length: rows }, (_, fresh) => profileFor({ sessionKey: key, device, fresh }).id);
      expect(new Set(seen).size).toBe(rows);
      expect(profileFor({ sessionKey: key, device, fresh: rows }).id).toBe(seen[0]);
      expect(profileFor({ sessionKey: key, device, fresh: 0 })).toBe(profileFor({ sessionKey: key, device }));
    }
  });

  test('an unknown browser version falls back to a fixed one', () => {
    useBrowserVersion(undefined);
    expect(profileFor({ sessionKey: 'k', device: 'desktop' }).userAgent).toMatch(/Chrome\/140\.0\.0\.0 /);
    useBrowserVersion('156.0.8078.108');
  });
});
