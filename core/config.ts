/**
 * Configuration: one defaults object, overridden by environment variables (the names are a
 * contract, DESIGN.md part 2) and then by explicit options (tests). Parsed and checked once at
 * start; the rest of the system reads the frozen result.
 */
import { availableParallelism, hostname } from 'node:os';
import type { NodeRole } from './store/cluster.js';
import type { ClusterSettings } from './store/nats/connection.js';
import { existsSync } from 'node:fs';
import { clusterOf, int, jsonFile, metricsToken, plainClientOf, roleOf, withAssistants, type Env } from './config-readers.js';

export type PlainClient = 'auto' | 'chromium' | 'native';

export interface TargetConfig {
  /** Base URL of the target; may contain `{domain}` and `{subdomain}` placeholders. */
  baseUrl: string;
  [option: string]: unknown;
}

export interface LlmConfig {
  url: string;
  key: string | undefined;
  model: string | undefined;
}

export interface Config {
  host: string;
  port: number;
  realtimePort: number;
  dataPort: number;
  dataDir: string;
  bootstrapApiKey: string | undefined;
  /** `user:password` */
  bootstrapUser: string | undefined;
  targets: Record<string, TargetConfig>;
  allowPrivate: boolean;
  /** PEM file of extra trusted root certificates for outbound TLS (`GLEANER_CA_FILE`: page fetches, webhooks, buckets). */
  caFile: string | undefined;
  /** Country code (or `default`) → proxy URLs. */
  proxies: Record<string, string[]>;
  chromium: string | undefined;
  /**
   * `GLEANER_PLAIN_CLIENT`: which client makes plain page fetches (farm/worker/nav-page.ts,
   * README "What a site sees"): `auto` (https navigations through full Chromium's network
   * stack, the rest native), `chromium` (every navigation through it), `native` (wreq-js only).
   */
  plainClient: PlainClient;
  /** ffmpeg for the video download route (`GLEANER_FFMPEG`; default: `ffmpeg` on PATH; ffprobe beside it, else on PATH). */
  ffmpeg: string | undefined;
  llm: LlmConfig | undefined;
  workers: number;
  contextsPerWorker: number;
  /** Threads that run `run_js` tasks, each with its own browser (the page budget workers x contexts is divided between them). */
  browserThreads: number;
  /** A browser without a rendering task for this long (ms) is closed; 0 = never. */
  browserIdleMs: number;
  /** Young generation of each worker thread's heap (MB, V8's `maxYoungGenerationSizeMb`); 0 = V8's default (48 MB on 64-bit). */
  workerYoungMb: number;
  logLevel: string;
  /** Largest request body accepted, checked while streaming (bytes). */
  maxBodyBytes: number;
  /** Sync scrape deadline (ms); past it the caller gets 408. */
  syncTimeoutMs: number;
  /** Largest Web API batch (values per request); above it 413. */
  maxBatch: number;
  /** Async job retention (ms) after completion. */
  retentionMs: number;
  /** Largest upstream response body kept (bytes). */
  maxResponseBytes: number;
  /** Largest media download (`media/video/download`: the streams fetched, in bytes); pages keep `maxResponseBytes`. */
  mediaMaxBytes: number;
  /**
   * Most bytes one request (one task) may fetch for its pages in total, `GLEANER_TASK_MAX_BYTES`:
   * each fetch's cap is what is left of it (farm/worker/budget.ts). Media downloads go to disk
   * and keep `mediaMaxBytes`.
   */
  taskMaxBytes: number;
  /** Concurrent requests per account before 429. */
  accountConcurrency: number;
  /** Public base URL of the Web API, used in webhook bodies and Job API links; default from host:port. */
  publicUrl: string | undefined;
  /** Public base URL of the Job API push-pull host (`_links`); default from host:dataPort. */
  dataPublicUrl: string | undefined;
  /** Raw bucket credentials from `GLEANER_STORAGE` (parsed and checked by the farm's delivery). */
  storage: Record<string, unknown>;
  /** Deadline of one async job run (ms). */
  jobTimeoutMs: number;
  /**
   * Starts after which a job that never finished is given up (`faulted`, INTERNAL_ERROR, not
   * charged): a job whose run takes the process down would otherwise rerun after every restart.
   */
  jobMaxStarts: number;
  /**
   * Webhook/bucket delivery retries: attempts in all (0: no count bound), the time horizon after
   * which a delivery is given up into the dead-letter list, first backoff ceiling, largest
   * ceiling (ms).
   */
  deliveryAttempts: number;
  deliveryHorizonMs: number;
  deliveryBaseMs: number;
  deliveryMaxMs: number;
  /** How often expired jobs are swept (ms). */
  sweepIntervalMs: number;
  /**
   * `GLEANER_ASSISTANTS`: replacement chat-page data of the assistants, as read (checked at
   * start by core/targets/assistants). Each entry is also carried to the planner as
   * `targets.<assistant>.assistant`.
   */
  assistants: Record<string, unknown> | undefined;
  /** Async jobs of one assistant (`llm1`...) running at once; more wait in the queue. 0: no cap. */
  assistantConcurrency: number;
  /** Job API source aliases from `GLEANER_SOURCE_ALIASES` (checked at start, core/jobapi/aliases.ts). */
  sourceAliases: Record<string, string>;
  /**
   * Cluster mode (`GLEANER_CLUSTER`, README "Cluster mode"): the NATS JetStream servers, their
   * credentials (`GLEANER_NATS_CREDS`), replicas (`GLEANER_CLUSTER_REPLICAS`) and namespace
   * (`GLEANER_CLUSTER_NAMESPACE`). Undefined: the embedded store.
   */
  cluster: ClusterSettings | undefined;
  /** `GLEANER_ROLE`: all (default), gateway (no farm) or farm (no API traffic). Cluster mode only. */
  role: NodeRole;
  /** `GLEANER_NODE_ID`: this node's name in the cluster (default host:port). */
  nodeId: string;
  /** `GLEANER_METRICS_TOKEN`: a Bearer token that reads `/metrics` and nothing else (besides admin keys). */
  metricsToken: string | undefined;
}

