/** What a handler receives: the copied request, its reply, and the services it may use. */
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { Account } from '../core/store/accounts.js';
import type { Store } from '../core/store/index.js';
import type { Farm } from '../farm/index.js';
import type { RequestInfo, Reply } from './http.js';
import type { Metrics } from './metrics.js';
import type { HttpRoute, Router } from './routes.js';
import type { Admission } from './admission.js';
import type { QuotaGate } from './quota.js';
import type { FeedEvents } from '../core/store/feed.js';
import type { CrawlEngine, FfmpegStatus, JobRunner } from '../farm/index.js';
import type { Activity } from './console/activity.js';

export type ServiceState = 'starting' | 'ready' | 'draining';

export interface Services {
  config: Config;
  store: Store;
  /** Undefined while starting. */
  farm: Farm | undefined;
  metrics: Metrics;
  log: Logger;
  router: Router;
  admission: Admission;
  /** Per-account quotas and request rate (quota.ts). */
  quota: QuotaGate;
  events: FeedEvents;
  /** Undefined while starting. */
  jobs: JobRunner | undefined;
  /** The node's crawl engine (running crawls); undefined while starting. */
  crawls?: CrawlEngine;
  state: () => ServiceState;
  /** The last hour of work, for GET /v1/status and the console. */
  activity: Activity;
  /** ffmpeg and ffprobe as checked at start (media downloads, /readyz); undefined while starting. */
  ffmpeg?: FfmpegStatus;
}

export interface Ctx {
  info: RequestInfo;
  reply: Reply;
  route: HttpRoute;
  /** The trailing path parameter of parameter routes. */
  param: string | undefined;
  account: Account | undefined;
  /** The validated body with defaults filled, on routes with an `endpoint`. */
  params: Record<string, unknown>;
  requestId: string;
  started: number;
}

export type Handler = (ctx: Ctx, svc: Services) => void | Promise<void>;
