/**
 * Starts the real service in-process on port 0 with LMDB in a temp folder and a bootstrap
 * key, and tears it down. Tests speak HTTP to `url`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../core/config.js';
import { createLogger } from '../../core/log.js';
import { startServer, type RunningServer } from '../../gateway/server.js';

export const TEST_KEY = 'test-key-0123456789abcdef';
export const TEST_USER = 'tester';
export const TEST_PASSWORD = 'tester-password';

export interface TestGateway {
  url: string;
  key: string;
  server: RunningServer;
  dataDir: string;
  auth: Record<string, string>;
  close(): Promise<void>;
}

export async function startGateway(overrides: Partial<Config> = {}, opts: { hosts?: Record<string, string> } = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-test-'));
  const config = loadConfig(
    {},
    { host: '127.0.0.1', port: 0, realtimePort: 0, dataPort: 0, dataDir, bootstrapApiKey: TEST_KEY, bootstrapUser: `${TEST_USER}:${TEST_PASSWORD}`, workers: 1, allowPrivate: true, logLevel: 'silent', ...overrides },
  );
  const server = await startServer({ config, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), ...(opts.hosts ? { hosts: opts.hosts } : {}) }).catch((err: unknown) => {
    // A refused start (a taken port, a data directory in use) leaves no temp folder behind
    // (the folder made here; a dataDir given in overrides belongs to the caller).
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    url: server.url,
    key: TEST_KEY,
    server,
    dataDir,
    auth: { authorization: `Bearer ${TEST_KEY}` },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body when it is JSON, else undefined. */
  body: any;
}

export async function call(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export function postJson(gw: TestGateway, path: string, body: unknown, headers: Record<string, string> = gw.auth): Promise<HttpAnswer> {
  return call(gw.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
