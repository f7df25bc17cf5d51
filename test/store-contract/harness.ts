/**
 * What the store contract needs of an implementation: fresh stores, a second handle on the same
 * store (another process, or another node, sees it through one), and a worker's result writer.
 * Assertions across handles wait with a deadline (the cluster store's replicas are fresh within
 * a second or two); assertions on one handle read their own writes at once.
 */
import type { JobRecord, ResultWriter } from '../../core/store/jobs.js';
import type { Store } from '../../core/store/index.js';
import type { UsageEntry } from '../../core/store/usage.js';
import type { PageResult } from '../../core/wire.js';
import { newJobRecord } from '../../gateway/handlers/jobs.js';

export interface StoreHarness {
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** Another handle on the same store as `store`. */
  openAnother(store: Store): Promise<Store>;
  /** The result writer a worker thread of `store`'s service would open. */
  resultWriter(store: Store): ResultWriter;

  /** Removes what the harness made (called once, after the suite). */
  cleanup(): Promise<void>;
}

/** How long a change may take to show through another handle. */
export const VISIBLE_WITHIN_MS = 2_000;

/** Polls `check` until it holds, or throws after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = VISIBLE_WITHIN_MS, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`store contract: ${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A pending Web API job as the front door makes it (gateway/handlers/jobs.ts). */
export function jobRecord(clientId: number, overrides: Partial<JobRecord> = {}): JobRecord {
  return { ...newJobRecord(clientId, overrides.routeId ?? 'universal', overrides.params ?? { url: 'http://127.0.0.1:9/page' }, 'async'), ...overrides };
}

export function usageEntry(clientId: number, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    clientId,
    at: Date.now(),
    product: 'web_scraper_api',
    source: 'universal',
    mode: 'callback',
    parsed: false,
    render: false,
    geo: false,
    results: 1,
    responseTimeMs: 40,
    requestBytes: 10,
    responseBytes: 1000,
    ...overrides,
  };
}

export function page(html: string): PageResult {
  return { html, markdown: null, screenshot: null, json: null, metadata: { page: 1, run_js: false, url: 'http://127.0.0.1:9/page', status_code: 200 } };
}
