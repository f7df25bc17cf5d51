/**
 * Crawlee's CheerioCrawler as a peer row of the static comparison: the same simulator pages,
 * the same HTML → Markdown conversion (our converter, so that the row measures the crawler,
 * not a different converter), in-memory storage, no retries, a fixed concurrency.
 * Bench-only dependency: `npm install --prefix bench` (see bench/README.md).
 */
// The next two modules are bench-only (bench/node_modules): without them `tsc` still passes
// (the imports are then untyped) and the row reports that Crawlee is not installed.
// @ts-ignore -- resolved only after `npm install --prefix bench`
import { CheerioCrawler, Configuration, log, LogLevel } from '@crawlee/cheerio';
// @ts-ignore -- resolved only after `npm install --prefix bench`
import { MemoryStorage } from '@crawlee/memory-storage';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import type { RunStats } from '../farm/measure.js';
import { createTally, drive, type Req } from './drive.js';

export async function crawlCheerio(name: string, urls: readonly string[], warm: readonly string[], concurrency: number): Promise<RunStats> {
  log.setLevel(LogLevel.ERROR);
  const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }) });
  const tally = createTally();
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      autoscaledPoolOptions: { desiredConcurrency: concurrency },
      maxRequestRetries: 0,
      keepAlive: true,
      preNavigationHooks: [({ request }: { request: Req }) => tally.start(request.uniqueKey)],
      requestHandler: async ({ request, body }: { request: Req; body: string | Buffer }) => {
        htmlToMarkdown(typeof body === 'string' ? body : body.toString('utf8'), request.url);
        tally.end(request.uniqueKey, true);
      },
      failedRequestHandler: ({ request }: { request: Req }) => tally.end(request.uniqueKey, false),
    },
    config,
  );
  return drive(name, concurrency, crawler, tally, urls, warm);
}
