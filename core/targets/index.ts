/**
 * Fetch planning: a validated request of a route becomes the list of upstream fetches, one per
 * page. Upstream hosts come only from `GLEANER_TARGETS` (the `targets` argument); code holds no
 * third-party host names. se1 and se2 have their own planners (engine query vocabulary); every
 * other family uses the default convention documented in default.ts; `universal` fetches `url`.
 */
import type { TargetConfig } from '../config.js';
import type { RouteSpec } from '../registry/types.js';
import { planDefault } from './default.js';
import { planSe1, requireUrl } from './se1.js';
import { planSe2 } from './se2.js';

export interface FetchPlan {
  url: string;
  /** 1-based page number (`metadata.page`): the engine's page number, so `start_page: 3` plans page 3 first. */
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
  if (route.target === 'universal' || route.id === 'universal') return [{ url: requireUrl(route, params), page: 1 }];
  if (route.target === 'se1') return planSe1(route, params, targets);
  if (route.target === 'se2') return planSe2(route, params, targets);
  return planDefault(route, params, targets);
}

export { pathAfterTarget } from './default.js';
