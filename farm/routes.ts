/** Route lookup for the worker: the registry's record of a task's route. */
import { GleanerError } from '../core/errors.js';
import { routeById } from '../core/registry/index.js';
import type { RouteSpec } from '../core/registry/types.js';

export function routeFor(id: string): RouteSpec {
  const route = routeById(id);
  if (!route) throw new GleanerError('NOT_FOUND', `No such route ${JSON.stringify(id)}.`);
  return route;
}
