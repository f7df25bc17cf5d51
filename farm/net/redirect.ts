/**
 * The target of an upstream redirect. A `Location` the URL parser refuses (`http://[zz`, an
 * IPv6 zone id such as `http://[fe80::1%25eth0]/`, a port out of range) is the upstream's
 * fault, not ours: the fetch fails at once (not retried: every attempt would get the same
 * answer) with the status, the header as sent and why it was refused in the detail, instead of
 * an unexplained internal error.
 */
import { GleanerError } from '../../core/errors.js';

export function redirectTarget(location: string, base: URL | string, status: number): string {
  try {
    return new URL(location, base).href;
  } catch {
    const shown = JSON.stringify(location.length > 200 ? `${location.slice(0, 200)}…` : location);
    const why = /\[[^\]]*%/.test(location)
      ? 'an IPv6 zone id cannot be fetched'
      : /^[a-z][a-z0-9+.-]*:\/\/\[/i.test(location)
        ? 'its bracketed IPv6 host is malformed'
        : 'it is not a valid URL';
    throw new GleanerError('UPSTREAM_FAILED', `The upstream answered ${status} with a Location header the redirect cannot follow, ${shown}: ${why}`, {
      final: true,
    });
  }
}
