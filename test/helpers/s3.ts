/**
 * S3-compatible servers for tests, on 127.0.0.1 port 0.
 *
 * `startS3Server` — a minimal path-style S3 PUT/GET server that VERIFIES AWS SigV4 header
 * signatures (its own implementation, independent of farm/delivery/sigv4.ts), the payload
 * SHA-256 and the clock skew, and answers S3-style XML errors. It exists because s3rver
 * (which runs fine on Node 20) does not check V4 signatures: it only looks the access key id
 * up ("Signature version 4 calculation is unimplemented" in its source).
 *
 * `startS3rver` — the s3rver devDependency in a temp dir, for interoperability with a
 * third-party implementation. Its one account is S3RVER / S3RVER.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StoredObject {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

export interface RecordedS3Request {
  method: string;
  /** The raw request target as received. */
  rawPath: string;
  host: string;
  /** `date/region/service/aws4_request` from the Authorization header, '' when unsigned. */
  scope: string;
  status: number;
}

export interface S3Server {
  endpoint: string;
  port: number;
  requests: RecordedS3Request[];
  getObject(bucket: string, key: string): StoredObject | undefined;
  /** The next `n` requests get this error whatever they are. */
  failNext(n: number, status: number, code: string, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export interface S3ServerOptions {
  /** accessKeyId → secretAccessKey */
  keys: Record<string, string>;
  buckets: string[];
  /** Largest accepted |x-amz-date - now| (ms). Default 15 minutes, as S3. */
  maxSkewMs?: number;
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function xmlError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/xml', ...headers });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

type Check = { ok: true; scope: string } | { ok: false; status: number; code: string; message: string; scope: string };

/** Verifies a SigV4 Authorization header against the raw request. */
function verify(method: string, rawPath: string, headers: IncomingHttpHeaders, body: Buffer, opts: S3ServerOptions): Check {
  const auth = String(headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { ok: false, status: 403, code: 'AccessDenied', message: 'Missing or malformed V4 Authorization header', scope: '' };
  const [, keyId, day, region, service, signedList, signature] = m as unknown as string[];
  const scope = `${day}/${region}/${service}/aws4_request`;
  const secret = opts.keys[keyId!];
  if (secret === undefined) return { ok: false, status: 403, code: 'InvalidAccessKeyId', message: 'The access key id does not exist', scope };
  const amzDate = String(headers['x-amz-date'] ?? '');
  const when = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (Number.isNaN(when) || amzDate.slice(0, 8) !== day) return { ok: false, status: 403, code: 'AccessDenied', message: 'Bad x-amz-date', scope };
  if (Math.abs(Date.now() - when) > (opts.maxSkewMs ?? 15 * 60_000)) {
    return { ok: false, status: 403, code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the server time is too large', scope };
  }
  const payloadHash = String(headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== hex(body)) {
    return { ok: false, status: 400, code: 'XAmzContentSHA256Mismatch', message: 'The provided x-amz-content-sha256 header does not match the body', scope };
  }
  const signed = signedList!.split(';');
  if (!signed.includes('host')) return { ok: false, status: 403, code: 'AccessDenied', message: 'host must be signed', scope };
  const [pathPart, queryPart = ''] = rawPath.split('?');
  const query = queryPart
    .split('&')
    .filter(Boolean)
    .map((kv) => kv.split('=').map((x) => rfc3986(decodeURIComponent(x))).join('='))
    .sort()
    .join('&');
  const canonicalHeaders = signed.map((h) => `${h}:${String(headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [method, pathPart, query, canonicalHeaders, signedList, payloadHash].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac('AWS4' + secret, day!), region!), service!), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', key).update(toSign).digest('hex'));
  if (!timingSafeEqual(expected, Buffer.from(signature!))) {
    return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided', scope };
  }
  return { ok: true, scope };
}

export async function startS3Server(opts: S3ServerOptions): Promise<S3Server> {
  const objects = new Map<string, StoredObject>();
  const requests: RecordedS3Request[] = [];
  const failures: Array<{ status: number; code: string; headers: Record<string, string> }> = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawPath = req.url ?? '/';
      const method = req.method ?? '';
      const body = Buffer.concat(chunks);
      const record: RecordedS3Request = { method, rawPath, host: String(req.headers.host), scope: '', status: 0 };
      requests.push(record);
      const answer = (status: number, code?: string, message = '', headers?: Record<string, string>) => {
        record.status = status;
        if (code) xmlError(res, status, code, message, headers);
      };
      const failure = failures.shift();
      if (failure) return answer(failure.status, failure.code, 'Injected failure', failure.headers);
      const [bucket, ...keyParts] = rawPath.split('?')[0]!.slice(1).split('/').map(decodeURIComponent);
      const key = keyParts.join('/');
      if (!bucket || !opts.buckets.includes(bucket)) return answer(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (method === 'GET') {
        const obj = objects.get(`${bucket}/${key}`);
        if (!obj) return answer(404, 'NoSuchKey', 'The specified key does not exist.');
        record.status = 200;
        res.writeHead(200, { 'content-type': String(obj.headers['content-type'] ?? ''), ...(obj.headers['content-encoding'] ? { 'content-encoding': String(obj.headers['content-encoding']) } : {}) });
        return res.end(obj.body);
      }
      if (method !== 'PUT' || !key) return answer(405, 'MethodNotAllowed', 'Only PUT and GET of objects');
      const check = verify(method, rawPath, req.headers, body, opts);
      record.scope = check.scope;
      if (!check.ok) return answer(check.status, check.code, check.message);
      objects.set(`${bucket}/${key}`, { body, headers: req.headers });
      record.status = 200;
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requests,
    getObject: (bucket, key) => objects.get(`${bucket}/${key}`),
    failNext: (n, status, code, headers = {}) => {
      for (let i = 0; i < n; i++) failures.push({ status, code, headers });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The parts of s3rver we use (it ships no types). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;

export interface S3rverHandle {
  endpoint: string;
  accessKeyId: 'S3RVER';
  secretAccessKey: 'S3RVER';
  /** Reads an object back over plain HTTP (s3rver serves unauthenticated GETs). */
  getObject(bucket: string, key: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
  close(): Promise<void>;
}

export async function startS3rver(buckets: string[]): Promise<S3rverHandle> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;
  const directory = mkdtempSync(join(tmpdir(), 'gleaner-s3rver-'));
  const instance = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await instance.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    // node:http rather than fetch: fetch would gunzip a Content-Encoding: gzip object.
    getObject: (bucket, key) =>
      new Promise((resolve, reject) => {
        get(`${endpoint}/${bucket}/${key.split('/').map(rfc3986).join('/')}`, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
          });
        }).on('error', reject);
      }),
    close: async () => {
      await instance.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
