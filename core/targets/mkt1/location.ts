/**
 * The delivery-location flow of mkt1 (output-shapes §2.6), as flow data. The storefront prices
 * and stocks by delivery address, which lives in the server-side session named by the
 * `session-id` cookie:
 *
 * 1. `session` — GET the address-selection fragment; it sets the session cookies and carries
 *    the CSRF token (`CSRF_TOKEN : "..."`; an `anti-csrftoken-a2z` value is accepted too).
 * 2. `address-change` — POST the postal code as JSON with that token in the
 *    `anti-csrftoken-a2z` header. The reply says `isAddressUpdated: 1` even when the code was
 *    not applied, so the reply is read for the error detail only.
 * 3. (`pricing` only) `location-probe` — GET the home page: the all-offers fragment has no
 *    page header, so the delivery line is read here once per session.
 *
 * Steps 1-3 are setup: a session per (domain, postal code) is reused by later flows of the
 * same worker for SESSION_TTL_MS. The page step then runs with the session's cookies, and the
 * flow's `check` reads the delivery line of the page header (`#glow-ingress-line1` and
 * `-line2`: older headers put the place in line 2, "Deliver to" / "New York 10001"; the 2024+
 * header in line 1, "Delivering to Aldie 20105" / "Update location").
 */
import type { FetchStep, StepResponse, Vars, Verdict } from '../flow.js';
import { deliveryNames } from './marketplaces.js';

/** How long a worker reuses a (domain, postal code) session. */
export const SESSION_TTL_MS = 10 * 60_000;

export const FRAGMENT_PATH =
  '/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal';
export const ADDRESS_CHANGE_PATH = '/portal-migration/hz/glow/address-change?actionSource=glow';

/** The address-change body, with `{{zip}}` filled JSON-escaped by the farm. */
export const ADDRESS_CHANGE_BODY =
  '{"locationType":"LOCATION_INPUT","zipCode":"{{zip}}","storeContext":"generic","deviceType":"web","pageType":"Gateway","actionSource":"glow"}';

const TOKEN_PATTERNS = [/CSRF_TOKEN['"]?\s*[:=]\s*['"]([^'"]{8,})['"]/, /anti-csrftoken-a2z['"]?\s*[:=]\s*['"]([^'"]{8,})['"]/, /name="anti-csrftoken-a2z"\s+value="([^"]+)"/];

/** The CSRF token of the address-selection fragment. */
export function readToken(body: string): string | undefined {
  for (const re of TOKEN_PATTERNS) {
    const m = re.exec(body);
    if (m) return m[1];
  }
  return undefined;
}

const LINE = /<[a-z]+\b[^>]*\bid=["']?glow-ingress-line([12])["']?[^>]*>([\s\S]*?)<\/[a-z]+>/gi;
const ENTITY: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : all;
    }
    return ENTITY[e.toLowerCase()] ?? all;
  });
}

/**
 * The delivery line a page header shows (`Deliver to New York 10001`), or undefined when the
 * page has none. A string scan: the check runs on every page before it is parsed.
 */
export function shownLocation(html: string): string | undefined {
  const at = html.indexOf('glow-ingress-line');
  if (at < 0) return undefined;
  const lines: string[] = [];
  LINE.lastIndex = Math.max(0, at - 200);
  for (let m = LINE.exec(html); m && lines.length < 2; m = LINE.exec(html)) {
    lines.push(decode((m[2] as string).replace(/<[^>]*>/g, ' ')));
  }
  const text = lines.join(' ').replace(/[\s\u00a0\u200e\u200f]+/g, ' ').trim();
  return text === '' ? undefined : text;
}

/** Headers every step of an mkt1 flow sends: the currency preference cookie. */
export function stepHeaders(currency: string | undefined): Record<string, string> | undefined {
  return currency ? { cookie: `i18n-prefs=${currency.toUpperCase()}` } : undefined;
}

/** The setup steps that set the delivery postal code in a fresh session. */
export function locationSteps(base: string, headers: Record<string, string> | undefined, probe: boolean): FetchStep[] {
  const steps: FetchStep[] = [
    {
      kind: 'fetch',
      name: 'session',
      setup: true,
      url: `${base}${FRAGMENT_PATH}`,
      ...(headers ? { headers } : {}),
      read: { csrf: { from: 'fn', read: (body) => readToken(body) } },
    },
    {
      kind: 'fetch',
      name: 'address-change',
      setup: true,
      method: 'POST',
      url: `${base}${ADDRESS_CHANGE_PATH}`,
      headers: {
        ...headers,
        'anti-csrftoken-a2z': '{{csrf}}',
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: ADDRESS_CHANGE_BODY,
      read: { address_updated: { from: 'json', path: ['isAddressUpdated'] } },
    },
  ];
  if (probe) {
    steps.push({
      kind: 'fetch',
      name: 'location-probe',
      setup: true,
      url: `${base}/`,
      ...(headers ? { headers } : {}),
      read: { shown: { from: 'fn', read: (body) => shownLocation(body) } },
    });
  }
  return steps;
}

/**
 * The flow check of an mkt1 page. With `location`: the page (or, for header-less fragments,
 * the session's probe) must show delivery to that postal code; when it does not and
 * `check_empty_geo` is set, the attempt fails with `retry: true` (the next attempt starts a
 * fresh session), and the request ends failed and not charged when every attempt saw the same.
 * Without `check_empty_geo` a location that did not apply is retried the same way, and when every
 * attempt saw it, the content is returned as the storefront showed it. `check_empty_geo` without
 * `location` always fails: there is no location the content could be checked against (the
 * reference service faults too); without either there is nothing to check.
 */
export function locationCheck(domain: string, postal: string | undefined, strict: boolean): ((page: StepResponse, vars: Readonly<Vars>) => Verdict) | undefined {
  if (!strict && postal === undefined) return undefined;
  return (page, vars) => {
    // A non-2xx page is the fetch's failure to report, not a location verdict.
    if (page.status < 200 || page.status > 299) return { ok: true };
    const shown = shownLocation(page.body) ?? vars.shown;
    if (postal === undefined) {
      return {
        ok: false,
        retry: false,
        code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
        message: `check_empty_geo is set but no location was given: the page shows ${shown ? `"${shown}"` : 'no delivery location'}; give location (a postal code of the ${domain} marketplace)`,
        data: { wanted: null, shown: shown ?? null, domain },
      };
    }
    if (shown !== undefined && deliveryNames(shown, postal, domain)) return { ok: true };
    const said = vars.address_updated !== undefined ? ` although the address change answered isAddressUpdated ${vars.address_updated}` : '';
    return {
      ok: false,
      retry: true,
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: `The location was not applied: wanted delivery to ${postal} (${domain}), the page shows ${shown ? `"${shown}"` : 'no delivery location'}${said}`,
      data: { wanted: postal, shown: shown ?? null, domain },
      ...(strict ? {} : { lastResort: 'return' as const }),
    };
  };
}
