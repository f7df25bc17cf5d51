/**
 * farm/chromium-args.ts restates the launcher's (patchright-core, a pinned playwright-core fork) `--disable-features` list (Chromium
 * keeps only the last `--disable-features` switch, so ours must repeat Playwright's). This reads
 * the list the installed (pinned) Playwright really passes — from the command line of a browser
 * it launched with no arguments of ours — and fails loudly when an upgrade changes it.
 */
import { readFileSync } from 'node:fs';
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