export const DEFAULTS: Readonly<Config> = Object.freeze({
  host: '127.0.0.1',
  port: 8080,
  realtimePort: 8081,
  dataPort: 8082,
  dataDir: './data',
  bootstrapApiKey: undefined,
  bootstrapUser: undefined,
  targets: {},
  allowPrivate: false,
  caFile: undefined,
  proxies: {},
  chromium: undefined,
  plainClient: 'auto',
  ffmpeg: undefined,
  llm: undefined,
  workers: availableParallelism(),
  // 4 (8 pages on two cores): a rendered page mostly waits (its requests, network idle), so at
  // 2 the cores idled and 8 requests in flight rendered at the raw Playwright loop's pace; at 4,
  // 1.7× its pages/s for +64 MB (bench/README "Rendered pages in flight by default").
  contextsPerWorker: 4,
  browserThreads: 1,
  // 15 s: on a mixed load with rendered bursts between quiet gaps it held 22 % less memory than
  // 60 s at the same CPU per page (bench/mixed/idle.ts; bench/README "Browser idle time").
  browserIdleMs: 15_000,
  // 12 MB: V8's default young generation (48 MB a thread) is mostly garbage kept resident;
  // bench/README "Plain-only node memory" measured the trade.
  workerYoungMb: 12,
  logLevel: 'info',
  maxBodyBytes: 4 * 1024 * 1024,
  syncTimeoutMs: 150_000,
  maxBatch: 5000,
  retentionMs: 24 * 60 * 60 * 1000,
  maxResponseBytes: 20 * 1024 * 1024,
  mediaMaxBytes: 2 * 1024 * 1024 * 1024,
  // 100 pages of the largest captured result page (1.9 MB) fit, or 6 pages at the 20 MiB cap;
  // a task's pages and their outputs stay well within a worker's heap (farm/threads.ts) and
  // the answer's JSON far below V8's longest string (2^29 characters).
  taskMaxBytes: 128 * 1024 * 1024,
  accountConcurrency: 64,
  publicUrl: undefined,
  dataPublicUrl: undefined,
  storage: {},
  jobTimeoutMs: 300_000,
  jobMaxStarts: 3,
  deliveryAttempts: 0,
  deliveryHorizonMs: 24 * 60 * 60_000,
  deliveryBaseMs: 30_000,
  deliveryMaxMs: 30 * 60_000,
  sweepIntervalMs: 60_000,
  assistants: undefined,
  assistantConcurrency: 4,
  sourceAliases: {},
  cluster: undefined,
  role: 'all',
  nodeId: '',
  metricsToken: undefined,
});

export function defaultChromium(): string | undefined {
  // Full Chromium (new headless mode) first: it is the browser a site expects (README "The
  // browser"); Debian's /usr/bin/chromium is a launcher script, the binary is beside its libs.
  for (const candidate of ['/usr/lib/chromium/chromium', '/usr/bin/chromium-headless-shell', '/usr/bin/chromium']) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined; // Playwright's own, if installed
}

