import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsFor, loadDeliveryConfig, parseDeliveryConfig } from '../../farm/delivery/index.js';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('loadDeliveryConfig', () => {
  it('no GLEANER_STORAGE → no credentials', () => {
    expect(loadDeliveryConfig({})).toEqual({});
  });

  it('reads and normalises the file; s3_gzip uses the s3 entry', () => {
    const path = file(
      'ok.json',
      JSON.stringify({
        s3: { accessKeyId: 'A', secretAccessKey: 'S', region: 'eu-west-1', buckets: { '7': ['acme', 'shared/acme/'] } },
        s3_compatible: { accessKeyId: 'B', secretAccessKey: 'T', allowedHosts: ['MinIO.internal:9000'], buckets: { '*': ['exports'] } },
        gcs: { accessKeyId: 'G', secretAccessKey: 'U', endpoint: 'http://127.0.0.1:9000/', buckets: { '*': ['*'] } },
      }),
    );
    const config = loadDeliveryConfig({ GLEANER_STORAGE: path });
    expect(config).toEqual({
      s3: { accessKeyId: 'A', secretAccessKey: 'S', region: 'eu-west-1', buckets: { '7': ['acme', 'shared/acme'] } },
      s3_compatible: { accessKeyId: 'B', secretAccessKey: 'T', allowedHosts: ['minio.internal:9000'], buckets: { '*': ['exports'] } },
      gcs: { accessKeyId: 'G', secretAccessKey: 'U', endpoint: 'http://127.0.0.1:9000', buckets: { '*': ['*'] } },
    });
    expect(credentialsFor(config, 's3_gzip')).toEqual(config.s3);
    expect(credentialsFor(config, 'tos')).toEqual(undefined);
  });

  it('fails loudly on a missing file, bad JSON and bad fields', () => {
    const missing = join(dir, 'absent.json');
    expect(() => loadDeliveryConfig({ GLEANER_STORAGE: missing })).toThrow(`GLEANER_STORAGE names ${missing}, which does not exist`);
    const bad = file('bad.json', '{');
    expect(() => loadDeliveryConfig({ GLEANER_STORAGE: bad })).toThrow(/^GLEANER_STORAGE: .*bad\.json is not valid JSON/);
    expect(() => parseDeliveryConfig({ s3_gzip: {} })).toThrow('GLEANER_STORAGE: unknown key "s3_gzip" (expected s3, s3_compatible, tos, gcs; s3_gzip uses s3)');
    expect(() => parseDeliveryConfig({ s3: { accessKeyId: 'A' } })).toThrow('GLEANER_STORAGE.s3.secretAccessKey: required');
    // Credentials must be bound to buckets per account (issue 24 item 2).
    expect(() => parseDeliveryConfig({ s3: { accessKeyId: 'A', secretAccessKey: 'S' } })).toThrow(/^GLEANER_STORAGE\.s3\.buckets: required: the buckets \(and prefixes\) each account may write/);
    expect(() => parseDeliveryConfig({ s3: { accessKeyId: 'A', secretAccessKey: 'S', buckets: { acme: ['b'] } } })).toThrow('GLEANER_STORAGE.s3.buckets: "acme" is not a client id or "*"');
    expect(() => parseDeliveryConfig({ s3: { accessKeyId: 'A', secretAccessKey: 'S', buckets: { '7': 'b' } } })).toThrow('GLEANER_STORAGE.s3.buckets.7: expected a list of "bucket" or "bucket/prefix"');
    expect(() => parseDeliveryConfig({ s3: { accessKeyId: 'A', secretAccessKey: 'S', buckets: { '7': ['/b'] } } })).toThrow('GLEANER_STORAGE.s3.buckets.7: expected a list');
    expect(() => parseDeliveryConfig({ gcs: { accessKeyId: 'A', secretAccessKey: 'S', endpoint: 'storage.example/x' } })).toThrow(
      'GLEANER_STORAGE.gcs.endpoint: expected http(s)://host[:port], got "storage.example/x"',
    );
    expect(() => parseDeliveryConfig([])).toThrow('GLEANER_STORAGE: expected a JSON object with keys s3, s3_compatible, tos, gcs');
  });
});
