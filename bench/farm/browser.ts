/**
 * Rendering throughput: raw playwright-core (one browser, a fresh context per page) against
 * the farm (`run_js: true`), on the simulator's script page, in one process.
 *   node --import tsx bench/farm/browser.ts [--pages 60] [--concurrency 4]
 * CPU ms/page: this process plus (farm) its browser-server process; Chromium's own CPU is in neither.
 */
import { chromium } from 'playwright-core';
import { defaultChromium, loadConfig } from '../../core/config.js';
import { resolveExecutable } from '../../farm/chromium-args.js';
import { createFarm } from '../../farm/index.js';
import { startSimulator } from '../../test/sites/server.js';
import { task } from '../../test/helpers/farm.js';
import { arg, chromiumChild, measure, parentOf, printTable } from './measure.js';

const pages = arg('pages', 60);
const concurrency = arg('concurrency', 4);
const sim = await startSimulator();
const url = `${sim.origin}/js-only`;

const browser = await chromium.launch({ executablePath: resolveExecutable(defaultChromium()) });
const pid = chromiumChild();
const raw = await measure(
  'raw playwright (fresh context per page)',
  pages,
  concurrency,
  async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    await page.content();
    await context.close();
  },
  () => pid,
);
await browser.close();

const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true }) });
await farm.run(task({ url, run_js: true })); // launch the browser, warm the workers
const ours = await measure(
  'farm (run_js true)',
  pages,
  concurrency,
  async () => {
    await farm.run(task({ url, run_js: true }));
  },
  () => farm.stats().browserPid,
  () => parentOf(farm.stats().browserPid),
);
await farm.close();
await sim.close();
printTable([raw, ours]);
