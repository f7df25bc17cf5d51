/**
 * The async side of the service, wired at start (server.ts): the delivery outbox, the crawl
 * engine and the job runner, with the gateway's rules they need (charges, quota for crawl
 * pages, per-route caps, assistant failure metrics). Separate from server.ts, which owns the
 * order of start and the undoing of a failed one; this is the one place that says how the
 * farm's task slots are shared between async jobs, crawls and sync requests.
 */
import { routeById } from '../core/registry/index.js';
import { CRAWL_ROUTE_ID } from '../core/store/crawls.js';
import { CrawlEngine, DEFAULT_LIMITS, JobRunner, Outbox, parseDeliveryConfig, type Farm } from '../farm/index.js';
import type { Services } from './context.js';
import { crawlCharge, crawlQuota } from './crawl-wiring.js';
import type { JobApiListeners } from './jobapi/listener.js';
import { deliveryPayloads } from './payloads.js';
import { charged, chargeInput, usageEntry } from './usage.js';

/** The job runner and the outbox: async jobs run on the farm, then their deliveries leave. A gateway-only node runs no jobs. */
export function startJobs(svc: Services, farm: Farm, url: string, jobApi: JobApiListeners): { jobs: JobRunner; outbox: Outbox; recovered: number } {
  const { config, store, log } = svc;
  const outbox = new Outbox({
    jobs: store.jobs,
    deliveries: store.deliveries,
    retentionMs: config.retentionMs,
    accounts: store.accounts,
    events: svc.events,
    log,
    payloads: deliveryPayloads(svc, url, jobApi.dataUrl),
    delivery: parseDeliveryConfig(config.storage),
    policy: {
      maxAttempts: config.deliveryAttempts,
      horizonMs: config.deliveryHorizonMs,
      baseMs: config.deliveryBaseMs,
      maxMs: config.deliveryMaxMs,
      jitter: 'full',
      maxRetryAfterMs: config.deliveryMaxMs,
    },
    allowPrivate: config.allowPrivate,
    crawls: { crawls: store.crawls, resultsUrl: (id) => `${url.replace(/\/+$/, '')}/v1/async/crawl/${id}` },
  });
  const asyncSlots = Math.max(1, Math.floor((config.workers * DEFAULT_LIMITS.tasksPerWorker) / 2));
  const crawls = new CrawlEngine({
    crawls: store.crawls,
    farm,
    log,
    pageTimeoutMs: Math.min(config.jobTimeoutMs, 120_000),
    // Crawl pages together hold at most the async jobs' share of the farm's task slots.
    concurrency: asyncSlots,
    chargeOf: (job, scrape, usage) => crawlCharge(job, scrape, usage),
    quotaCheck: (clientId, pages, rendered) => crawlQuota(store, clientId, pages, rendered),
    onPage: (job, usage) => charged(svc, { clientId: job.clientId, routeId: 'universal', params: job.params, mode: 'callback', usage }),
    onProgress: (job, counts) =>
      svc.events.publish({ type: 'progress', jobId: job.id, clientId: job.clientId, routeId: job.routeId, at: Date.now(), progress: { ...counts } }),
  });
  svc.crawls = crawls;
  const jobs = new JobRunner({
    jobs: store.jobs,
    queue: store.work,
    runner: farm,
    events: svc.events,
    log,
    // Async jobs may hold half of the farm's task slots, so sync requests always find one free;
    // browser work is bounded inside the farm by its context pool, plain fetches are not.
    concurrency: asyncSlots,
    jobTimeoutMs: config.jobTimeoutMs,
    retentionMs: config.retentionMs,
    maxStarts: config.jobMaxStarts,
    ...(store.cluster ? { node: store.cluster.nodeId } : {}),
    // Crawls hold a job slot for their whole run: at most a quarter of the slots, so scrape jobs still run.
    routeCap: (routeId) => (routeId === CRAWL_ROUTE_ID ? Math.max(1, Math.floor(asyncSlots / 4)) : routeById(routeId)?.family === 'assistant' ? config.assistantConcurrency : 0),
    longJobs: { owns: (routeId) => routeId === CRAWL_ROUTE_ID, run: (job, signal) => crawls.run(job, signal) },
    // Charged by JobStore.finish, with the job's final state: once, never for a faulted job.
    chargeOf: (job, usage) => usageEntry(chargeInput(job, usage)),
    onFinished: (job, usage) => {
      // Assistant failures name their kind (core/targets/assistants/plan.ts); others count as `other`.
      if (job.status === 'faulted' && routeById(job.routeId)?.family === 'assistant') {
        // A job stopped by its deadline is an answer that never completed, whichever timer fired first.
        const kind = job.error?.data?.failure ?? (job.error?.code === 'REQUEST_FAILED_SCRAPE_TIMEOUT' ? 'incomplete' : 'other');
        svc.metrics.assistantFailure(job.routeId, typeof kind === 'string' ? kind : 'other');
      }
      if (usage && job.status === 'done') charged(svc, chargeInput(job, usage));
      outbox.wake();
    },
  });
  svc.jobs = jobs;
  const recovered = config.role === 'gateway' ? 0 : jobs.start();
  outbox.start();
  return { jobs, outbox, recovered };
}
