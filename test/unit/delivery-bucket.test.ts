import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeliveryAgents, parseBucketUrl, uploadResult, type BucketCredentials } from '../../farm/delivery/index.js';
import { startS3Server, startS3rver, type S3rverHandle, type S3Server } from '../helpers/s3.js';

const JOB = '1747000000000000001';
const RESULT = JSON.stringify({ results: [{ content: 'héllo', page: 1 }], status: 'done' });
const KEYS = { AKIDTEST: 'secret-key-test', GOOGHMAC: 'gcs-hmac-secret' };

let s3: S3Server;
let rver: S3rverHandle;
beforeAll(async () => {
  s3 = await startS3Server({ keys: KEYS, buckets: ['results', 'gcs-results'] });
  rver = await startS3rver(['rver-bucket']);
});
afterAll(async () => {
  await s3.close();
  await rver.close();
  await closeDeliveryAgents();
});

// Account 7 may write the buckets these tests use (GLEANER_STORAGE `buckets`, binding.ts).
const BUCKETS = { '7': ['results', 'nobucket', 'b', 'bucket'] };
const creds = (extra: Partial<BucketCredentials> = {}): BucketCredentials => ({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-key-test', buckets: BUCKETS, ...extra });
const base = { jobId: JOB, clientId: 7, timeoutMs: 5_000 };

describe('uploadResult against a SigV4-verifying S3 server', () => {
  it('s3: plain JSON, read back byte for byte', async () => {
    const r = await uploadResult({ type: 's3', url: 's3://results/daily/' }, RESULT, creds({ endpoint: s3.endpoint }), base);
    expect(r).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/results/daily/${JOB}.json` });
    const obj = s3.getObject('results', `daily/${JOB}.json`)!;
    expect(obj.body.equals(Buffer.from(RESULT, 'utf8'))).toEqual(true);
    expect(obj.headers['content-type']).toEqual('application/json');
    expect(obj.headers['content-encoding']).toEqual(undefined);
    expect(s3.requests.at(-1)!.scope.split('/').slice(1)).toEqual(['us-east-1', 's3', 'aws4_request']);
  });

  it('s3_gzip: .json.gz, Content-Encoding gzip, gunzips to the JSON', async () => {
    const r = await uploadResult({ type: 's3_gzip', url: 's3://results/zipped' }, Buffer.from(RESULT), creds({ endpoint: s3.endpoint, region: 'eu-west-1' }), base);
    expect(r).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/results/zipped/${JOB}.json.gz` });
    const obj = s3.getObject('results', `zipped/${JOB}.json.gz`)!;
    expect(gunzipSync(obj.body).toString('utf8')).toEqual(RESULT);
    expect([obj.headers['content-type'], obj.headers['content-encoding']]).toEqual(['application/json', 'gzip']);
    expect(s3.requests.at(-1)!.scope.split('/')[1]).toEqual('eu-west-1');
  });

  it('s3_compatible: endpoint from the URL, path-style; odd characters in the prefix', async () => {
    const url = `${s3.endpoint}/results/my%20exports/na%C3%AFve`;
    const r = await uploadResult({ type: 's3_compatible', url }, RESULT, creds(), { ...base, allowPrivate: true });
    expect(r).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/results/my%20exports/na%C3%AFve/${JOB}.json` });
    expect(s3.getObject('results', `my exports/naïve/${JOB}.json`)!.body.toString()).toEqual(RESULT);
  });

  it('s3_compatible: a request-chosen loopback endpoint is refused unless private networks are allowed', async () => {
    const before = s3.requests.length;
    const r = await uploadResult({ type: 's3_compatible', url: `${s3.endpoint}/results/x` }, RESULT, creds(), base);
    expect(r).toEqual({ ok: false, retry: false, error: 'refused: The target 127.0.0.1 is not allowed: it is a private or reserved address.' });
    expect(s3.requests.length).toEqual(before);
  });

  it('s3_compatible: the operator allow-list of hosts', async () => {
    const r = await uploadResult({ type: 's3_compatible', url: `${s3.endpoint}/results/x` }, RESULT, creds({ allowedHosts: ['minio.internal:9000'] }), {
      ...base,
      allowPrivate: true,
    });
    expect(r).toEqual({ ok: false, retry: false, error: `storage.url endpoint 127.0.0.1:${s3.port} is not among the operator's allowed s3_compatible hosts` });
    const ok = await uploadResult({ type: 's3_compatible', url: `${s3.endpoint}/results/x` }, RESULT, creds({ allowedHosts: [`127.0.0.1:${s3.port}`] }), {
      ...base,
      allowPrivate: true,
    });
    expect(ok).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/results/x/${JOB}.json` });
  });

  it('tos: path form on a non-TOS host, region from config', async () => {
    const r = await uploadResult({ type: 'tos', url: `${s3.endpoint}/results/tos-out/` }, RESULT, creds({ region: 'cn-beijing' }), { ...base, allowPrivate: true });
    expect(r).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/results/tos-out/${JOB}.json` });
    expect(s3.getObject('results', `tos-out/${JOB}.json`)!.body.toString()).toEqual(RESULT);
    expect(s3.requests.at(-1)!.scope.split('/')[1]).toEqual('cn-beijing');
  });

  it('gcs: gs:// through the XML API endpoint override, HMAC key, region auto', async () => {
    const gcs = { accessKeyId: 'GOOGHMAC', secretAccessKey: 'gcs-hmac-secret', endpoint: s3.endpoint, buckets: { '*': ['gcs-results/a'] } };
    const r = await uploadResult({ type: 'gcs', url: 'gs://gcs-results/a/b' }, RESULT, gcs, base);
    expect(r).toEqual({ ok: true, status: 200, location: `${s3.endpoint}/gcs-results/a/b/${JOB}.json` });
    expect(s3.getObject('gcs-results', `a/b/${JOB}.json`)!.body.toString()).toEqual(RESULT);
    expect(s3.requests.at(-1)!.scope.split('/').slice(1)).toEqual(['auto', 's3', 'aws4_request']);
  });

  it('wrong secret → SignatureDoesNotMatch, final', async () => {
    const r = await uploadResult({ type: 's3', url: 's3://results/p' }, RESULT, creds({ endpoint: s3.endpoint, secretAccessKey: 'wrong' }), base);
    expect(r).toEqual({
      ok: false,
      retry: false,
      status: 403,
      error: 's3 bucket answered HTTP 403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided',
    });
  });

  it('unknown access key and missing bucket are final', async () => {
    expect(await uploadResult({ type: 's3', url: 's3://results/p' }, RESULT, creds({ endpoint: s3.endpoint, accessKeyId: 'NOPE' }), base)).toEqual({
      ok: false,
      retry: false,
      status: 403,
      error: 's3 bucket answered HTTP 403 InvalidAccessKeyId: The access key id does not exist',
    });
    expect(await uploadResult({ type: 's3', url: 's3://nobucket/p' }, RESULT, creds({ endpoint: s3.endpoint }), base)).toEqual({
      ok: false,
      retry: false,
      status: 404,
      error: 's3 bucket answered HTTP 404 NoSuchBucket: The specified bucket does not exist',
    });
  });

  it('throttling and server errors are retryable, with Retry-After', async () => {
    s3.failNext(1, 503, 'SlowDown', { 'retry-after': '2' });
    expect(await uploadResult({ type: 's3', url: 's3://results/p' }, RESULT, creds({ endpoint: s3.endpoint }), base)).toEqual({
      ok: false,
      retry: true,
      status: 503,
      error: 's3 bucket answered HTTP 503 SlowDown: Injected failure',
      retryAfterMs: 2000,
    });
    s3.failNext(1, 400, 'RequestTimeout');
    expect(await uploadResult({ type: 's3', url: 's3://results/p' }, RESULT, creds({ endpoint: s3.endpoint }), base)).toEqual({
      ok: false,
      retry: true,
      status: 400,
      error: 's3 bucket answered HTTP 400 RequestTimeout: Injected failure',
    });
  });

  it('malformed url, unknown type and missing credentials → ok:false with a clear error', async () => {
    expect(await uploadResult({ type: 's3', url: 'not a url' }, RESULT, creds(), base)).toEqual({
      ok: false,
      retry: false,
      error: 'storage.url is not a valid URL: "not a url"',
    });
    expect(await uploadResult({ type: 's3', url: 'https://example.org/bucket/p' }, RESULT, creds(), base)).toEqual({
      ok: false,
      retry: false,
      error: 'storage.url for type s3 must be s3://bucket/prefix or an amazonaws.com bucket URL (use s3_compatible for other endpoints)',
    });
    expect(await uploadResult({ type: 'azure', url: 's3://b/p' }, RESULT, creds(), base)).toEqual({
      ok: false,
      retry: false,
      error: 'unknown storage type "azure"',
    });
    expect(await uploadResult({ type: 'gcs', url: 'gs://b/p' }, RESULT, undefined, base)).toEqual({
      ok: false,
      retry: false,
      error: 'no credentials configured for storage type gcs (operator setting GLEANER_STORAGE)',
    });
  });
});

