/**
 * The ten network facts a fingerprinting site compares, read from two recorded requests (ours
 * and the reference browser's, in the same run), with a printable table. Values are compared
 * as strings; `normalizeHeadless` removes the one tell of the reference's own headless mode
 * (`HeadlessChrome` in its user agent), which a person's Chromium does not send.
 */
import type { RecordedRequest } from './server.js';

export const FACTS = [
  'ja4',
  'ja4_ciphers',
  'ja4_extensions',
  'alpn',
  'h2_settings',
  'h2_window_update',
  'h2_pseudo_order',
  'header_order',
  'header_values',
  'client_hints',
] as const;

export type Fact = (typeof FACTS)[number];

const VALUE_HEADERS = ['user-agent', 'accept', 'accept-encoding', 'accept-language', 'upgrade-insecure-requests', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-user', 'sec-fetch-dest', 'priority'];
const HINT_HEADERS = ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform'];

export function factsOf(r: RecordedRequest, opts: { normalizeHeadless?: boolean } = {}): Record<Fact, string> {
  const value = (name: string) => {
    const v = r.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '(none)';
    return opts.normalizeHeadless ? v.replace('HeadlessChrome/', 'Chrome/') : v;
  };
  return {
    ja4: r.tls.ja4,
    ja4_ciphers: r.tls.ja4Ciphers,
    ja4_extensions: r.tls.ja4Extensions,
    alpn: r.tls.alpn ?? '(none)',
    h2_settings: r.h2?.settings ?? '(no h2)',
    h2_window_update: r.h2?.windowUpdate ?? '(no h2)',
    h2_pseudo_order: r.akamai ? `${r.akamai.split('|').slice(2).join('|')} headers:${r.h2?.headersPriority}` : '(no h2)',
    header_order: r.headers.map(([n]) => n.toLowerCase()).filter((n) => n !== 'cookie').join(','),
    header_values: VALUE_HEADERS.map((n) => `${n}=${value(n)}`).join('\n'),
    client_hints: HINT_HEADERS.map((n) => `${n}=${value(n)}`).join('\n'),
  };
}

export interface Score {
  equal: number;
  total: number;
  differing: Fact[];
  table: string;
}

export function score(ours: Record<Fact, string>, reference: Record<Fact, string>, label = 'ours'): Score {
  const differing = FACTS.filter((f) => ours[f] !== reference[f]);
  const lines = FACTS.map((f) => {
    const same = ours[f] === reference[f];
    const show = (v: string) => v.replace(/\n/g, ' | ');
    return same ? `  = ${f}: ${show(ours[f]).slice(0, 140)}` : `  ≠ ${f}:\n      ${label}: ${show(ours[f])}\n      chromium: ${show(reference[f])}`;
  });
  const equal = FACTS.length - differing.length;
  return { equal, total: FACTS.length, differing, table: `${label}: ${equal}/${FACTS.length} network facts equal to Chromium\n${lines.join('\n')}` };
}
