/**
 * Runs a video route end to end for unit tests: plan (core/targets/video/plan.ts) → the
 * simulator (walked with flow-walk.ts) → the route's parser. The simulator's origin is written
 * as `SIM` in the answer so expectations stay literal.
 */
import { routeById } from '../../core/registry/index.js';
import type { ParseStatus } from '../../core/parsers/types.js';
import { PARSERS } from '../../core/targets/video/parsers.js';
import { planVideo } from '../../core/targets/video/plan.js';
import type { Simulator } from '../sites/server.js';
import { walk } from './flow-walk.js';

export interface RouteRun {
  requests: string[];
  status: ParseStatus | undefined;
  json: unknown;
}

export function simTargets(origin: string, extra = true): Record<string, { baseUrl: string }> {
  return {
    video: { baseUrl: `${origin}/video` },
    ...(extra ? { video_api: { baseUrl: `${origin}/video-api` }, video_suggest: { baseUrl: `${origin}/video-suggest` } } : {}),
  };
}

export async function runRoute(sim: Simulator, id: string, params: Record<string, unknown>): Promise<RouteRun> {
  const route = routeById(id);
  if (!route) throw new Error(`no route ${id}`);
  const [flow] = planVideo(route, params, simTargets(sim.origin));
  if (!flow) throw new Error('no flow');
  const walked = await walk(flow);
  const parsed = PARSERS[id]?.({ html: walked.page.body, url: walked.page.url, page: 1, params, parts: walked.parts });
  const local = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null).replaceAll(sim.origin, 'SIM'));
  return { requests: walked.requests.map((r) => r.replace(sim.origin, 'SIM')), status: parsed?.status, json: local(parsed?.json) };
}
