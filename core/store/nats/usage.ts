/**
 * The usage ledger on JetStream: sync requests publish a charge (a fresh message id, retried
 * with the same id through elections) and wait for its fold (charges.ts); rows are read from
 * the `<ns>_usage` bucket, keys `<clientId>.<day>.<product>.<source>.<parsed>`.
 */
import { randomBytes } from 'node:crypto';
import type { Product } from '../../registry/types.js';
import type { UsageEntry, UsageLedger, UsageRow } from '../usage.js';
import type { Charges, Row } from './charges.js';
import { fromJson, type Handles } from './connection.js';
import { listKeys } from './key-list.js';

export class NatsUsage implements UsageLedger {
  constructor(
    private readonly h: Handles,
    private readonly charges: Charges,
  ) {}

  async record(entry: UsageEntry): Promise<void> {
    await this.charges.charge(entry, `sync.${randomBytes(12).toString('hex')}`);
  }

  async rows(clientId: number, from = '0000-00-00', to = '9999-99-99'): Promise<UsageRow[]> {
    const keys = await listKeys(this.h.jsm, this.h.names.usage, `${clientId}.>`);
    const rows: UsageRow[] = [];
    await Promise.all(
      keys.map(async (key) => {
        const e = await this.h.usage.get(key);
        if (!e || e.operation !== 'PUT') return;
        const row = fromJson<Row>(e.value);
        if (row.day < from || row.day > to) return;
        rows.push({ day: row.day, product: row.product as Product, source: row.source, parsed: row.parsed, counters: row.c });
      }),
    );
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return rows.sort((a, b) => cmp(a.day, b.day) || cmp(a.product, b.product) || cmp(a.source, b.source) || Number(a.parsed) - Number(b.parsed));
  }
}
