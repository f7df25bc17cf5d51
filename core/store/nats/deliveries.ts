/**
 * The outbox as a work-queue stream (`<ns>_outbox`, one message per delivery attempt series
 * step) with one durable pull consumer shared by every node, and dead letters in the
 * `<ns>_deadletters` KV bucket. This module is what the outbox reads and writes on a job's
 * record: the claim before an entry is handed out, the attempt's record, redelivery. The
 * node's hold of pulled messages (pull, keep claimed, give back, stop) is outbox-hold.ts.
 *
 * - A held entry is handed out only after its claim, a CAS on the job's record: one attempt at
 *   a time cluster-wide (a node that dies mid-delivery lets its entries come back after
 *   AckWait: at least once, receivers dedupe on `Gleaner-Delivery`).
 * - A retry is a new message (attempt + 1, due at `retryAt`), published after the job's CAS
 *   and before the old one's ack. On intake a message older than the job's record (a node died
 *   between the two) is dropped, and the next one is published again if it was lost (msg id).
 */
import { randomBytes } from 'node:crypto';
import type { DeadLetter, DeliveryOutcome, DeliveryStore } from '../deliveries.js';
import { isFinal, type DeliveryKind, type DeliveryRecord, type JobRecord, type OutboxEntry } from '../jobs.js';
import { fromJson, isCasConflict, toJson, type Handles } from './connection.js';
import { publishOutbox, type StoredJob } from './job-records.js';
import type { NatsJobs } from './jobs.js';
import { HOLD, keyOf, OutboxHold, type Held } from './outbox-hold.js';
import { retrying } from './publish.js';
import { casPut } from './cas.js';

/** How long a node's claim on a delivery attempt lasts: past the outbox's 30 s attempt deadline. */
const LEASE_MS = 60_000;

export class NatsDeliveries extends OutboxHold implements DeliveryStore {
  constructor(
    h: Handles,
    private readonly jobs: NatsJobs,
    /** Claims are renewed every third of it (maintain). */
    ackWaitMs: number,
  ) {
    super(h, ackWaitMs);
  }

  /**
   * Claims a due entry before it is handed out: false (and dropped) when the job's record shows
   * it is stale (its attempt is recorded, or an operator began a new series), or when another
   * node holds a live claim on the same attempt. JetStream may hand one message to two nodes
   * after a consumer leader failover; the claim, a CAS on the job, lets only one of them send.
   * A claim outlives an attempt (LEASE_MS); a node that dies holding one delays that delivery
   * until it expires.
   */
  private async current(key: string, held: Held): Promise<boolean> {
    if (held.checked) return true;
    const { entry, msg } = held;
    const drop = (ack: boolean) => {
      if (this.held.get(key) === held) this.held.delete(key);
      if (ack) msg.ack();
      return false;
    };
    for (;;) {
      const e = await retrying(() => this.h.jobs.get(entry.jobId)).catch(() => undefined);
      if (!e || e.operation !== 'PUT') {
        held.checked = true; // the outbox records it failed: the job expired
        if (this.held.get(key) === held) this.held.delete(key);
        this.out.set(key, held);
        return true;
      }
      const stored = fromJson<StoredJob>(e.value);
      const job = stored.j;
      const record = job.deliveries[entry.kind];
      // A wake-up of a finished crawl whose series is still owed: the series entry takes the
      // cursor's next steps (a wake-up's record would make it look stale).
      if (entry.w === 1 && record?.state === 'pending' && isFinal(job.status)) return drop(true);
      // A running crawl's entries and every crawl wake-up answer to the crawl's cursor (crawl-steps.ts), not to a series.
      if (record && isFinal(job.status) && entry.w !== 1 && (record.since !== entry.since || record.attempts > entry.attempt)) {
        // A node died between recording an attempt and acking it: if the next was never published, publish it.
        if (record.state === 'pending' && record.since === entry.since) await publishOutbox(this.h, job.id, entry.kind, record.attempts, Date.now(), record.since).catch(() => {});
        return drop(true);
      }
      const now = Date.now();
      const lease = stored.l?.[entry.kind];
      // A claim of our own is one whose write landed while its answer was lost (an election).
      const claim = (held.claim ??= randomBytes(8).toString('hex'));
      if (lease && lease.o !== claim && lease.a === entry.attempt && lease.s === entry.since && lease.u > now) return drop(false);
      const claimed: StoredJob = { ...stored, l: { ...stored.l, [entry.kind]: { a: entry.attempt, s: entry.since, u: now + LEASE_MS, o: claim } } };
      try {
        await retrying(() => casPut(this.h.jobs, job.id, toJson(claimed), e.revision));
      } catch (err) {
        if (isCasConflict(err)) continue;
        return drop(false);
      }
      held.checked = true;
      if (this.held.get(key) === held) this.held.delete(key);
      this.out.set(key, held);
      return true;
    }
  }

