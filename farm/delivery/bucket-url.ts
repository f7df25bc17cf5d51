/**
 * `storage.url` → where to PUT the result. The spec does not validate `storage.url` at submit
 * (2.1): a malformed value is accepted, the job runs and is charged, and delivery fails. So
 * every problem here is a result `{ok:false, error}` for the job record, never a throw.
 *
 * Accepted forms (a trailing `/` on the prefix is optional; empty segments are dropped):
 *   s3, s3_gzip    s3://bucket/prefix
 *                  https://bucket.s3.<region>.amazonaws.com/prefix   (also s3-<region>, or no region)
 *                  https://s3.<region>.amazonaws.com/bucket/prefix
 *                  Region: from the URL, else the operator's `s3.region`, else us-east-1.
 *                  An operator `s3.endpoint` replaces the AWS host (path-style).
 *   s3_compatible  http(s)://endpoint[:port]/bucket/prefix           (path-style, endpoint from the URL)
 *   tos            https://tos-s3-<region>.<domain>/bucket/prefix    (path form)
 *                  https://bucket.tos-s3-<region>.<domain>/prefix    (virtual-hosted form)
 *                  TOS serves S3 only on its `tos-s3-` hosts, virtual-hosted: a native
 *                  `tos-<region>` host is mapped to `tos-s3-<region>`, and requests to `tos-`
 *                  hosts are sent virtual-hosted whatever the form. Other hosts (a gateway,
 *                  tests) get path-style. Region from the host, else `tos.region`.
 *   gcs            gs://bucket/prefix → the XML API, https://storage.googleapis.com unless the
 *                  operator sets `gcs.endpoint`; region `auto` unless `gcs.region`.
 *
 * Object key: `<prefix>/<job_id>.json`, or `<prefix>/<job_id>.json.gz` for s3_gzip
 * (`<job_id>.json` when there is no prefix); a media file is `<prefix>/<job_id>.<its extension>`
 * whatever the type.
 */
import type { BucketCredentials, StorageType } from './config.js';
import { encodeKeyPath, uriEncode } from './sigv4.js';

export interface BucketTarget {
  type: StorageType;
  /** `scheme://host[:port]` of the service, without the bucket. */
  endpoint: string;
  bucket: string;
  key: string;
  region: string;
  /** true: `endpoint/bucket/key`; false: `bucket.endpoint-host/key`. */
  pathStyle: boolean;
  /** The endpoint host was chosen by the request (s3_compatible, tos): the address guard applies. */
  endpointFromRequest: boolean;
}

export type ParsedBucketUrl = { ok: true; target: BucketTarget } | { ok: false; error: string };

const AWS_VHOST = /^(.+)\.s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com$/;
const AWS_PATH = /^s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com$/;
const TOS_VHOST = /^([a-z0-9][a-z0-9-]*[a-z0-9])\.(tos-[a-z0-9-]+\..+)$/;
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const GCS_BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const ANY_BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{0,253}[A-Za-z0-9]$/;
export const GCS_DEFAULT_ENDPOINT = 'https://storage.googleapis.com';

const fail = (error: string): ParsedBucketUrl => ({ ok: false, error });

/** The object key for a job: `<prefix>/<job_id>.json` (`.json.gz` for s3_gzip), or `.<extension>` for a media file. */
export function objectKey(prefix: string, jobId: string, type: StorageType, extension?: string): string {
  const name = extension ? `${jobId}.${extension}` : `${jobId}${type === 's3_gzip' ? '.json.gz' : '.json'}`;
  return prefix ? `${prefix}/${name}` : name;
}

/** Path segments, percent-decoded, empty ones dropped; an error string for `.`/`..` or bad escapes. */
function segments(pathname: string): string[] | string {
  const out: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return `storage.url path has a malformed percent-escape in ${JSON.stringify(raw)}`;
    }
    // URL parsing has already resolved dot segments (even %2E%2E); this only guards the invariant.
    if (seg === '.' || seg === '..') return 'storage.url path must not contain "." or ".." segments';
    out.push(seg);
  }
  return out;
}

