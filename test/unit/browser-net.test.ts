/**
 * Which plain tasks the pool sends to a render thread from the start (farm/net/browser-net.ts):
 * the same decision the workers make per request, taken per task on the main thread.
 */
import { expect, test } from 'vitest';
import { loadConfig, type Config } from '../../core/config.js';
import { navigatesInBrowser, taskNavigatesInBrowser, type BrowserNetSetup } from '../../farm/net/browser-net.js';
import { task } from '../helpers/farm.js';

const FULL = '/usr/lib/chromium/chromium';
const SHELL = '/usr/lib/chromium/chromium-headless-shell';

function setup(plainClient: Config['plainClient'], executablePath: string | undefined = FULL): BrowserNetSetup {
  return { config: loadConfig({}, { plainClient }), browserLaunch: { executablePath } };
}

test('auto: https navigations with full Chromium; not cleartext, not the headless shell (or no browser named), never native', () => {
  const https = task({ url: 'https://shop.example/p/1' });
  const http = task({ url: 'http://shop.example/p/1' });
  expect([
    taskNavigatesInBrowser(setup('auto'), https),
    taskNavigatesInBrowser(setup('auto'), http),
    taskNavigatesInBrowser(setup('auto', SHELL), https),
    taskNavigatesInBrowser({ ...setup('auto'), browserLaunch: { executablePath: undefined } }, https),
    taskNavigatesInBrowser(setup('native'), https),
    taskNavigatesInBrowser(setup('chromium'), http),
    taskNavigatesInBrowser(setup('chromium', SHELL), http),
  ]).toEqual([true, false, false, false, false, true, true]);
});

test('a task that cannot be planned is left to its worker (it answers the refusal)', () => {
  expect(taskNavigatesInBrowser(setup('auto'), task({ url: 'https://shop.example/' }, { routeId: 'no/such/route' }))).toBe(false);
  expect(taskNavigatesInBrowser(setup('auto'), task({}))).toBe(false);
});

test("per request: a script's fetch() (JSON accept, a JSON POST) stays native", () => {
  const s = setup('chromium');
  expect([
    navigatesInBrowser(s, { url: 'https://a.example/', method: 'GET' }),
    navigatesInBrowser(s, { url: 'https://a.example/', method: 'GET', headers: { Accept: 'application/json' } }),
    navigatesInBrowser(s, { url: 'https://a.example/', method: 'POST', headers: { 'content-type': 'application/json' } }),
    navigatesInBrowser(s, { url: 'ftp://a.example/', method: 'GET' }),
  ]).toEqual([true, false, false, false]);
});
