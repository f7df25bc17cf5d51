/**
 * Runs a video route end to end: plan (core/targets/video/plan.ts) → the farm's flow executor
 * (flow-runner.ts) → the simulator → the route's parser. `requests` are what the simulator
 * received, in order; its origin is written as `SIM` so expectations stay literal.
 */
import { routeById } from '../../core/registry/index.js';
import type { ParseStatus } from '../../core/parsers/types.js';
import { PARSERS } from '../../core/targets/video/parsers.js';
import { planVideo } from '../../core/targets/video/plan.js';
import type { Simulator } from '../sites/server.js';
import { flowRunner } from './flow-runner.js';

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
  const seen = sim.log.length;
  const ran = await flowRunner().run(flow);
  const requests = sim.log.slice(seen).map((r) => r.replace(' ', ' SIM'));
  const parsed = PARSERS[id]?.({ html: ran.page.body, url: ran.page.url, page: 1, params, parts: ran.parts });
  const local = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null).replaceAll(sim.origin, 'SIM'));
  return { requests, status: parsed?.status, json: local(parsed?.json) };
}