export function parseBucketUrl(type: StorageType, url: unknown, jobId: string, creds?: BucketCredentials, extension?: string): ParsedBucketUrl {
  if (typeof url !== 'string' || url.trim() === '') return fail('storage.url is empty');
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return fail(`storage.url is not a valid URL: ${JSON.stringify(url.slice(0, 120))}`);
  }
  if (u.search || u.hash) return fail('storage.url must not have a query or fragment');
  if (u.username || u.password) return fail('storage.url must not carry credentials; they come from the operator configuration');
  const segs = segments(u.pathname);
  if (typeof segs === 'string') return fail(segs);

  const done = (t: Omit<BucketTarget, 'key' | 'type'>, prefixSegs: string[], rule: RegExp): ParsedBucketUrl => {
    if (!t.bucket) return fail(`storage.url for type ${type} names no bucket`);
    if (!rule.test(t.bucket)) return fail(`storage.url bucket name ${JSON.stringify(t.bucket)} is not valid for type ${type}`);
    return { ok: true, target: { type, ...t, key: objectKey(prefixSegs.join('/'), jobId, type, extension) } };
  };

  switch (type) {
    case 's3':
    case 's3_gzip': {
      let bucket: string;
      let region = creds?.region ?? 'us-east-1';
      let rest = segs;
      const host = u.hostname;
      if (u.protocol === 's3:') {
        bucket = decodeURIComponent(host);
      } else if ((u.protocol === 'https:' || u.protocol === 'http:') && AWS_VHOST.test(host) && !AWS_PATH.test(host)) {
        const m = AWS_VHOST.exec(host)!;
        bucket = m[1]!;
        if (m[2]) region = m[2];
      } else if ((u.protocol === 'https:' || u.protocol === 'http:') && AWS_PATH.test(host)) {
        const m = AWS_PATH.exec(host)!;
        if (m[1]) region = m[1];
        bucket = segs[0] ?? '';
        rest = segs.slice(1);
      } else {
        return fail(`storage.url for type ${type} must be s3://bucket/prefix or an amazonaws.com bucket URL (use s3_compatible for other endpoints)`);
      }
      const override = creds?.endpoint;
      // Dotted bucket names break the *.s3 wildcard certificate: path-style for those.
      const pathStyle = override !== undefined || bucket.includes('.');
      const endpoint = override ?? `https://s3.${region}.amazonaws.com`;
      return done({ endpoint, bucket, region, pathStyle, endpointFromRequest: false }, rest, S3_BUCKET);
    }
    case 's3_compatible': {
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return fail('storage.url for type s3_compatible must be http(s)://endpoint/bucket/prefix');
      const refused = hostNotAllowed(u.host, creds, type);
      if (refused) return fail(refused);
      const region = creds?.region ?? 'us-east-1';
      return done({ endpoint: u.origin, bucket: segs[0] ?? '', region, pathStyle: true, endpointFromRequest: true }, segs.slice(1), ANY_BUCKET);
    }
    case 'tos': {
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return fail('storage.url for type tos must be https://endpoint/bucket/prefix or https://bucket.endpoint/prefix');
      const port = u.port ? `:${u.port}` : '';
      const vhost = TOS_VHOST.exec(u.hostname);
      const bucket = vhost ? vhost[1]! : (segs[0] ?? '');
      const rest = vhost ? segs : segs.slice(1);
      const endpointHost = (vhost ? vhost[2]! : u.hostname).replace(/^tos-(?!s3-)/, 'tos-s3-');
      const isTosHost = endpointHost.startsWith('tos-s3-');
      const refused = hostNotAllowed(endpointHost + port, creds, type);
      if (refused) return fail(refused);
      const region = /^tos-s3-([a-z0-9-]+?)\./.exec(endpointHost)?.[1] ?? creds?.region ?? 'us-east-1';
      const endpoint = `${u.protocol}//${endpointHost}${port}`;
      return done({ endpoint, bucket, region, pathStyle: !isTosHost, endpointFromRequest: true }, rest, S3_BUCKET);
    }
    case 'gcs': {
      const endpoint = creds?.endpoint ?? GCS_DEFAULT_ENDPOINT;
      const region = creds?.region ?? 'auto';
      if (u.protocol === 'gs:') {
        return done({ endpoint, bucket: decodeURIComponent(u.hostname), region, pathStyle: true, endpointFromRequest: false }, segs, GCS_BUCKET);
      }
      if (u.origin === new URL(endpoint).origin) {
        return done({ endpoint, bucket: segs[0] ?? '', region, pathStyle: true, endpointFromRequest: false }, segs.slice(1), GCS_BUCKET);
      }
      return fail('storage.url for type gcs must be gs://bucket/prefix');
    }
  }
}

function hostNotAllowed(host: string, creds: BucketCredentials | undefined, type: StorageType): string | null {
  const allowed = creds?.allowedHosts;
  if (!allowed || allowed.includes(host.toLowerCase())) return null;
  return `storage.url endpoint ${host} is not among the operator's allowed ${type} hosts`;
}

/** The request URL and the Host/path pair that is signed. */
export function objectLocation(t: BucketTarget): { url: URL; host: string; path: string } {
  const base = new URL(t.endpoint);
  const keyPath = encodeKeyPath(t.key);
  const path = t.pathStyle ? `/${uriEncode(t.bucket)}/${keyPath}` : `/${keyPath}`;
  const host = t.pathStyle ? base.host : `${t.bucket}.${base.host}`;
  return { url: new URL(`${base.protocol}//${host}${path}`), host, path };
}
