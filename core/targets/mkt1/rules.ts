/**
 * mkt1's own validation: on mkt1 `location` is a delivery postal code that must belong to the
 * marketplace chosen by `domain` (spec 2.1); on `/mkt1` the marketplace is read from the URL.
 */
import type { FieldError } from '../../errors.js';
import type { RouteSpec } from '../../registry/types.js';
import type { Body, CrossFieldRule } from '../adapter.js';
import { MKT1_DEFAULT_DOMAIN, MKT1_MARKETPLACES, type PostalRule } from './routes.js';

const hasParam = (route: RouteSpec, name: string): boolean => Object.hasOwn(route.params, name);

/** The marketplace domain an mkt1 URL belongs to: the longest table domain its host ends with. */
export function marketplaceOfUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  let best: string | undefined;
  for (const domain of Object.keys(MKT1_MARKETPLACES)) {
    if (host.endsWith(`.${domain}`) && (!best || domain.length > best.length)) best = domain;
  }
  return best;
}

/** Marketplaces the body targets: its `domain` (default com), or on `/mkt1` those of its URLs. */
function marketplacesOf(body: Body, route: RouteSpec): string[] {
  if (hasParam(route, 'domain')) {
    const domain = body.domain ?? MKT1_DEFAULT_DOMAIN;
    // An unknown domain is the schema's error; nothing to compare the postal code with.
    return typeof domain === 'string' && Object.hasOwn(MKT1_MARKETPLACES, domain) ? [domain] : [];
  }
  const urls = Array.isArray(body.url) ? body.url : [body.url];
  return [...new Set(urls.map(marketplaceOfUrl).filter((d): d is string => d !== undefined))];
}

function postalMismatch(code: string, domain: string, rule: PostalRule): FieldError {
  return {
    pointer: '#/location',
    detail: `must be a postal code of the ${domain} marketplace: ${rule.shape}, e.g. ${rule.example} (got "${code}")`,
  };
}

export const MKT1_RULES: readonly CrossFieldRule[] = [
  {
    id: 'mkt1-postal-fits-marketplace',
    description: 'On mkt1 the location postal code must belong to the marketplace selected by domain (spec 2.1).',
    applies: (route) => route.location === 'postal',
    check(body, route) {
      const code = body.location;
      if (typeof code !== 'string') return [];
      for (const domain of marketplacesOf(body, route)) {
        const rule = MKT1_MARKETPLACES[domain]!;
        if (!rule.pattern.test(code)) return [postalMismatch(code, domain, rule)];
      }
      return [];
    },
  },
];

/** Problems of the `mkt1` GLEANER_TARGETS entry: its base URL may hold `{domain}` only. */
export function checkTarget(token: string, cfg: { baseUrl: string }): string[] {
  const unknown = [...cfg.baseUrl.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).filter((p) => p !== 'domain');
  return unknown.map((p) => `baseUrl holds an unknown placeholder {${p}} (mkt1 fills {domain} only)`);
}
