import { describe, expect, it } from 'vitest';
import { amzDate, encodeKeyPath, sha256Hex, signV4 } from '../../farm/delivery/sigv4.js';

// The worked examples of the S3 "Signature Calculations for the Authorization Header" page,
// with AWS's published example credentials: if these match, the canonicalisation is right.
const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const date = new Date('2013-05-24T00:00:00Z');

describe('signV4', () => {
  it('matches the documented GET Object example', () => {
    const headers = signV4({
      method: 'GET',
      host: 'examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      headers: { range: 'bytes=0-9' },
      payloadHash: sha256Hex(''),
      region: 'us-east-1',
      service: 's3',
      credentials,
      date,
    });
    expect(headers).toEqual({
      range: 'bytes=0-9',
      'x-amz-date': '20130524T000000Z',
      'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
  });

  it('matches the documented PUT Object example (key with $)', () => {
    const body = 'Welcome to Amazon S3.';
    const headers = signV4({
      method: 'PUT',
      host: 'examplebucket.s3.amazonaws.com',
      path: `/${encodeKeyPath('test$file.text')}`,
      headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: sha256Hex(body),
      region: 'us-east-1',
      service: 's3',
      credentials,
      date,
    });
    expect(headers.authorization).toEqual(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, ' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
    expect(headers['x-amz-content-sha256']).toEqual('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
  });

  it('adds the session token as a signed header', () => {
    const headers = signV4({
      method: 'PUT',
      host: 'h',
      path: '/b/k',
      headers: {},
      payloadHash: 'UNSIGNED-PAYLOAD',
      region: 'auto',
      service: 's3',
      credentials: { ...credentials, sessionToken: 'tok' },
      date,
    });
    expect(headers['x-amz-security-token']).toEqual('tok');
    expect(headers.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
  });

  it('encodes keys per RFC 3986, keeping slashes', () => {
    expect(encodeKeyPath("a b/ü/(x)!*'~._-/1.json")).toEqual('a%20b/%C3%BC/%28x%29%21%2A%27~._-/1.json');
    expect(amzDate(new Date('2024-02-29T23:59:58.123Z'))).toEqual('20240229T235958Z');
  });
});