describe('uploadResult against s3rver (third-party implementation)', () => {
  const rverCreds = (): BucketCredentials => ({ accessKeyId: rver.accessKeyId, secretAccessKey: rver.secretAccessKey, endpoint: rver.endpoint, buckets: { '7': ['rver-bucket/out'] } });

  it('s3 and s3_gzip round-trip', async () => {
    expect(await uploadResult({ type: 's3', url: 's3://rver-bucket/out' }, RESULT, rverCreds(), base)).toEqual({
      ok: true,
      status: 200,
      location: `${rver.endpoint}/rver-bucket/out/${JOB}.json`,
    });
    const plain = await rver.getObject('rver-bucket', `out/${JOB}.json`);
    expect([plain.status, plain.headers['content-type'], plain.body.toString('utf8')]).toEqual([200, 'application/json', RESULT]);

    expect((await uploadResult({ type: 's3_gzip', url: 's3://rver-bucket/out' }, RESULT, rverCreds(), base)).ok).toEqual(true);
    const zipped = await rver.getObject('rver-bucket', `out/${JOB}.json.gz`);
    expect([zipped.status, zipped.headers['content-encoding'], gunzipSync(zipped.body).toString('utf8')]).toEqual([200, 'gzip', RESULT]);
  });

  it('an access key s3rver does not know is final', async () => {
    const r = await uploadResult({ type: 's3', url: 's3://rver-bucket/out' }, RESULT, { ...rverCreds(), accessKeyId: 'NOPE' }, base);
    expect(r).toEqual({
      ok: false,
      retry: false,
      status: 403,
      error: 's3 bucket answered HTTP 403 InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.',
    });
  });
});

