/**
 * The store contract (core/store/README.md): every store implementation runs this suite through
 * its own harness (lmdb.test.ts today; the JetStream store beside it).
 */
import { afterAll, describe } from 'vitest';
import { accountsContract } from './accounts.js';
import { crawlsContract } from './crawls.js';
import { deliveriesContract } from './deliveries.js';
import type { StoreHarness } from './harness.js';
import { jobsContract } from './jobs.js';
import { reservationsContract } from './reservations.js';
import { usageContract } from './usage.js';

export type { StoreHarness };

export function storeContract(name: string, harness: StoreHarness): void {
  describe(`store contract: ${name}`, () => {
    afterAll(() => harness.cleanup());
    describe('accounts, keys, users', () => accountsContract(harness));
    describe('jobs and the work queue', () => jobsContract(harness));
    describe('outbox and dead letters', () => deliveriesContract(harness));
    describe('usage, quotas, feed', () => usageContract(harness));
    describe('crawls: frontier, seen-set, pages', () => crawlsContract(harness));
    describe('quota reservations and id blocks', () => reservationsContract(harness));
  });
}
