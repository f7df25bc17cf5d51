/**
 * The status document of `GET /v1/status` (admin): what the operator console shows, as JSON.
 * Counters come from the activity recorder (last hour, 10-second slots), gauges from the farm,
 * the dispatcher and the store at the moment of the call, usage from the ledger.
 *
 * Rates are per second over the last minute (the current, partial slot included, divided by
 * the time actually covered). History is one point per minute for the last hour, oldest first.
 */
import { treeRss } from '../../farm/index.js';
import type { Account } from '../../core/store/accounts.js';
import type { Family } from '../../core/registry/index.js';
import type { Services } from '../context.js';
import { FAMILIES, percentiles, SLOT_MS, type Percentiles } from './activity.js';
import type { JobFilter, RecentJob } from './recent.js';
import { accountQuota, type Quota } from './quota.js';
import { clusterStatus } from '../cluster.js';

const RATE_SLOTS = 6;
const HISTORY_STEP_SLOTS = 6;
const MEMORY_CACHE_MS = 2000;

type ByFamily = Record<Family, number>;

export interface AccountUsage {
  client_id: number;
  name: string;
  admin: boolean;
  /** Charged results (pages) today and this month (UTC), from the usage ledger. */
  usage: { today: number; month: number };
  /** null: the account has no quota. */
  quota: Quota | null;
}

export interface StatusDocument {
  at: number;
  state: string;
  uptime_s: number;
  queue: { depth: number; running: number; waiting: number };
  jobs: { last_hour: { accepted: number; started: number; done: number; failed: number }; per_second: number };
  farm: { workers: number; in_flight: number; queued: number; contexts: number; pages: number; browser_launches: number };
  pages: { per_second: ByFamily; last_hour: ByFamily };
  latency_ms: { sync: Percentiles; jobs: Percentiles };
  /** Errors a caller saw, by their documented problem title (README "Errors"). */
  errors: Array<{ title: string; count: number }>;
  /** Refusals that are not errors of the service: 401s, and answers without a problem document (by status). */
  refused: { unauthorized: number; without_problem: Array<{ status: number; count: number }> };
  /** Built-in parses of the last hour by route and status; most partial first (a layout change upstream). */
  parse_status: Array<{ route: string; parsed: number; partial: number; unrecognised: number; blocked: number }>;
  outbox: { pending: number; failed_last_hour: number };
  /** Crawls running on this node, with their counts (discovered, queued, done, failed, skipped...). */
  crawls: Array<{ id: string; client_id: number; url: string; limit: number; counts: Record<string, number> | null }>;
  memory: { node_rss: number; node_heap_used: number; chromium_rss: number; chromium_processes: number };
  accounts: AccountUsage[];
  recent_jobs: RecentJob[];
  /** Cluster mode only: this node, every node with a recent heartbeat (id, role, capacity, load, heartbeat), totals. */
  cluster?: ReturnType<typeof clusterStatus>;
  history: {
    step_s: number;
    /** Unix seconds of the first point. */
    start: number;
    jobs_done: number[];
    jobs_failed: number[];
    pages: Record<Family, number[]>;
    latency_p50: Array<number | null>;
    latency_p95: Array<number | null>;
    queue_depth: Array<number | null>;
  };
}

const zeroFamilies = (): ByFamily => ({ universal: 0, search_engine: 0, video: 0, assistant: 0, commerce: 0 });

let memoryCache: { at: number; value: StatusDocument['memory'] } | undefined;

/** Node and Chromium memory; /proc is read at most every two seconds. */
function memory(svc: Services): StatusDocument['memory'] {
  const now = Date.now();
  if (memoryCache && now - memoryCache.at < MEMORY_CACHE_MS) return memoryCache.value;
  const mem = process.memoryUsage();
  const pids = svc.farm?.stats().browserPids ?? [];
  let chromium = 0;
  for (const pid of pids) chromium += treeRss(pid);
  memoryCache = { at: now, value: { node_rss: mem.rss, node_heap_used: mem.heapUsed, chromium_rss: chromium, chromium_processes: pids.length } };
  return memoryCache.value;
}

function accountUsage(svc: Services, account: Account, now: number): AccountUsage {
  // The quota totals count exactly the ledger's charged pages, and are read synchronously.
  const totals = svc.store.quotas.usageOf(account.clientId, now);
  const [day, month] = [totals.pages_day, totals.pages_month];
  return { client_id: account.clientId, name: account.name, admin: account.admin, usage: { today: day, month }, quota: accountQuota(svc, account) };
}

const started = Date.now();

/** What the caller asked of the job list (`GET /v1/status?state=failed&route=se1/*&account=2`). */
export function jobFilterOf(query: string): JobFilter {
  const q = new URLSearchParams(query);
  const filter: JobFilter = {};
  const state = q.get('state');
  if (state) filter.state = state;
  const route = q.get('route');
  if (route) filter.route = route;
  const account = Number(q.get('account'));
  if (q.get('account') && Number.isInteger(account)) filter.account = account;
  return filter;
}

/** The listed jobs with their target and account name (read once per job and kept). */
async function describedJobs(svc: Services, filter: JobFilter): Promise<RecentJob[]> {
  const jobs = svc.activity.jobs.list(filter);
  const names = new Map(svc.store.accounts.listAccounts().map((a) => [a.clientId, a.name]));
  await Promise.all(
    jobs
      .filter((j) => j.target === undefined)
      .map(async (j) => {
        const record = await svc.store.jobs.get(j.job_id).catch(() => undefined);
        const p = record?.params ?? {};
        const target = typeof p.url === 'string' ? p.url : typeof p.query === 'string' ? p.query : Array.isArray(p.query) ? p.query.join(', ') : undefined;
        j.target = target === undefined ? '' : target.slice(0, 300);
      }),
  );
  return jobs.map((j) => ({ ...j, account: names.get(j.client_id) ?? '' }));
}

