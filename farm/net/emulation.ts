/**
 * What the plain path's client presents below the headers: Chrome's TLS ClientHello and
 * HTTP/2 connection, through wreq-js (pinned, see README "What a site sees").
 *
 * - TLS: wreq's `chrome_149` preset (BoringSSL, as Chrome: cipher and extension lists, GREASE,
 *   extension permutation, X25519MLKEM768, ECH GREASE, ALPS, certificate compression). It is
 *   the newest Chrome the library ships; Chromium 156 also sends the Trust Anchor Identifiers
 *   extension (0xca34) and the ML-DSA signature algorithms (0x0904-0x0906), which the
 *   library's BoringSSL cannot be told to send, so JA4's extension half differs from 156's
 *   (the recorder test prints the diff). Tried and measured (README "The TLS gap"): any
 *   `tlsOptions` replaces this preset whole, `sigalgsList` refuses ML-DSA names, no option
 *   requests trust anchors, and the lone 3.2.0 binding on the registry sends the same hello.
 * - HTTP/2: given in full (wreq replaces, not merges, the preset's h2 options when any is
 *   given): SETTINGS 1:65536;2:0;4:6291456;6:262144 in that order, a connection
 *   WINDOW_UPDATE of 15663105, pseudo-headers m,a,s,p, HEADERS with exclusive weight 256.
 * - HTTP/1.1 (servers without h2): Chrome's header case and order, `Host` and `Connection`
 *   first (`origHeaders`, `wireHeaders`).
 *
 * The headers themselves are identity/headers.ts's (`disableDefaultHeaders`).
 */
import type { CreateTransportOptions } from 'wreq-js';

export const BASE_PROFILE = 'chrome_149' as const;

/**
 * Chrome's HTTP/1.1 spelling of header names (the client writes a name as given on HTTP/1.1
 * and lower-cases it on h2). `sec-ch-*` stay lower-case, as Chrome writes them.
 */
const H1_CASE: Record<string, string> = Object.fromEntries(
  ['Connection', 'Content-Length', 'Content-Type', 'Upgrade-Insecure-Requests', 'User-Agent', 'Accept', 'Origin', 'Sec-Fetch-Site', 'Sec-Fetch-Mode', 'Sec-Fetch-User', 'Sec-Fetch-Dest', 'Referer', 'Accept-Encoding', 'Accept-Language', 'Cookie', 'Range', 'Priority'].map((n) => [n.toLowerCase(), n]),
);

/**
 * The headers as handed to the client: Chrome's HTTP/1.1 spelling, and `Connection: keep-alive`
 * second after `Host` (on h2 the client drops it, as Chrome never sends it there).
 */
export function wireHeaders(headers: ReadonlyArray<[string, string]>): Array<[string, string]> {
  return [['Connection', 'keep-alive'], ...headers.map(([n, v]): [string, string] => [H1_CASE[n] ?? n, v])];
}

export const CHROME_EMULATION: Pick<CreateTransportOptions, 'browser' | 'os' | 'emulation'> = {
  browser: BASE_PROFILE,
  os: 'linux',
  emulation: {
    // Only where the client adds `Host` (first, as Chrome); every other name keeps the order given.
    origHeaders: ['Host', 'Connection'],
    http2Options: {
      headerTableSize: 65536,
      enablePush: false,
      initialWindowSize: 6291456,
      maxHeaderListSize: 262144,
      settingsOrder: ['HeaderTableSize', 'EnablePush', 'InitialWindowSize', 'MaxHeaderListSize'],
      // The connection window Chrome opens: 65535 + its WINDOW_UPDATE of 15663105.
      initialConnectionWindowSize: 15728640,
      headersPseudoOrder: ['Method', 'Authority', 'Scheme', 'Path'],
      headersStreamDependency: { dependencyId: 0, weight: 255, exclusive: true },
    },
  },
};