/** The configuration from the environment, with `overrides` applied last. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const llmUrl = env.GLEANER_LLM_URL;
  const assistants = jsonFile<Record<string, unknown> | undefined>(env, 'GLEANER_ASSISTANTS', undefined);
  const config: Config = {
    ...DEFAULTS,
    host: env.GLEANER_HOST || DEFAULTS.host,
    port: int(env, 'GLEANER_PORT', DEFAULTS.port),
    realtimePort: int(env, 'GLEANER_REALTIME_PORT', DEFAULTS.realtimePort),
    dataPort: int(env, 'GLEANER_DATA_PORT', DEFAULTS.dataPort),
    dataDir: env.GLEANER_DATA_DIR || DEFAULTS.dataDir,
    bootstrapApiKey: env.GLEANER_BOOTSTRAP_API_KEY || undefined,
    bootstrapUser: env.GLEANER_BOOTSTRAP_USER || undefined,
    targets: withAssistants(jsonFile(env, 'GLEANER_TARGETS', DEFAULTS.targets), assistants),
    allowPrivate: env.GLEANER_ALLOW_PRIVATE === '1' || env.GLEANER_ALLOW_PRIVATE === 'true',
    caFile: env.GLEANER_CA_FILE || undefined,
    proxies: jsonFile(env, 'GLEANER_PROXIES', DEFAULTS.proxies),
    chromium: env.GLEANER_CHROMIUM || defaultChromium(),
    plainClient: plainClientOf(env, DEFAULTS.plainClient),
    ffmpeg: env.GLEANER_FFMPEG || undefined,
    llm: llmUrl ? { url: llmUrl, key: env.GLEANER_LLM_KEY || undefined, model: env.GLEANER_LLM_MODEL || undefined } : undefined,
    workers: int(env, 'GLEANER_WORKERS', DEFAULTS.workers) || DEFAULTS.workers,
    contextsPerWorker: int(env, 'GLEANER_CONTEXTS', DEFAULTS.contextsPerWorker) || DEFAULTS.contextsPerWorker,
    browserThreads: int(env, 'GLEANER_BROWSER_THREADS', DEFAULTS.browserThreads) || DEFAULTS.browserThreads,
    browserIdleMs: int(env, 'GLEANER_BROWSER_IDLE_MS', DEFAULTS.browserIdleMs),
    workerYoungMb: int(env, 'GLEANER_WORKER_YOUNG_MB', DEFAULTS.workerYoungMb),
    logLevel: env.GLEANER_LOG_LEVEL || DEFAULTS.logLevel,
    syncTimeoutMs: int(env, 'GLEANER_SYNC_TIMEOUT_MS', DEFAULTS.syncTimeoutMs),
    maxBatch: int(env, 'GLEANER_MAX_BATCH', DEFAULTS.maxBatch),
    retentionMs: int(env, 'GLEANER_RETENTION_MS', DEFAULTS.retentionMs),
    accountConcurrency: int(env, 'GLEANER_ACCOUNT_CONCURRENCY', DEFAULTS.accountConcurrency),
    publicUrl: env.GLEANER_PUBLIC_URL || undefined,
    dataPublicUrl: env.GLEANER_DATA_PUBLIC_URL || undefined,
    storage: jsonFile(env, 'GLEANER_STORAGE', DEFAULTS.storage),
    mediaMaxBytes: int(env, 'GLEANER_MEDIA_MAX_BYTES', DEFAULTS.mediaMaxBytes),
    taskMaxBytes: int(env, 'GLEANER_TASK_MAX_BYTES', DEFAULTS.taskMaxBytes) || DEFAULTS.taskMaxBytes,
    jobTimeoutMs: int(env, 'GLEANER_JOB_TIMEOUT_MS', DEFAULTS.jobTimeoutMs),
    jobMaxStarts: int(env, 'GLEANER_JOB_MAX_STARTS', DEFAULTS.jobMaxStarts) || DEFAULTS.jobMaxStarts,
    deliveryAttempts: int(env, 'GLEANER_DELIVERY_ATTEMPTS', DEFAULTS.deliveryAttempts),
    deliveryHorizonMs: int(env, 'GLEANER_DELIVERY_HORIZON_MS', DEFAULTS.deliveryHorizonMs) || DEFAULTS.deliveryHorizonMs,
    deliveryBaseMs: int(env, 'GLEANER_DELIVERY_BASE_MS', DEFAULTS.deliveryBaseMs),
    deliveryMaxMs: int(env, 'GLEANER_DELIVERY_MAX_MS', DEFAULTS.deliveryMaxMs),
    sweepIntervalMs: int(env, 'GLEANER_SWEEP_INTERVAL_MS', DEFAULTS.sweepIntervalMs),
    assistants,
    assistantConcurrency: int(env, 'GLEANER_ASSISTANT_CONCURRENCY', DEFAULTS.assistantConcurrency),
    sourceAliases: jsonFile(env, 'GLEANER_SOURCE_ALIASES', DEFAULTS.sourceAliases),
    cluster: clusterOf(env),
    role: roleOf(env),
    nodeId: env.GLEANER_NODE_ID || `${hostname()}:${int(env, 'GLEANER_PORT', DEFAULTS.port) || process.pid}`,
    metricsToken: metricsToken(env),
  };
  if (config.role !== 'all' && !config.cluster) throw new Error('GLEANER_ROLE needs GLEANER_CLUSTER (a single node is always gateway and farm)');
  return Object.freeze({ ...config, ...overrides });
}