export async function statusDocument(svc: Services, filter: JobFilter = {}): Promise<StatusDocument> {
  const now = Date.now();
  const activity = svc.activity;
  const depth = svc.store.jobs.queueDepth();
  activity.sampleQueue(depth);
  const slots = activity.window(now);
  const recent = slots.slice(-RATE_SLOTS);
  const covered = Math.max(1, now - recent[0].at) / 1000;

  const hour = { accepted: 0, started: 0, done: 0, failed: 0 };
  const pagesHour = zeroFamilies();
  const pagesRecent = zeroFamilies();
  const errors = new Map<string, number>();
  const other = new Map<number, number>();
  let unauthorized = 0;
  const parses = new Map<string, StatusDocument['parse_status'][number]>();
  let recentJobs = 0;
  let deliveryFailed = 0;
  for (const s of slots) {
    hour.accepted += s.accepted;
    hour.started += s.started;
    hour.done += s.done;
    hour.failed += s.failed;
    deliveryFailed += s.deliveryFailed;
    for (const f of FAMILIES) pagesHour[f] += s.pages[f];
    for (const [title, n] of s.errors) errors.set(title, (errors.get(title) ?? 0) + n);
    for (const [status, n] of s.other) other.set(status, (other.get(status) ?? 0) + n);
    unauthorized += s.unauthorized;
    for (const [key, n] of s.parses) {
      const [route, status] = key.split('\u0000') as [string, 'parsed' | 'partial' | 'unrecognised' | 'blocked'];
      let r = parses.get(route);
      if (!r) parses.set(route, (r = { route, parsed: 0, partial: 0, unrecognised: 0, blocked: 0 }));
      if (status in r) r[status] += n;
    }
  }
  for (const s of recent) {
    recentJobs += s.done + s.failed;
    for (const f of FAMILIES) pagesRecent[f] += s.pages[f];
  }
  const perSecond = zeroFamilies();
  for (const f of FAMILIES) perSecond[f] = round(pagesRecent[f] / covered);

  const history: StatusDocument['history'] = {
    step_s: (SLOT_MS * HISTORY_STEP_SLOTS) / 1000,
    start: Math.floor(slots[0].at / 1000),
    jobs_done: [],
    jobs_failed: [],
    pages: { universal: [], search_engine: [], video: [], assistant: [], commerce: [] },
    latency_p50: [],
    latency_p95: [],
    queue_depth: [],
  };
  for (let i = 0; i < slots.length; i += HISTORY_STEP_SLOTS) {
    const group = slots.slice(i, i + HISTORY_STEP_SLOTS);
    history.jobs_done.push(sum(group, (s) => s.done));
    history.jobs_failed.push(sum(group, (s) => s.failed));
    for (const f of FAMILIES) history.pages[f].push(sum(group, (s) => s.pages[f]));
    const p = percentiles(group.map((s) => s.syncLatency));
    history.latency_p50.push(p.p50);
    history.latency_p95.push(p.p95);
    const depths = group.map((s) => s.queueDepth).filter((d) => d >= 0);
    history.queue_depth.push(depths.length > 0 ? Math.max(...depths) : null);
  }

  const farm = svc.farm?.stats();
  const dispatcher = svc.jobs?.stats();
  return {
    at: Math.floor(now / 1000),
    state: svc.state(),
    uptime_s: Math.floor((now - started) / 1000),
    queue: { depth, running: dispatcher?.running ?? 0, waiting: dispatcher?.waiting ?? 0 },
    jobs: { last_hour: hour, per_second: round(recentJobs / covered) },
    farm: {
      workers: farm?.workers ?? 0,
      in_flight: farm?.inFlight ?? 0,
      queued: farm?.queued ?? 0,
      contexts: farm?.contexts ?? 0,
      pages: farm?.pages ?? 0,
      browser_launches: farm?.browserLaunches ?? 0,
    },
    pages: { per_second: perSecond, last_hour: pagesHour },
    latency_ms: { sync: percentiles(slots.map((s) => s.syncLatency)), jobs: percentiles(slots.map((s) => s.jobLatency)) },
    errors: [...errors].map(([title, count]) => ({ title, count })).sort((a, b) => b.count - a.count || a.title.localeCompare(b.title)),
    refused: { unauthorized, without_problem: [...other].map(([status, count]) => ({ status, count })).sort((a, b) => a.status - b.status) },
    parse_status: [...parses.values()].sort((a, b) => b.partial + b.unrecognised - (a.partial + a.unrecognised) || a.route.localeCompare(b.route)),
    outbox: { pending: svc.store.deliveries.pendingCount(), failed_last_hour: deliveryFailed },
    crawls: (svc.crawls?.running() ?? []).map((c) => ({ id: c.id, client_id: c.clientId, url: c.url, limit: c.limit, counts: c.counts ? { ...c.counts } : null })),
    memory: memory(svc),
    accounts: svc.store.accounts.listAccounts().map((a) => accountUsage(svc, a, now)),
    recent_jobs: await describedJobs(svc, filter),
    ...(svc.store.cluster ? { cluster: clusterStatus(svc.store.cluster) } : {}),
    history,
  };
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += of(item);
  return total;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
