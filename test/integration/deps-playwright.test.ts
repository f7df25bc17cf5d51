/**
 * farm/chromium-args.ts restates the launcher's (patchright-core, a pinned playwright-core fork) `--disable-features` list (Chromium
 * keeps only the last `--disable-features` switch, so ours must repeat Playwright's). This reads
 * the list the installed (pinned) Playwright really passes — from the command line of a browser
 * it launched with no arguments of ours — and fails loudly when an upgrade changes it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// The farm launches through patchright-core (farm/browser-server.ts): its list is the one repeated.
import { chromium } from 'patchright-core';
import { expect, test } from 'vitest';
import { defaultChromium } from '../../core/config.js';
import { PLAYWRIGHT_DISABLED_FEATURES, resolveExecutable } from '../../farm/chromium-args.js';

test("PLAYWRIGHT_DISABLED_FEATURES is the installed Playwright's own list, in its order", async () => {
  const server = await chromium.launchServer({ executablePath: resolveExecutable(defaultChromium()) });
  try {
    const pid = server.process().pid as number;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const switches = argv.filter((a) => a.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    expect(switches[0]!.slice('--disable-features='.length).split(',')).toEqual([...PLAYWRIGHT_DISABLED_FEATURES]);
  } finally {
    await server.close();
  }
});

/**
 * farm/browser/direct-session.ts (`stopLibraryInterception`) turns off the library's own request-stage
 * interception on fetch tabs by adding a route and removing it. That relies on two things the
 * pinned patchright-core does: every page it opens starts with interception on, and removing the
 * last route recomputes it from the routes left. Both are read from the installed bundle, so an
 * upgrade that changes either fails here rather than silently costing (or breaking) the fetch path.
 */
test('the library starts every page intercepted and recomputes interception from its routes', () => {
  // The package's exports hide lib/: the bundle is found next to its resolvable main entry.
  const bundle = readFileSync(join(dirname(createRequire(import.meta.url).resolve('patchright-core')), 'lib', 'coreBundle.js'), 'utf8');
  const crPage = bundle.slice(bundle.indexOf('CRPage = class {'), bundle.indexOf('FrameSession = class'));
  expect(crPage.length).toBeGreaterThan(1000);
  expect(crPage).toContain('this._networkManager.setRequestInterception(true);');
  expect(crPage).toMatch(/async updateRequestInterception\(\) \{\s*await this\._networkManager\.setRequestInterception\(this\._page\.needsRequestInterception\(\)\);/);
  expect(bundle).toMatch(/const enabled = this\._userRequestInterceptionEnabled \|\| !!this\._credentials\?\.length;/);
});

/**
 * farm/browser/direct-session.ts drives fetch tabs through the server side of a CDP session
 * (the in-process connection's `toImpl`). This opens a real page with the pinned library, in
 * process as the farm does, and checks that the direct session is really the server's (not the
 * client session handed back), that a command and an event go through it, and that a call on a
 * closed page fails with the client's wording (nav-page.ts reads it).
 */
test('a CDP session of an in-process page has a server side that sends, emits and reports a closed target', async () => {
  const { directSession, serverSessionOf } = await import('../../farm/browser/direct-session.js');
  const browser = await chromium.launch({ executablePath: resolveExecutable(defaultChromium()) });
  try {
    const page = await (await browser.newContext()).newPage();
    const client = await page.context().newCDPSession(page);
    expect(serverSessionOf(client)).toBeDefined();
    const direct = directSession(client);
    expect(direct).not.toBe(client);
    await direct.send('Page.enable');
    const navigated = new Promise<string>((resolve) => direct.on('Page.frameNavigated', (e) => resolve(e.frame.url)));
    const loaded = new Promise<void>((resolve) => direct.on('Page.loadEventFired', () => resolve()));
    const { frameTree } = await direct.send('Page.getFrameTree');
    expect(typeof frameTree.frame.id).toBe('string');
    await direct.send('Page.navigate', { url: 'data:text/html,<p>x</p>' });
    expect(await navigated).toBe('data:text/html,<p>x</p>');
    // Closed once loaded: Chromium answers a `Target.closeTarget` sent while the new document is
    // still committing with success and keeps the tab (seen here about one run in eight:
    // `page.close()` then waits forever), which is the browser's race, not the session's.
    await loaded;
    await page.close();
    await expect(direct.send('Page.getFrameTree')).rejects.toThrow(/Target page, context or browser has been closed/);
  } finally {
    await browser.close();
  }
});
