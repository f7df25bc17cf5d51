/**
 * Readers of single environment variables for core/config.ts: each parses one variable (or a
 * JSON file it names) and throws a message naming the variable when it is malformed, so a bad
 * setting stops the start with a sentence the operator can act on. Kept apart from config.ts,
 * which holds the shape and defaults and assembles the result; these are pure but for reading
 * the files the variables name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NodeRole } from './store/cluster.js';
import type { ClusterSettings } from './store/nats/connection.js';
import type { PlainClient, TargetConfig } from './config.js';

export type Env = Record<string, string | undefined>;

export function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

export function jsonFile<T>(env: Env, name: string, fallback: T): T {
  const file = env[name];
  if (!file) return fallback;
  const path = resolve(file);
  if (!existsSync(path)) throw new Error(`${name} names ${path}, which does not exist`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`${name}: ${path} is not valid JSON (${(err as Error).message})`);
  }
}

/** Targets with each GLEANER_ASSISTANTS entry carried to its target as `assistant` (the planner reads it there). */
export function withAssistants(targets: Record<string, TargetConfig>, assistants: Record<string, unknown> | undefined): Record<string, TargetConfig> {
  if (!assistants || typeof assistants !== 'object') return targets;
  const out = { ...targets };
  for (const [token, data] of Object.entries(assistants)) {
    const t = Object.hasOwn(out, token) ? out[token] : undefined;
    if (t && typeof t === 'object') out[token] = { ...t, assistant: data };
  }
  return out;
}

export function clusterOf(env: Env): ClusterSettings | undefined {
  const servers = (env.GLEANER_CLUSTER ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) return undefined;
  const replicas = env.GLEANER_CLUSTER_REPLICAS ? int(env, 'GLEANER_CLUSTER_REPLICAS', 0) : undefined;
  if (replicas !== undefined && (replicas < 1 || replicas > 5)) throw new Error('GLEANER_CLUSTER_REPLICAS must be 1 to 5');
  const namespace = env.GLEANER_CLUSTER_NAMESPACE || 'gleaner';
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(namespace)) throw new Error('GLEANER_CLUSTER_NAMESPACE must be 1 to 32 letters, digits, - or _');
  const creds = env.GLEANER_NATS_CREDS || undefined;
  if (creds && !existsSync(resolve(creds))) throw new Error(`GLEANER_NATS_CREDS names ${resolve(creds)}, which does not exist`);
  const ackWaitMs = int(env, 'GLEANER_CLUSTER_ACK_WAIT_MS', 30_000);
  if (ackWaitMs < 1_000) throw new Error('GLEANER_CLUSTER_ACK_WAIT_MS must be at least 1000');
  return { servers, namespace, ackWaitMs, ...(replicas ? { replicas } : {}), ...(creds ? { creds: resolve(creds) } : {}), ...(env.GLEANER_CA_FILE ? { caFile: resolve(env.GLEANER_CA_FILE) } : {}) };
}

export function plainClientOf(env: Env, fallback: PlainClient): PlainClient {
  const v = env.GLEANER_PLAIN_CLIENT || fallback;
  if (v !== 'auto' && v !== 'chromium' && v !== 'native') throw new Error(`GLEANER_PLAIN_CLIENT must be auto, chromium or native, got ${JSON.stringify(v)}`);
  return v;
}

export function roleOf(env: Env): NodeRole {
  const role = env.GLEANER_ROLE || 'all';
  if (role !== 'all' && role !== 'gateway' && role !== 'farm') throw new Error(`GLEANER_ROLE must be all, gateway or farm, got ${JSON.stringify(role)}`);
  return role;
}

/** A metrics token long enough not to be guessed, or none. */
export function metricsToken(env: Env): string | undefined {
  const token = env.GLEANER_METRICS_TOKEN;
  if (!token) return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(token)) throw new Error('GLEANER_METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces');
  return token;
}
