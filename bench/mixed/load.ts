/**
 * A mixed open-loop load on a running service, for the soak and the browser-idle benches:
 * requests of several kinds arrive at fixed rates whatever the answers do (a steady rate, as
 * production traffic arrives), each kind's latencies kept per time window.
 *
 * Kinds: `plain` (sync `/v1/scrape` of a simulator page to Markdown), `rendered` (the same with
 * `run_js` on the simulator's script page), `dedicated` (a dedicated route on a captured page
 * of the fixture site, rotating through the families), `async` (`/v1/async/scrape` with a
 * `callback_url` on this process's webhook receiver; latency is submit → webhook received).
 *
 * In-flight requests per kind are capped: an arrival past the cap is counted as `shed`, not
 * queued here, so an overloaded service shows up as shed arrivals instead of a growing backlog
 * in the driver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { FAMILIES } from '../families/pages.js';
import { pageQuery, sitePages } from '../families/site.js';

export type Kind = 'plain' | 'rendered' | 'dedicated' | 'async';
export const KINDS: readonly Kind[] = ['plain', 'rendered', 'dedicated', 'async'];

export interface Rates {
  /** Arrivals per second of each kind (0: none). */
  plain: number;
  rendered: number;
  dedicated: number;
  async: number;
}

export interface Targets {
  gateway: string;
  key: string;
  /** The simulator (`/static`, `/js-only`). */
  sim: string;
  /** The fixture site of the per-family benches. */
  site: string;
}

export interface WindowStats {
  kind: Kind;
  done: number;
  failed: number;
  shed: number;
  p50Ms: number;
  p95Ms: number;
}

interface Counters {
  latencies: number[];
  failed: number;
  shed: number;
  inFlight: number;
  firstError?: string;
}

const fresh = (): Counters => ({ latencies: [], failed: 0, shed: 0, inFlight: 0 });

function quantile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 10) / 10;
}

export class MixedLoad {
  private readonly pool: Pool;
  private readonly headers: Record<string, string>;
  private window = new Map<Kind, Counters>(KINDS.map((k) => [k, fresh()]));
  private readonly totals = new Map<Kind, { done: number; failed: number; shed: number }>(KINDS.map((k) => [k, { done: 0, failed: 0, shed: 0 }]));
  private timers: NodeJS.Timeout[] = [];
  private seq = 0;
  /** Async jobs waiting for their webhook: job id → submit time. */
  private readonly waiting = new Map<string, number>();
  /** Webhooks that arrived before their submit answered. */
  private readonly early = new Map<string, number>();
  private hooks: Server | undefined;
  private hookUrl = '';
  private readonly dedicated = sitePages().map((p, i) => ({ family: FAMILIES.find((f) => f.name === p.family)!, index: i }));

  constructor(
    private readonly t: Targets,
    private readonly maxInFlight = 64,
  ) {
    this.pool = new Pool(t.gateway, { connections: 64, keepAliveTimeout: 30_000 });
    this.headers = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
  }

