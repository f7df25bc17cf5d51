/**
 * Fetch planning (seam: owned by the target work): a validated request of a route becomes the
 * list of upstream fetches, one per page. Upstream hosts come from `GLEANER_TARGETS`; code holds
 * no third-party host names.
 */
import type { TargetConfig } from '../config.js';
import type { RouteSpec } from '../registry/types.js';
import { GleanerError } from '../errors.js';

export interface FetchPlan {
  url: string;
  /** 1-based page number (`metadata.page`). */
  page: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export function planFetches(
  route: RouteSpec,
  params: Record<string, unknown>,
  targets: Readonly<Record<string, TargetConfig>>,
): FetchPlan[] {
  void targets;
  if (route.input === 'url' && typeof params.url === 'string') return [{ url: params.url, page: 1 }];
  throw new GleanerError('INTERNAL_ERROR', `no fetch planner for route ${route.id}`);
}
