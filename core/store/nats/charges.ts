/**
 * Charging exactly once across failover: the usage ledger (`<ns>_usage`) and the quota totals
 * (`<ns>_totals`) are folds of one stream of charges (`<ns>_charges`).
 *
 * - A charge is published with a message id (the job id for async jobs): a retried or repeated
 *   publish within the dedupe window is stored once (JetStream dedupe).
 * - The fold reads the stream in sequence order from the watermark (`w` in the totals bucket)
 *   and adds each charge to its ledger row and totals with compare-and-set. Every row and total
 *   remembers the last sequence folded into it, and a fold of (W, E] adds to a row only the
 *   charges above that mark, then sets it to E. So two nodes folding at once, or a node dying
 *   mid-fold and another redoing it, never add a charge twice; the watermark moves only after
 *   every row of its range is written.
 * - A writer (`JobStore.finish`, `UsageLedger.record`) waits until its charge is folded and this
 *   node's totals replica has seen the watermark pass it: its own reads then include it.
 */
import type { KV, KvEntry } from '@nats-io/kv';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { addEntry, dayOf, type UsageCounters, type UsageEntry } from '../usage.js';
import { dayKey, monthKey } from '../quotas.js';
import { casUpdate } from './accounts.js';
import { fromJson, keyPart, toJson, type Names } from './connection.js';
import type { Replica } from './replica.js';
import { publishRetrying } from './publish.js';

const BATCH = 256;
const WATERMARK = 'w';

export interface Row {
  c: UsageCounters;
  s: number;
  /** The row's fields, so rows() need not decode keys. */
  day: string;
  product: string;
  source: string;
  parsed: boolean;
}
interface Total {
  n: number;
  s: number;
}

export function rowKey(e: UsageEntry): string {
  return `${e.clientId}.${dayOf(e.at)}.${e.product}.${keyPart(e.source)}.${e.parsed ? 1 : 0}`;
}

export function totalKey(clientId: number, period: string, kind: 'pages' | 'rendered'): string {
  return `t.${clientId}.${period}.${kind}`;
}

/** How often a node folds the stream's tail that nobody folded (see `startCatchUp`). */
export const CATCH_UP_MS = 5_000;

export class Charges {
  private folding: Promise<number> | undefined;
  private readonly waiters = new Set<() => void>();
  private catchUpTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: Names,
    private readonly usage: KV,
    private readonly totals: KV,
    private readonly replica: Replica<unknown>,
  ) {
    replica.onChange((key) => {
      if (key === WATERMARK) for (const w of this.waiters) w();
    });
  }

  /** The watermark as this node's replica has it. */
  private seen(): number {
    return (this.replica.get(WATERMARK) as { seq: number } | undefined)?.seq ?? 0;
  }

  /** Publishes a charge (`msgId`: the same id is stored once) and waits until this node reads it. */
  async charge(entry: UsageEntry, msgId: string): Promise<void> {
    if (entry.results <= 0) return;
    const ack = await publishRetrying(this.js, this.names.chargesSubject, toJson(entry), msgId);
    await this.settled(ack.seq);
  }

  /** Folds until `seq` is in the ledger and this node's replica has seen it. */
  async settled(seq: number): Promise<void> {
    for (let i = 0; this.seen() < seq; i++) {
      const folded = await this.fold();
      if (folded >= seq && this.seen() < seq) {
        // Folded (here or elsewhere): wait for the watch to bring the watermark.
        await new Promise<void>((resolve) => {
          const done = () => {
            this.waiters.delete(done);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(done, 200);
          this.waiters.add(done);
        });
      }
      if (i > 10_000) throw new Error(`charge ${seq} was not folded`);
    }
  }

  /**
   * Folds every `everyMs` while the stream is ahead of the watermark. A charge's publisher folds
   * it, but one killed between its publish and its fold (or whose fold failed in an election)
   * leaves it unfolded until the next charge, which on a quiet cluster may be never: the totals
   * and quotas would read short. One stream-info request per node per period when idle.
   */
  startCatchUp(everyMs = CATCH_UP_MS, onError?: (err: unknown) => void): void {
    this.catchUpTimer ??= setInterval(() => void this.fold().catch((err: unknown) => onError?.(err)), everyMs);
    this.catchUpTimer.unref();
  }

  stop(): void {
    clearInterval(this.catchUpTimer);
    this.catchUpTimer = undefined;
  }

  /** One fold at a time per node; returns the watermark after it. */
  fold(): Promise<number> {
    this.folding ??= this.foldOnce().finally(() => (this.folding = undefined));
    return this.folding;
  }

  private async foldOnce(): Promise<number> {
    const w = await this.totals.get(WATERMARK);
    const from = w?.operation === 'PUT' ? fromJson<{ seq: number }>(w.value).seq : 0;
    const last = (await this.jsm.streams.info(this.names.charges)).state.last_seq;
    if (last <= from) return from;
    const to = Math.min(last, from + BATCH);
    const seqs = Array.from({ length: to - from }, (_, i) => from + 1 + i);
    const charges = await Promise.all(
      seqs.map(async (seq) => {
        const m = await this.jsm.streams.getMessage(this.names.charges, { seq });
        return { seq, entry: m ? (m.json<UsageEntry>()) : undefined };
      }),
    );
    const rows = new Map<string, Array<{ seq: number; entry: UsageEntry }>>();
    const totals = new Map<string, Array<{ seq: number; n: number }>>();
    for (const { seq, entry } of charges) {
      if (!entry || entry.results <= 0) continue;
      push(rows, rowKey(entry), { seq, entry });
      const day = dayKey(entry.at);
      const month = monthKey(entry.at);
      const kinds: Array<'pages' | 'rendered'> = entry.render ? ['pages', 'rendered'] : ['pages'];
      for (const kind of kinds) for (const period of [day, month]) push(totals, totalKey(entry.clientId, period, kind), { seq, n: entry.results });
    }
    let complete = true;
    await Promise.all([
      ...[...rows].map(([key, items]) =>
        casUpdate<Row>(this.usage, key, (row) => {
          const mark = row?.s ?? 0;
          if (mark >= to) return undefined;
          let c = row?.c ?? ({} as UsageCounters);
          for (const { seq, entry } of items) if (seq > mark) c = addEntry(c, entry);
          const e = items[0]!.entry;
          return { c, s: to, day: dayOf(e.at), product: e.product, source: e.source, parsed: e.parsed };
        }),
      ),
      ...[...totals].map(([key, items]) =>
        casUpdate<Total>(this.totals, key, (total) => {
          const mark = total?.s ?? 0;
          if (mark >= to) return undefined;
          let n = total?.n ?? 0;
          for (const item of items) if (item.seq > mark) n += item.n;
          return { n, s: to };
        }).then((written) => {
          // Read-your-writes for quotas; a total another node wrote arrives through the watch.
          if (written) this.replica.applied(key, written.revision, written.value);
          else complete = false;
        }),
      ),
    ]);
    const moved = await casUpdate<{ seq: number }>(this.totals, WATERMARK, (cur) => ((cur?.seq ?? 0) >= to ? undefined : { seq: to }));
    // The watermark goes into this node's replica now only if every total of the range did too.
    if (moved && complete) this.replica.applied(WATERMARK, moved.revision, moved.value);
    return to;
  }
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

export function decodeTotal(e: KvEntry): unknown {
  return fromJson<unknown>(e.value);
}
