/**
 * Crawlee's PlaywrightCrawler as a peer row of the browser comparison: the same browser binary
 * (GLEANER_CHROMIUM's default, /usr/bin/chromium-headless-shell), the same script page and the
 * same wait (load, then network idle, then the page's HTML), in-memory storage, no retries, a
 * fixed concurrency. Crawlee's defaults otherwise (shared context, fingerprints), except that
 * the browser is not retired mid-run.
 */
// Bench-only modules (bench/node_modules): see the note in cheerio.ts.
// @ts-ignore -- resolved only after `npm install --prefix bench`
import { Configuration, log, LogLevel, PlaywrightCrawler } from '@crawlee/playwright';
// @ts-ignore -- resolved only after `npm install --prefix bench`
import { MemoryStorage } from '@crawlee/memory-storage';
// @ts-ignore -- resolved only after `npm install --prefix bench`
import { chromium } from 'playwright';
import type { RunStats } from '../farm/measure.js';
import { createTally, drive, type Req } from './drive.js';

/** What the handler uses of Playwright's Page. */
interface PageLike {
  waitForLoadState(state: 'networkidle'): Promise<void>;
  content(): Promise<string>;
}

export async function crawlPlaywright(name: string, urls: readonly string[], warm: readonly string[], concurrency: number, executablePath: string): Promise<RunStats> {
  log.setLevel(LogLevel.ERROR);
  const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }) });
  const tally = createTally();
  const crawler = new PlaywrightCrawler(
    {
      launchContext: { launcher: chromium, launchOptions: { executablePath, headless: true } },
      browserPoolOptions: { retireBrowserAfterPageCount: urls.length + warm.length + 100, maxOpenPagesPerBrowser: Math.max(20, concurrency) },
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      autoscaledPoolOptions: { desiredConcurrency: concurrency },
      maxRequestRetries: 0,
      keepAlive: true,
      navigationTimeoutSecs: 30,
      preNavigationHooks: [
        ({ request }: { request: Req }, gotoOptions?: { waitUntil?: string }) => {
          tally.start(request.uniqueKey);
          if (gotoOptions) gotoOptions.waitUntil = 'load';
        },
      ],
      requestHandler: async ({ page, request }: { page: PageLike; request: Req }) => {
        await page.waitForLoadState('networkidle');
        await page.content();
        tally.end(request.uniqueKey, true);
      },
      failedRequestHandler: ({ request }: { request: Req }) => tally.end(request.uniqueKey, false),
    },
    config,
  );
  return drive(name, concurrency, crawler, tally, urls, warm);
}
