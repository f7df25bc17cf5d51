/**
 * The delivery outbox runner: takes due entries from the store's durable outbox
 * (core/store/deliveries.ts), performs the webhook POST or bucket upload, and records the
 * outcome on the job.
 *
 * - At least once: an entry leaves the outbox only after its attempt is recorded, so a crash
 *   mid-delivery repeats that delivery after restart (receivers dedupe on `Gleaner-Delivery`).
 * - Retries: exponential backoff with full jitter until the retry horizon (`policy.horizonMs`,
 *   24 h by default, counted from the job's finish or an operator's retry; `maxAttempts` bounds
 *   the count only when set); non-retryable answers (4xx other than 408/429, a malformed
 *   bucket URL) fail at once. A failed delivery goes to the dead-letter list, from which
 *   `gleaner deliveries retry` puts it back in the outbox; an idle outbox looks for such
 *   entries every `pollMs`.
 * - Bounded: at most `concurrency` deliveries in flight; each attempt has a deadline.
 * Payloads are rendered by the front door that created the job (Web API or Job API shapes).
 */
import type { Logger } from '../../core/log.js';
import type { Account } from '../../core/store/accounts.js';
import type { DeliveryStore } from '../../core/store/deliveries.js';
import type { FeedEvents } from '../../core/store/feed.js';
import type { JobRecord, JobStore, OutboxEntry } from '../../core/store/jobs.js';
import { CRAWL_ROUTE_ID } from '../../core/store/crawls.js';
import { attemptCrawlDelivery, type CrawlDeliveryOptions } from '../crawl/deliveries.js';
import { credentialsFor, decideRetry, isStorageType, postWebhook, uploadResult, type AttemptResult, type DeliveryConfig, type RetryPolicy } from '../delivery/index.js';

export interface DeliveryPayloads {
  /** The webhook body for a finished job. */
  webhook(job: JobRecord): string;
  /** The object written to the bucket for a done job (it reads the job's result). */
  storage(job: JobRecord): Promise<string>;
}

export interface OutboxOptions {
  jobs: JobStore;
  deliveries: DeliveryStore;
  /** How long a finished job is kept; a job owed a delivery is kept this long past its next attempt. */
  retentionMs: number;
  accounts: { getAccount(clientId: number): Account | undefined };
  events: FeedEvents;
  log: Logger;
  payloads: DeliveryPayloads;
  delivery: DeliveryConfig;
  policy: RetryPolicy;
  allowPrivate: boolean;
  concurrency?: number;
  attemptTimeoutMs?: number;
  /** An idle outbox looks for due entries this often (ms), so entries put back by the CLI are seen. */
  pollMs?: number;
  /** Crawls' deliveries (page batches, page objects, crawl.done, the index): farm/crawl/deliveries.ts. */
  crawls?: CrawlDeliveryOptions;
}

export class Outbox {
  /** Wakes everyone waiting in close(): only once nothing is in flight. */
  private settleIdle(): void {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A tick is reading the outbox; a wake meanwhile asks for one more tick after it. */
  private ticking = false;
  private again = false;
  private readonly inFlight = new Map<string, AbortController>();
  private stopped = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly opts: OutboxOptions) {}

  /** New bucket credentials (GLEANER_STORAGE re-read on reload); the next attempt uses them. */
  reconfigure(delivery: DeliveryConfig): void {
    this.opts.delivery = delivery;
  }

  start(): void {
    this.wake();
  }

  /** Called when new entries may be due (a job finished). */
  wake(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    while (this.inFlight.size > 0) await new Promise<void>((r) => this.idle.add(r));
  }

  destroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const c of this.inFlight.values()) c.abort();
  }

  private tick(): void {
    if (this.stopped) return;
    // Reads of the outbox are async: one tick at a time, so two cannot start the same entry
    // or leave two timers behind.
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    this.again = false;
    this.takeDue()
      .catch((err: unknown) => this.opts.log.error({ err }, 'outbox failed to read due deliveries'))
      .finally(() => {
        this.ticking = false;
        if (this.again) this.wake();
      });
  }

  private async takeDue(): Promise<void> {
    const limit = (this.opts.concurrency ?? 8) - this.inFlight.size;
    if (limit > 0) {
      const due = await this.opts.deliveries.dueDeliveries(Date.now(), limit + this.inFlight.size);
      if (this.stopped) return;
      for (const entry of due) {
        const key = `${entry.jobId}:${entry.kind}`;
        if (this.inFlight.has(key) || this.inFlight.size >= (this.opts.concurrency ?? 8)) continue;
        const controller = new AbortController();
        this.inFlight.set(key, controller);
        this.attempt(entry, controller.signal)
          .catch((err: unknown) => this.opts.log.error({ err, job_id: entry.jobId }, 'outbox failed to record a delivery'))
          .finally(() => {
            this.inFlight.delete(key);
            if (this.inFlight.size === 0) this.settleIdle();
            this.wake();
          });
      }
    }
    if (this.inFlight.size === 0 && !this.again) {
      const next = await this.opts.deliveries.nextDeliveryDue();
      if (this.stopped) return;
      const poll = this.opts.pollMs ?? 5000;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.tick(), Math.max(0, Math.min(next === undefined ? poll : next - Date.now(), poll)));
      this.timer.unref();
    }
  }

  private async attempt(entry: OutboxEntry, signal: AbortSignal): Promise<void> {
    const { jobs, deliveries, log, events, retentionMs } = this.opts;
    const job = await jobs.get(entry.jobId);
    if (!job) return void (await deliveries.recordDelivery(entry, { state: 'failed', error: 'job expired' }, retentionMs));
    const timeoutMs = this.opts.attemptTimeoutMs ?? 30_000;
    let result: AttemptResult;
    const storageCreds = (): ReturnType<typeof credentialsFor> | undefined => {
      const storage = job.params.storage as { type: string } | null | undefined;
      return storage && isStorageType(storage.type) ? credentialsFor(this.opts.delivery, storage.type) : undefined;
    };
    if (job.routeId === CRAWL_ROUTE_ID && this.opts.crawls) {
      result = await attemptCrawlDelivery(entry, job, this.opts.crawls, {
        secret: this.opts.accounts.getAccount(job.clientId)?.webhookSecret ?? '',
        creds: entry.kind === 'storage' ? storageCreds() : undefined,
        signal,
        timeoutMs,
        allowPrivate: this.opts.allowPrivate,
      });
    } else if (entry.kind === 'webhook') {
      const secret = this.opts.accounts.getAccount(job.clientId)?.webhookSecret ?? '';
      result = await postWebhook(job.params.callback_url as string, this.opts.payloads.webhook(job), secret, {
        event: job.status === 'done' ? 'job.done' : 'job.faulted',
        deliveryId: `${job.id}-webhook`,
        signal,
        timeoutMs,
        allowPrivate: this.opts.allowPrivate,
      });
    } else {
      const storage = job.params.storage as { type: string; url: string };
      const creds = isStorageType(storage.type) ? credentialsFor(this.opts.delivery, storage.type) : undefined;
      result = await uploadResult(storage, await this.opts.payloads.storage(job), creds, { jobId: job.id, clientId: job.clientId, signal, timeoutMs, allowPrivate: this.opts.allowPrivate });
    }
    if (signal.aborted && this.stopped) return; // destroyed: the entry stays for the next start
    const attempts = entry.attempt + 1;
    let recorded: JobRecord | undefined;
    if (result.ok) {
      recorded = await deliveries.recordDelivery(entry, { state: 'delivered' }, retentionMs);
    } else {
      const since = job.deliveries[entry.kind]?.since ?? job.finishedAt ?? entry.dueAt;
      const decision = decideRetry(attempts, result, this.opts.policy, Math.random, Date.now() - since);
      if (decision.retry) {
        await deliveries.recordDelivery(entry, { state: 'pending', error: result.error, retryAt: Date.now() + decision.delayMs }, retentionMs);
        log.warn({ job_id: job.id, kind: entry.kind, attempt: attempts, error: result.error, retry_in_ms: decision.delayMs }, 'delivery failed, will retry');
        return;
      }
      recorded = await deliveries.recordDelivery(entry, { state: 'failed', error: decision.reason }, retentionMs);
      log.error(
        { job_id: job.id, kind: entry.kind, attempt: attempts, error: decision.reason },
        'delivery failed for good; kept in the dead-letter list (gleaner deliveries list|retry)',
      );
    }
    if (!recorded) return;
    events.publish({
      type: result.ok ? 'delivered' : 'delivery_failed',
      jobId: job.id,
      clientId: job.clientId,
      routeId: job.routeId,
      at: Date.now(),
      delivery: entry.kind,
      ...(job.batchId ? { batchId: job.batchId } : {}),
      ...(result.ok ? {} : { error: { code: 'DELIVERY_FAILED' as const, message: result.error } }),
    });
  }
}
