/**
 * What the service cannot run, refused before anything is fetched, queued or charged — the same
 * checks at every front door (Web API, Job API, job feed, MCP).
 */
import { GleanerError } from '../core/errors.js';
import { checkExtractionConfig } from '../core/extraction/index.js';
import { routeById } from '../core/registry/index.js';
import type { Services } from './context.js';

/**
 * Refused before anything is fetched or queued: a route whose target has no upstream in
 * GLEANER_TARGETS (TARGET_NOT_CONFIGURED), a `json.prompt` with no model configured
 * (LLM_NOT_CONFIGURED), or a `json.schema` ajv cannot compile.
 */
export function refuseUnrunnable(routeId: string | undefined, params: Record<string, unknown>, svc: Services): void {
  if (routeId !== undefined) requireTarget(routeId, svc);
  const spec = params.json as { prompt?: string | null; schema?: Record<string, unknown> | null } | null | undefined;
  if (spec && (spec.prompt || spec.schema)) checkExtractionConfig(spec, svc.config.llm);
}

/**
 * A dedicated route works only when GLEANER_TARGETS gives its target an upstream — except a
 * route by URL (`/mkt1`, `/se1`, `/{token}`), whose URL names the upstream itself.
 */
export function requireTarget(routeId: string, svc: Services): void {
  const route = routeById(routeId);
  if (!route || route.input === 'url') return;
  const target = route.target;
  if (Object.hasOwn(svc.config.targets, target)) return;
  throw new GleanerError(
    'TARGET_NOT_CONFIGURED',
    `No upstream is configured for ${target} on this server: the operator adds {"${target}": {"baseUrl": "https://..."}} to the GLEANER_TARGETS file.`,
    { target },
  );
}