describe('parseBucketUrl', () => {
  const target = (type: Parameters<typeof parseBucketUrl>[0], url: string, c?: BucketCredentials) => parseBucketUrl(type, url, JOB, c);

  it('s3 forms', () => {
    expect(target('s3', 's3://my-bucket')).toEqual({
      ok: true,
      target: { type: 's3', endpoint: 'https://s3.us-east-1.amazonaws.com', bucket: 'my-bucket', key: `${JOB}.json`, region: 'us-east-1', pathStyle: false, endpointFromRequest: false },
    });
    expect(target('s3_gzip', 'https://my-bucket.s3.eu-central-1.amazonaws.com/a//b/')).toEqual({
      ok: true,
      target: { type: 's3_gzip', endpoint: 'https://s3.eu-central-1.amazonaws.com', bucket: 'my-bucket', key: `a/b/${JOB}.json.gz`, region: 'eu-central-1', pathStyle: false, endpointFromRequest: false },
    });
    expect(target('s3', 'https://my.dotted.bucket.s3.amazonaws.com/p', creds({ region: 'ap-south-1' }))).toEqual({
      ok: true,
      target: { type: 's3', endpoint: 'https://s3.ap-south-1.amazonaws.com', bucket: 'my.dotted.bucket', key: `p/${JOB}.json`, region: 'ap-south-1', pathStyle: true, endpointFromRequest: false },
    });
    expect(target('s3', 'https://s3.us-west-2.amazonaws.com/bkt/x')).toEqual({
      ok: true,
      target: { type: 's3', endpoint: 'https://s3.us-west-2.amazonaws.com', bucket: 'bkt', key: `x/${JOB}.json`, region: 'us-west-2', pathStyle: false, endpointFromRequest: false },
    });
  });

  it('tos forms: virtual-hosted, path, and a native host mapped to its S3 endpoint', () => {
    const expected = { type: 'tos', endpoint: 'https://tos-s3-cn-beijing.volces.com', bucket: 'bkt', key: `pre/${JOB}.json`, region: 'cn-beijing', pathStyle: false, endpointFromRequest: true };
    expect(target('tos', 'https://bkt.tos-s3-cn-beijing.volces.com/pre')).toEqual({ ok: true, target: expected });
    expect(target('tos', 'https://tos-s3-cn-beijing.volces.com/bkt/pre/')).toEqual({ ok: true, target: expected });
    expect(target('tos', 'https://bkt.tos-cn-beijing.volces.com/pre')).toEqual({ ok: true, target: expected });
  });

  it('gcs: default XML API host, or the https form of it', () => {
    const expected = { type: 'gcs', endpoint: 'https://storage.googleapis.com', bucket: 'my_bucket', key: `r/${JOB}.json`, region: 'auto', pathStyle: true, endpointFromRequest: false };
    expect(target('gcs', 'gs://my_bucket/r')).toEqual({ ok: true, target: expected });
    expect(target('gcs', 'https://storage.googleapis.com/my_bucket/r')).toEqual({ ok: true, target: expected });
  });

  it('malformed values', () => {
    expect(target('s3', '')).toEqual({ ok: false, error: 'storage.url is empty' });
    expect(target('s3', 's3://Bad_Bucket/x')).toEqual({ ok: false, error: 'storage.url bucket name "Bad_Bucket" is not valid for type s3' });
    expect(target('s3_compatible', 's3://bucket/x')).toEqual({ ok: false, error: 'storage.url for type s3_compatible must be http(s)://endpoint/bucket/prefix' });
    expect(target('s3_compatible', 'https://minio.example')).toEqual({ ok: false, error: 'storage.url for type s3_compatible names no bucket' });
    expect(target('gcs', 's3://bucket/x')).toEqual({ ok: false, error: 'storage.url for type gcs must be gs://bucket/prefix' });
    // Dot segments (also percent-encoded) are resolved by URL parsing, as in any URL.
    expect(target('s3', 's3://bucket/a/%2E%2E/b/./c')).toMatchObject({ ok: true, target: { key: `b/c/${JOB}.json` } });
    expect(target('s3', 's3://bucket/%E0%A4%A')).toEqual({ ok: false, error: 'storage.url path has a malformed percent-escape in "%E0%A4%A"' });
    expect(target('s3', 's3://bucket/p?x=1')).toEqual({ ok: false, error: 'storage.url must not have a query or fragment' });
    expect(target('s3_compatible', 'https://ak:sk@minio.example/b')).toEqual({
      ok: false,
      error: 'storage.url must not carry credentials; they come from the operator configuration',
    });
  });
});