  async dueDeliveries(now: number, limit: number): Promise<OutboxEntry[]> {
    await this.start();
    // A held entry waits while another of its key is out: one attempt per key, and the one out
    // keeps its place in `out` until its attempt is recorded.
    const due = () => [...[...this.held].filter(([key]) => !this.out.has(key)).map(([, h]) => h), ...this.out.values()].filter((h) => h.entry.dueAt <= now);
    // Entries the server has not handed to any node yet are on their way to this one's pull.
    const until = Date.now() + 500;
    while (this.held.size + this.out.size < HOLD && Date.now() < until) {
      const waiting = await this.consumer!.info(false).then((i) => i.num_pending, () => 0);
      if (waiting === 0) break;
      await new Promise<void>((r) => (this.arrived.push(r), setTimeout(r, 50)));
    }
    await new Promise((r) => setImmediate(r));
    const checked = await Promise.all(due().map(async (h) => ((await this.current(keyOf(h.entry), h)) ? h : undefined)));
    // Only entries still handed out now: one whose attempt was recorded while the claims above
    // were awaited must not be handed out again (the outbox would send it twice).
    return checked
      .filter((h): h is Held => h !== undefined && this.out.get(keyOf(h.entry)) === h)
      .sort((a, b) => a.entry.dueAt - b.entry.dueAt || (a.entry.jobId < b.entry.jobId ? -1 : 1))
      .slice(0, limit)
      .map(({ entry }) => ({ jobId: entry.jobId, kind: entry.kind, attempt: entry.attempt, dueAt: entry.dueAt }));
  }

  async recordDelivery(entry: OutboxEntry, result: DeliveryOutcome, retentionMs: number): Promise<JobRecord | undefined> {
    const key = keyOf(entry);
    const held = this.out.get(key);
    if (!held || held.entry.attempt !== entry.attempt || held.entry.dueAt !== entry.dueAt) return undefined;
    this.out.delete(key);
    for (;;) {
      const e = await retrying(() => this.h.jobs.get(entry.jobId));
      if (!e || e.operation !== 'PUT') {
        held.msg.ack();
        return undefined;
      }
      const stored = fromJson<StoredJob>(e.value);
      const job = stored.j;
      const current = job.deliveries[entry.kind];
      if (current && isFinal(job.status) && held.entry.w !== 1 && (current.attempts > entry.attempt || current.since !== held.entry.since)) {
        held.msg.ack();
        return undefined; // recorded by another node already
      }
      // A wake-up whose crawl finished while it was out: the series the finish began is owed, and
      // its entry does what this attempt left (recording this one would mark that entry stale and
      // the closing `crawl.done` would never be sent).
      if (current?.state === 'pending' && isFinal(job.status) && held.entry.w === 1) {
        held.msg.ack();
        return undefined;
      }
      const now = Date.now();
      const attempts = entry.attempt + 1;
      const since = current?.since ?? job.finishedAt ?? entry.dueAt;
      const record: DeliveryRecord = { state: result.state, attempts, since, ...(result.error ? { lastError: result.error } : {}) };
      if (result.state === 'delivered') record.deliveredAt = now;
      const next: JobRecord = { ...job, deliveries: { ...job.deliveries, [entry.kind]: record }, updatedAt: now };
      const before = job.expiresAt;
      if (result.state === 'pending' && result.retryAt !== undefined) keep(next, result.retryAt + retentionMs, retentionMs);
      if (result.state === 'failed') keep(next, now + retentionMs, retentionMs);
      try {
        await retrying(() => casPut(this.h.jobs, job.id, toJson({ ...stored, j: next, l: withoutLease(stored.l, entry.kind) }), e.revision));
      } catch (err) {
        if (isCasConflict(err)) continue;
        throw err;
      }
      if (next.expiresAt !== before && next.expiresAt !== undefined) await this.jobs.setExpiry(job.id, before, next.expiresAt);
      if (result.state === 'pending' && result.retryAt !== undefined) await publishOutbox(this.h, job.id, entry.kind, attempts, result.retryAt, since);
      if (result.state === 'failed') {
        const letter: DeadLetter = { jobId: job.id, kind: entry.kind, clientId: job.clientId, routeId: job.routeId, failedAt: now, since, attempts, error: result.error ?? 'failed' };
        await retrying(() => this.h.deadletters.put(`${job.id}.${entry.kind}`, toJson(letter)));
      }
      held.msg.ack();
      this.pending.stale();
      return next;
    }
  }

