/**
 * AWS Signature Version 4 for single S3-style requests (header authentication), written
 * against the published algorithm with node:crypto. S3, S3-compatible stores, TOS's S3
 * endpoint and the GCS XML API with HMAC keys all accept it.
 *
 *   canonical request = METHOD \n URI \n QUERY \n HEADERS \n SIGNED-HEADERS \n PAYLOAD-HASH
 *   string to sign    = "AWS4-HMAC-SHA256" \n AMZ-DATE \n SCOPE \n hex(sha256(canonical request))
 *   signing key       = HMAC(HMAC(HMAC(HMAC("AWS4"+secret, YYYYMMDD), region), service), "aws4_request")
 *
 * The payload hash is the real SHA-256 of the body (not UNSIGNED-PAYLOAD), so the store
 * rejects a body damaged in transit.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigV4Request {
  method: string;
  /** The Host header as sent: `host` or `host:port` (no default port). */
  host: string;
  /** The path exactly as sent, already URI-encoded (see `encodeKeyPath`). S3 does not normalise it. */
  path: string;
  /** Query parameters (not yet encoded). */
  query?: Record<string, string>;
  /** Headers to send and sign, besides host and the x-amz ones this adds. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
  region: string;
  service: string;
  credentials: SigningCredentials;
  date: Date;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - _ . ~ (and `/` when `keepSlash`). */
export function uriEncode(text: string, keepSlash = false): string {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

/** An object key as a URL path suffix: each segment encoded, slashes kept. */
export function encodeKeyPath(key: string): string {
  return uriEncode(key, true);
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * Signs the request. Returns the headers to send: the given ones plus `x-amz-date`,
 * `x-amz-content-sha256`, `x-amz-security-token` (when a session token is set) and
 * `authorization`. The Host header is signed but not returned: the HTTP client sets it
 * from the URL, which must produce the same `host` value.
 */
export function signV4(req: SigV4Request): Record<string, string> {
  const stamp = amzDate(req.date);
  const day = stamp.slice(0, 8);
  const out: Record<string, string> = { ...req.headers, 'x-amz-date': stamp, 'x-amz-content-sha256': req.payloadHash };
  if (req.credentials.sessionToken) out['x-amz-security-token'] = req.credentials.sessionToken;

  const canon = new Map<string, string>([['host', req.host]]);
  for (const [name, value] of Object.entries(out)) {
    canon.set(name.toLowerCase(), String(value).trim().replace(/\s+/g, ' '));
  }
  const names = [...canon.keys()].sort();
  const signedHeaders = names.join(';');
  const canonicalHeaders = names.map((n) => `${n}:${canon.get(n)}\n`).join('');
  const canonicalQuery = Object.entries(req.query ?? {})
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [req.method.toUpperCase(), req.path, canonicalQuery, canonicalHeaders, signedHeaders, req.payloadHash].join('\n');

  const scope = `${day}/${req.region}/${req.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${req.credentials.secretAccessKey}`, day), req.region), req.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');

  out.authorization = `AWS4-HMAC-SHA256 Credential=${req.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return out;
}