describe('the buckets binding (issue 24 item 2): nothing is signed or sent for a bucket the account may not write', () => {
  const bound = (buckets: Record<string, string[]>) => creds({ endpoint: s3.endpoint, buckets });

  it('another account, another bucket, a prefix outside the binding: final failures with the reason, no request', async () => {
    const sent = s3.requests.length;
    expect(await uploadResult({ type: 's3', url: 's3://results/p' }, RESULT, bound({ '7': ['results'] }), { ...base, clientId: 8 })).toEqual({
      ok: false,
      retry: false,
      error: 'storage.url names bucket "results" and prefix "p", which account 8 may not write with the operator\'s s3 credentials (GLEANER_STORAGE s3.buckets)',
    });
    expect((await uploadResult({ type: 's3', url: 's3://other/p' }, RESULT, bound({ '7': ['results'] }), base)).ok).toBe(false);
    expect((await uploadResult({ type: 's3_gzip', url: 's3://results/elsewhere' }, RESULT, bound({ '7': ['results/mine'] }), base)).ok).toBe(false);
    // A prefix is a whole path segment: "mine" does not admit "minefield".
    expect((await uploadResult({ type: 's3', url: 's3://results/minefield' }, RESULT, bound({ '7': ['results/mine'] }), base)).ok).toBe(false);
    expect(s3.requests.length).toBe(sent);
  });

  it('"*" accounts and prefixes below the binding are allowed', async () => {
    expect((await uploadResult({ type: 's3', url: 's3://results/mine/deeper' }, RESULT, bound({ '*': ['results/mine'] }), { ...base, clientId: 99 })).ok).toBe(true);
    expect((await uploadResult({ type: 's3', url: 's3://results/any' }, RESULT, bound({ '*': ['*'] }), { ...base, clientId: 5 })).ok).toBe(true);
  });
});
