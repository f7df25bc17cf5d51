/**
 * Operator configuration for bucket delivery. Credentials live here and only here: a request's
 * `storage` names a bucket type and a URL, never a key (issue 4). The file is JSON, named by
 * `GLEANER_STORAGE`:
 *
 *   { "s3":            { "accessKeyId": "...", "secretAccessKey": "...", "region": "eu-west-1", "buckets": { "7": ["acme-results"] } },
 *     "s3_compatible": { "accessKeyId": "...", "secretAccessKey": "...", "allowedHosts": ["minio.internal:9000"], "buckets": { "*": ["exports/all"] } },
 *     "tos":           { "accessKeyId": "...", "secretAccessKey": "...", "region": "cn-beijing", "buckets": { ... } },
 *     "gcs":           { "accessKeyId": "GOOG...", "secretAccessKey": "...", "endpoint": "https://storage.googleapis.com", "buckets": { ... } } }
 *
 * `buckets` is required (binding.ts): client id or `*` → "bucket" or "bucket/prefix" entries.
 *
 * `s3_gzip` uses the `s3` entry. The lead wires this into core config later; until then callers
 * use `loadDeliveryConfig(process.env)`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The bucket types of spec 2.1 `storage.type`. */
export const STORAGE_TYPES = ['s3', 's3_gzip', 's3_compatible', 'gcs', 'tos'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export interface BucketCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials (STS); sent as `x-amz-security-token`. */
  sessionToken?: string;
  /** Signing region. Defaults: s3 `us-east-1` (or the region in the URL), gcs `auto`, tos from the host. */
  region?: string;
  /**
   * Endpoint override (`http(s)://host[:port]`). For `s3` and `gcs` it replaces the vendor
   * host (and switches `s3` to path-style); tests point it at 127.0.0.1. Ignored for
   * `s3_compatible` and `tos`, whose endpoint comes from the request URL.
   */
  endpoint?: string;
  /**
   * `s3_compatible`/`tos`: the only endpoint hosts (`host` or `host:port`) these credentials may
   * be used with. Recommended: a signed PUT sent to a host of the caller's choosing can be
   * replayed by that host against the real endpoint for a few minutes.
   */
  allowedHosts?: string[];
  /** Required: which accounts may write which buckets and prefixes with these credentials (binding.ts). */
  buckets: BucketBindings;
}

/** Client id (or `*`) → the buckets and prefixes it may write (binding.ts). */
export type BucketBindings = Readonly<Record<string, readonly string[]>>;

const ACCOUNT_KEY = /^(\*|[1-9][0-9]{0,15})$/;
const ENTRY = /^(\*|[^/\s]+(\/[^\s]*)?)$/;

/** Checks a parsed `buckets` value; throws naming the first bad field. */
export function parseBindings(value: unknown, where: string): BucketBindings {
  if (value === undefined) {
    throw new Error(`${where}: required: the buckets (and prefixes) each account may write with these credentials, e.g. {"*": ["my-bucket/results"]} (see farm/delivery/README.md)`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: expected an object of client id (or "*") → list of "bucket" or "bucket/prefix"`);
  const out: Record<string, string[]> = {};
  for (const [account, list] of Object.entries(value as Record<string, unknown>)) {
    if (!ACCOUNT_KEY.test(account)) throw new Error(`${where}: ${JSON.stringify(account)} is not a client id or "*"`);
    if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && ENTRY.test(e))) {
      throw new Error(`${where}.${account}: expected a list of "bucket" or "bucket/prefix"`);
    }
    out[account] = (list as string[]).map((e) => e.replace(/\/+$/, '').replace(/\/{2,}/g, '/'));
  }
  return Object.freeze(out);
}

export type DeliveryConfig = Partial<Record<'s3' | 's3_compatible' | 'tos' | 'gcs', BucketCredentials>>;

type Env = Record<string, string | undefined>;

const ENTRY_KEYS = ['s3', 's3_compatible', 'tos', 'gcs'] as const;
const STRING_FIELDS = ['accessKeyId', 'secretAccessKey', 'sessionToken', 'region', 'endpoint'] as const;

export function isStorageType(value: unknown): value is StorageType {
  return typeof value === 'string' && (STORAGE_TYPES as readonly string[]).includes(value);
}

/** The credentials a storage type uses (`s3_gzip` shares `s3`), or undefined when not configured. */
export function credentialsFor(config: DeliveryConfig, type: StorageType): BucketCredentials | undefined {
  return config[type === 's3_gzip' ? 's3' : type];
}

/** Checks the parsed file; throws an Error naming the first bad field (start-up fails loudly). */
export function parseDeliveryConfig(raw: unknown, source = 'GLEANER_STORAGE'): DeliveryConfig {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`${source}: expected a JSON object with keys ${ENTRY_KEYS.join(', ')}`);
  }
  const config: DeliveryConfig = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
      throw new Error(`${source}: unknown key ${JSON.stringify(key)} (expected ${ENTRY_KEYS.join(', ')}; s3_gzip uses s3)`);
    }
    config[key as (typeof ENTRY_KEYS)[number]] = parseEntry(value, `${source}.${key}`);
  }
  return Object.freeze(config);
}

function parseEntry(value: unknown, where: string): BucketCredentials {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: expected an object`);
  const entry = value as Record<string, unknown>;
  for (const field of STRING_FIELDS) {
    if (entry[field] !== undefined && (typeof entry[field] !== 'string' || entry[field] === '')) {
      throw new Error(`${where}.${field}: expected a non-empty string`);
    }
  }
  if (typeof entry.accessKeyId !== 'string') throw new Error(`${where}.accessKeyId: required`);
  if (typeof entry.secretAccessKey !== 'string') throw new Error(`${where}.secretAccessKey: required`);
  if (typeof entry.endpoint === 'string' && !/^https?:\/\/[^/?#]+\/?$/.test(entry.endpoint)) {
    throw new Error(`${where}.endpoint: expected http(s)://host[:port], got ${JSON.stringify(entry.endpoint)}`);
  }
  const hosts = entry.allowedHosts;
  if (hosts !== undefined && (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string' && h !== ''))) {
    throw new Error(`${where}.allowedHosts: expected an array of host names`);
  }
  const out: BucketCredentials = { accessKeyId: entry.accessKeyId, secretAccessKey: entry.secretAccessKey, buckets: parseBindings(entry.buckets, `${where}.buckets`) };
  if (typeof entry.sessionToken === 'string') out.sessionToken = entry.sessionToken;
  if (typeof entry.region === 'string') out.region = entry.region;
  if (typeof entry.endpoint === 'string') out.endpoint = entry.endpoint.replace(/\/$/, '');
  if (hosts !== undefined) out.allowedHosts = (hosts as string[]).map((h) => h.toLowerCase());
  return out;
}

/** Reads the file named by `GLEANER_STORAGE`; no variable means no bucket credentials. */
export function loadDeliveryConfig(env: Env = process.env): DeliveryConfig {
  const file = env.GLEANER_STORAGE;
  if (!file) return Object.freeze({});
  const path = resolve(file);
  if (!existsSync(path)) throw new Error(`GLEANER_STORAGE names ${path}, which does not exist`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`GLEANER_STORAGE: ${path} is not valid JSON (${(err as Error).message})`);
  }
  return parseDeliveryConfig(raw, `GLEANER_STORAGE (${path})`);
}