  /** Starts the webhook receiver (before `start` when async is in the mix). */
  async listen(): Promise<void> {
    this.hooks = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        const text = Buffer.concat(chunks).toString('utf8');
        const id = /"job_id":"(\d{19})"/.exec(text)?.[1];
        if (!id) return;
        // A faulted job is a failure of the async kind, whenever its submit answered.
        const faulted = text.includes('"status":"faulted"');
        const at = this.waiting.get(id);
        if (at === undefined) return void this.early.set(id, faulted ? -1 : performance.now());
        this.waiting.delete(id);
        if (faulted) this.fail('async', new Error(`job ${id} faulted: ${text.slice(0, 200)}`));
        else this.finish('async', performance.now() - at);
      });
    });
    await new Promise<void>((r) => this.hooks!.listen(0, '127.0.0.1', r));
    this.hookUrl = `http://127.0.0.1:${(this.hooks.address() as AddressInfo).port}/hook`;
  }

  /** Arrivals at `rates`, evenly spaced per kind, until `stop`. */
  start(rates: Rates): void {
    for (const kind of KINDS) {
      const rate = rates[kind];
      if (rate <= 0) continue;
      this.timers.push(setInterval(() => this.arrive(kind), 1000 / rate));
    }
  }

  /** `n` arrivals of `kind` now (a burst), besides the steady rates. */
  fire(kind: Kind, n = 1): void {
    for (let i = 0; i < n; i++) this.arrive(kind);
  }

  /** Stops arrivals (requests in flight go on). */
  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  inFlight(): number {
    let n = this.waiting.size;
    for (const c of this.window.values()) n += c.inFlight;
    return n;
  }

  /** Async jobs submitted whose webhook has not arrived. */
  awaitingHooks(): number {
    return this.waiting.size;
  }

  /** The window since the last call, per kind; starts a new window (in-flight counts carry over). */
  takeWindow(): WindowStats[] {
    const old = this.window;
    this.window = new Map(KINDS.map((k) => [k, { ...fresh(), inFlight: old.get(k)!.inFlight }]));
    return KINDS.map((kind) => {
      const c = old.get(kind)!;
      if (c.firstError) console.error(`${kind}: ${c.failed} failed this window, first: ${c.firstError}`);
      return { kind, done: c.latencies.length, failed: c.failed, shed: c.shed, p50Ms: quantile(c.latencies, 0.5), p95Ms: quantile(c.latencies, 0.95) };
    });
  }

  totalsOf(kind: Kind): { done: number; failed: number; shed: number } {
    return { ...this.totals.get(kind)! };
  }

  async close(): Promise<void> {
    this.stop();
    await this.pool.close();
    if (this.hooks) await new Promise<void>((r) => (this.hooks!.closeAllConnections(), this.hooks!.close(() => r())));
  }

  private counters(kind: Kind): Counters {
    return this.window.get(kind)!;
  }

  private finish(kind: Kind, ms: number): void {
    this.counters(kind).latencies.push(ms);
    this.totals.get(kind)!.done++;
  }

  private fail(kind: Kind, err: unknown): void {
    const c = this.counters(kind);
    c.failed++;
    c.firstError ??= (err as Error).message ?? String(err);
    this.totals.get(kind)!.failed++;
  }

  private arrive(kind: Kind): void {
    const c = this.counters(kind);
    if (c.inFlight >= this.maxInFlight) {
      c.shed++;
      this.totals.get(kind)!.shed++;
      return;
    }
    const n = this.seq++;
    const started = performance.now();
    c.inFlight++;
    this.send(kind, n, started).then(
      (sync) => {
        this.counters(kind).inFlight--;
        if (sync) this.finish(kind, performance.now() - started);
      },
      (err: unknown) => {
        this.counters(kind).inFlight--;
        this.fail(kind, err);
      },
    );
  }

  /** One request; resolves true when its answer ends it (async ends at its webhook). */
  private async send(kind: Kind, n: number, started: number): Promise<boolean> {
    let path = '/v1/scrape';
    let body: Record<string, unknown>;
    if (kind === 'plain') body = { url: `${this.t.sim}/static?soak=${n}`, output: ['markdown'] };
    else if (kind === 'rendered') body = { url: `${this.t.sim}/js-only?soak=${n}`, run_js: true };
    else if (kind === 'dedicated') {
      const d = this.dedicated[n % this.dedicated.length]!;
      path = `/v1/scrape/${d.family.route}`;
      body = { query: pageQuery(d.index), output: ['json'], ...d.family.params };
    } else {
      path = '/v1/async/scrape';
      body = { url: `${this.t.sim}/static?async=${n}`, output: ['markdown'], callback_url: this.hookUrl };
    }
    const res = await this.pool.request({ path, method: 'POST', headers: this.headers, body: JSON.stringify(body), headersTimeout: 180_000, bodyTimeout: 180_000 });
    const text = await res.body.text();
    const ok = kind === 'async' ? res.statusCode === 202 : res.statusCode === 200;
    if (!ok) throw new Error(`${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
    if (kind !== 'async') return true;
    const id = /"request_id":"(\d{19})"/.exec(text)?.[1];
    if (!id) throw new Error(`async submit without a job id: ${text.slice(0, 200)}`);
    const hooked = this.early.get(id);
    if (hooked !== undefined) {
      this.early.delete(id);
      if (hooked < 0) this.fail('async', new Error(`job ${id} faulted`));
      else this.finish('async', hooked - started);
    } else this.waiting.set(id, started);
    return false;
  }
}