  async deadLetters(): Promise<DeadLetter[]> {
    const keys: string[] = [];
    for await (const k of await this.h.deadletters.keys()) keys.push(k);
    const letters = await Promise.all(keys.map(async (k) => {
      const e = await this.h.deadletters.get(k);
      return e?.operation === 'PUT' ? fromJson<DeadLetter>(e.value) : undefined;
    }));
    return letters.filter((l): l is DeadLetter => l !== undefined).sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.kind < b.kind ? -1 : 1));
  }

  async redeliver(jobId: string, kind: DeliveryKind | undefined, retentionMs: number): Promise<DeliveryKind[]> {
    const kinds: DeliveryKind[] = [];
    for (const k of kind ? [kind] : (['webhook', 'storage'] as const)) {
      const e = await this.h.deadletters.get(`${jobId}.${k}`);
      if (e?.operation === 'PUT') kinds.push(k);
    }
    if (kinds.length === 0) return [];
    for (;;) {
      const e = await this.h.jobs.get(jobId);
      if (!e || e.operation !== 'PUT') return [];
      const stored = fromJson<StoredJob>(e.value);
      const now = Date.now();
      const next: JobRecord = { ...stored.j, deliveries: { ...stored.j.deliveries }, updatedAt: now };
      for (const k of kinds) next.deliveries[k] = { state: 'pending', attempts: 0, since: now };
      const before = next.expiresAt;
      keep(next, now + retentionMs, retentionMs);
      try {
        let l = stored.l;
        for (const k of kinds) l = withoutLease(l, k);
        await casPut(this.h.jobs, jobId, toJson({ ...stored, j: next, l }), e.revision);
      } catch (err) {
        if (isCasConflict(err)) continue;
        throw err;
      }
      if (next.expiresAt !== before && next.expiresAt !== undefined) await this.jobs.setExpiry(jobId, before, next.expiresAt);
      for (const k of kinds) {
        await this.h.deadletters.delete(`${jobId}.${k}`);
        await publishOutbox(this.h, jobId, k, 0, now, now);
      }
      this.pending.stale();
      return kinds;
    }
  }
}

/** Moves the job's expiry to `until` if that is later. */
function keep(job: JobRecord, until: number, retentionMs: number): void {
  // A running crawl owes page deliveries before it ends: its expiry is set by finish, not here.
  if (!isFinal(job.status)) return;
  const current = job.expiresAt ?? (job.finishedAt ?? job.updatedAt) + retentionMs;
  if (until > current) job.expiresAt = until;
}

function withoutLease(leases: StoredJob['l'], kind: DeliveryKind): StoredJob['l'] {
  if (!leases?.[kind]) return leases;
  const rest = { ...leases };
  delete rest[kind];
  return rest;
}