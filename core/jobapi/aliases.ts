/**
 * Source aliases (`GLEANER_SOURCE_ALIASES`: `{ "<alias>": "<Job API source>" }`): clients that
 * name sources by the reference service's names work unchanged. Checked once at start; a job
 * keeps the name its client sent (echoed on the job object) and runs, and is counted in
 * `/v2/stats`, as the source the alias names.
 */
import { routeOfSource } from './map.js';

export type SourceAliases = Readonly<Record<string, string>>;

/** Every problem of an aliases file, as lines for the start-up error (empty when it is fine). */
export function checkAliases(aliases: unknown, name = 'GLEANER_SOURCE_ALIASES'): string[] {
  if (aliases === null || typeof aliases !== 'object' || Array.isArray(aliases)) return [`${name} must be a JSON object { "<alias>": "<source>" }`];
  const errors: string[] = [];
  for (const [alias, source] of Object.entries(aliases as Record<string, unknown>)) {
    if (typeof source !== 'string') errors.push(`${name}: alias ${JSON.stringify(alias)} must name a source (a string)`);
    else if (routeOfSource(alias)) errors.push(`${name}: alias ${JSON.stringify(alias)} is already a source of its own`);
    else if (!routeOfSource(source)) errors.push(`${name}: alias ${JSON.stringify(alias)} names ${JSON.stringify(source)}, which is no source`);
  }
  return errors;
}

/** The source an alias stands for, or the name itself. */
export function resolveSource(aliases: SourceAliases, source: string): string {
  return Object.prototype.hasOwnProperty.call(aliases, source) ? aliases[source] : source;
}
