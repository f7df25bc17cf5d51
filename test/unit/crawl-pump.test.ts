/**
 * The crawl pump against a store whose frontier reads answer late (farm/crawl/run.ts): pages end
 * while a read is on its way, and the read still lists them. A cluster store (NATS KV) answers
 * after a network round trip, during which page commits land; this is the race that had a
 * crawl fetch pages twice in one run (seen in test/cluster/crawl.test.ts). The store is the real
 * embedded one, in a temporary folder, with each frontier read held back after it is made; the
 * pages come from a farm stand-in that answers a fixed site (the crawl engine's seam to the farm,
 * `TaskRunner`), so the test counts exactly which URLs the crawl asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../core/log.js';
import { openStore, type Store } from '../../core/store/index.js';
import type { CrawlStore } from '../../core/store/crawls.js';
import type { JobRecord } from '../../core/store/jobs.js';
import type { ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import { CrawlEngine } from '../../farm/crawl/engine.js';

const ORIGIN = 'http://site.test';
const SECTIONS = 8;
const LEAVES = 5;

/** The site: `/` links every section; a section links `/`, every section and its leaves; a leaf links its section. */
function linksOf(path: string): string[] {
  const sections = Array.from({ length: SECTIONS }, (_, i) => `${ORIGIN}/s${i}`);
  if (path === '/') return sections;
  const m = /^\/s(\d+)(?:\/p(\d+))?$/.exec(path);
  if (!m) return [];
  if (m[2] !== undefined) return [`${ORIGIN}/s${m[1]}`];
  return [`${ORIGIN}/`, ...sections, ...Array.from({ length: LEAVES }, (_, j) => `${ORIGIN}/s${m[1]}/p${j}`)];
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-crawl-pump-'));
  store = await openStore({ dataDir: dir });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('pages that end while a frontier read is on its way are not started again', async () => {
  const asked = new Map<string, number>();
  const farm = {
    stats: () => ({ queued: 0 }),
    async run(task: ScrapeTask): Promise<ScrapeOutcome> {
      const path = new URL(String(task.params.url)).pathname;
      asked.set(path, (asked.get(path) ?? 0) + 1);
      // Pages take 2-9 ms: several end during each held-back frontier read.
      await new Promise((r) => setTimeout(r, 2 + (path.length * 7) % 8));
      const result = { html: null, markdown: `# ${path}`, screenshot: null, json: null, metadata: { status: 200, url: `${ORIGIN}${path}` } } as unknown as ScrapeOutcome['results'][number];
      return { status: 200, results: [result], usage: { pages: 1, render: false, requestBytes: 100, responseBytes: 1000, elapsedMs: 5 }, crawl: { links: linksOf(path), startedAt: Date.now() } };
    },
  };
  // The embedded store answers a read at once; held back 20 ms after it is made, as a
  // networked store's answer arrives after the state it describes has moved on.
  const crawls = new Proxy(store.crawls, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'frontier' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<CrawlStore['frontier']>) => {
        const head = await (value as CrawlStore['frontier']).apply(target, args);
        await new Promise((r) => setTimeout(r, 20));
        return head;
      };
    },
  });
  const engine = new CrawlEngine({
    crawls,
    farm,
    log: createLogger('silent'),
    pageTimeoutMs: 10_000,
    concurrency: 8,
    chargeOf: () => undefined,
    quotaCheck: () => undefined,
  });
  const params = {
    url: `${ORIGIN}/`, limit: 5000, max_depth: 10, include_paths: [], exclude_paths: [], allow_subdomains: false, allow_external: false,
    ignore_query_parameters: false, sitemap: 'skip', respect_robots: false, delay_ms: 0, max_concurrency_per_host: 8, scrape: { output: ['markdown'] },
  };
  const job = { id: 'crawl-pump-1', clientId: 1, routeId: 'crawl', mode: 'async', api: 'web', params, status: 'running', createdAt: Date.now(), updatedAt: Date.now(), attempts: 1, priority: 0, deliveries: {} } as unknown as JobRecord;

  const outcome = await engine.run(job, new AbortController().signal);
  expect(outcome.ok).toBe(true);
  const pages = 1 + SECTIONS + SECTIONS * LEAVES;
  expect((await store.crawls.get(job.id))?.counts.done).toBe(pages);
  expect(asked.size).toBe(pages);
  expect([...asked].filter(([, n]) => n > 1)).toEqual([]);
});
