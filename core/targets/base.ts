/**
 * Shared pieces of fetch planning: the upstream base URL of a target (from GLEANER_TARGETS
 * only), page ranges, and deterministic URL assembly.
 *
 * `baseUrl` may hold `{domain}` (national host, e.g. `https://www.example.{domain}`) and
 * `{subdomain}` placeholders and may carry a path prefix (the simulator maps `se1` to
 * `http://127.0.0.1:PORT/se1`). When it has no `{domain}` placeholder, planners pass the domain
 * as a `domain=` query parameter instead, so an upstream (or the simulator) still sees it.
 */
import type { TargetConfig } from '../config.js';
import type { RouteSpec } from '../registry/types.js';
import { GleanerError } from '../errors.js';

export type Targets = Readonly<Record<string, TargetConfig>>;
export type Params = Record<string, unknown>;
/** Query parameters in the order they are written. */
export type Query = [string, string][];

export interface Base {
  /** Base URL without a trailing slash, placeholders filled. */
  url: string;
  /** Whether `{domain}` was filled from the base (so `domain=` must not be added again). */
  domainInHost: boolean;
  subdomainInHost: boolean;
}

export function targetConfig(targets: Targets, token: string): TargetConfig {
  const cfg = Object.prototype.hasOwnProperty.call(targets, token) ? targets[token] : undefined;
  if (!cfg || typeof cfg.baseUrl !== 'string' || cfg.baseUrl === '') {
    throw new GleanerError(
      'TARGET_NOT_CONFIGURED',
      `No upstream is configured for target '${token}': add {"${token}": {"baseUrl": "https://..."}} to the GLEANER_TARGETS file.`,
      { target: token },
    );
  }
  return cfg;
}

/**
 * The target's base URL with placeholders filled. `defaultDomain` applies when the base has a
 * `{domain}` placeholder and the request names no domain (se1/se2: `com`).
 */
export function baseFor(targets: Targets, token: string, params: Params, defaultDomain = 'com'): Base {
  const cfg = targetConfig(targets, token);
  const domain = str(params.domain) ?? (typeof cfg.defaultDomain === 'string' ? cfg.defaultDomain : defaultDomain);
  const subdomain = str(params.subdomain) ?? (typeof cfg.defaultSubdomain === 'string' ? cfg.defaultSubdomain : 'www');
  const domainInHost = cfg.baseUrl.includes('{domain}');
  const subdomainInHost = cfg.baseUrl.includes('{subdomain}');
  const url = cfg.baseUrl.replaceAll('{domain}', domain).replaceAll('{subdomain}', subdomain).replace(/\/+$/, '');
  return { url, domainInHost, subdomainInHost };
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function int(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

/** A parameter value as it goes on the wire: arrays comma-joined, objects as JSON. */
export function wire(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(',');
  return JSON.stringify(v);
}

/** Consecutive pages `start_page .. start_page + pages - 1` (1-based page numbers). */
export function pageRange(params: Params): number[] {
  const start = Math.max(1, int(params.start_page) ?? 1);
  const count = Math.max(1, int(params.pages) ?? 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

export function buildUrl(base: string, path: string, query: Query): string {
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

/** `en_US` → `en-US` (the interface-language form the engines take). */
export function languageTag(locale: string): string {
  return locale.replace(/_/g, '-');
}

/** Appends `key=value` to an absolute URL, replacing an existing `key`. */
export function withParam(url: string, key: string, value: string): string {
  try {
    const u = new URL(url);
    u.searchParams.set(key, value);
    return u.toString();
  } catch {
    return url;
  }
}

/** The `url` of a url-input route (validated before planning, so its absence is a bug). */
export function requireUrl(route: RouteSpec, params: Params): string {
  const url = str(params.url);
  if (url === undefined) throw new GleanerError('INTERNAL_ERROR', `route ${route.id} was planned without a url`);
  return url;
}
