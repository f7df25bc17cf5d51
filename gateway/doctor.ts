/**
 * `gleaner doctor`: checks what a start needs, one line each — `ok`, `warn` (works, with a
 * limit) or `FAIL` with what to do — and exits 1 when any check failed. It changes nothing:
 * the store is opened read-only (a store that needs a migration is reported, not migrated).
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { loadConfig, type Config } from '../core/config.js';
import { checkAliases } from '../core/jobapi/aliases.js';
import { checkCluster, CURRENT_FORMAT, readStoreFormat } from '../core/store/index.js';
import { checkTargets } from '../core/targets/index.js';
import { parseDeliveryConfig, probeBrowser, probeFfmpeg } from '../farm/index.js';
import { versionLine } from './version.js';

export type Verdict = 'ok' | 'warn' | 'FAIL';
export interface Check {
  verdict: Verdict;
  what: string;
  detail: string;
}

const MIN_FREE_BYTES = 1024 ** 3;

function nearestExisting(path: string): string {
  let dir = resolve(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function dataDirChecks(dir: string): Check[] {
  const what = `data directory ${resolve(dir)}`;
  const existing = nearestExisting(dir);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return [{ verdict: 'FAIL', what, detail: `${existing} is not writable by this user: chown it to the service user or set GLEANER_DATA_DIR` }];
  }
  const checks: Check[] = [{ verdict: 'ok', what, detail: existing === resolve(dir) ? 'writable' : `will be created (in ${existing}, writable)` }];
  const fs = statfsSync(existing);
  const free = fs.bavail * fs.bsize;
  const gib = (free / 1024 ** 3).toFixed(1);
  checks.push(free < MIN_FREE_BYTES ? { verdict: 'warn', what: 'free space', detail: `${gib} GiB free where the store lives: jobs and results need room; free some or move GLEANER_DATA_DIR` } : { verdict: 'ok', what: 'free space', detail: `${gib} GiB free` });
  if (existsSync(resolve(dir, 'data.mdb'))) {
    try {
      const format = readStoreFormat(dir);
      if (format > CURRENT_FORMAT) checks.push({ verdict: 'FAIL', what: 'store format', detail: `${format} is newer than this executable reads (${CURRENT_FORMAT}): run the newer executable` });
      else if (format < CURRENT_FORMAT) checks.push({ verdict: 'ok', what: 'store format', detail: `${format}; migrated to ${CURRENT_FORMAT} on the next start (back up ${resolve(dir)} first)` });
      else checks.push({ verdict: 'ok', what: 'store format', detail: String(format) });
    } catch (err) {
      checks.push({ verdict: 'FAIL', what: 'store', detail: `cannot be opened: ${(err as Error).message}` });
    }
  }
  return checks;
}

function portFree(host: string, port: number): Promise<string | undefined> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'EADDRINUSE' ? 'in use' : err.code === 'EACCES' ? 'needs privileges (below 1024)' : err.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => done(undefined)));
  });
}

async function portChecks(config: Config): Promise<Check[]> {
  const checks: Check[] = [];
  for (const [name, port] of [['GLEANER_PORT', config.port], ['GLEANER_REALTIME_PORT', config.realtimePort], ['GLEANER_DATA_PORT', config.dataPort]] as const) {
    const what = `port ${config.host}:${port} (${name})`;
    if (port === 0) {
      checks.push({ verdict: 'ok', what, detail: 'any free port' });
      continue;
    }
    const problem = await portFree(config.host, port);
    if (!problem) checks.push({ verdict: 'ok', what, detail: 'free' });
    else if (problem === 'in use' && (await isGleaner(config.host, port))) checks.push({ verdict: 'warn', what, detail: 'in use by a running Gleaner (stop it before starting another on this port)' });
    else checks.push({ verdict: 'FAIL', what, detail: `${problem}: stop what holds it or set ${name}` });
  }
  return checks;
}

async function isGleaner(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return ((await res.json()) as { status?: string }).status === 'ok';
  } catch {
    return false;
  }
}

function fileChecks(env: Record<string, string | undefined>): { config: Config | undefined; checks: Check[] } {
  const checks: Check[] = [];
  let config: Config | undefined;
  try {
    config = loadConfig(env);
  } catch (err) {
    return { config: undefined, checks: [{ verdict: 'FAIL', what: 'configuration', detail: (err as Error).message }] };
  }
  const named = (name: string) => (env[name] ? `${name} (${resolve(env[name]!)})` : name);
  const targets = checkTargets(config.targets, env.GLEANER_TARGETS ?? 'GLEANER_TARGETS');
  if (targets.errors.length > 0) checks.push({ verdict: 'FAIL', what: named('GLEANER_TARGETS'), detail: targets.errors.join('; ') });
  else checks.push({ verdict: env.GLEANER_TARGETS ? 'ok' : 'warn', what: named('GLEANER_TARGETS'), detail: env.GLEANER_TARGETS ? `${Object.keys(config.targets).length} targets` : 'unset: the dedicated scrapers have no upstream (universal scraping works)' });
  const pools = Object.entries(config.proxies);
  const badPool = pools.find(([, list]) => !Array.isArray(list) || list.some((p) => typeof p !== 'string'));
  checks.push(badPool ? { verdict: 'FAIL', what: named('GLEANER_PROXIES'), detail: `${badPool[0]} must be a list of proxy URLs` } : { verdict: 'ok', what: named('GLEANER_PROXIES'), detail: env.GLEANER_PROXIES ? `${pools.length} pools` : 'unset: direct connections' });
  try {
    const storage = parseDeliveryConfig(config.storage);
    checks.push({ verdict: 'ok', what: named('GLEANER_STORAGE'), detail: env.GLEANER_STORAGE ? Object.keys(storage).join(', ') || 'empty' : 'unset: bucket delivery has no credentials' });
  } catch (err) {
    checks.push({ verdict: 'FAIL', what: named('GLEANER_STORAGE'), detail: (err as Error).message });
  }
  const aliases = checkAliases(config.sourceAliases);
  if (env.GLEANER_SOURCE_ALIASES) checks.push(aliases.length > 0 ? { verdict: 'FAIL', what: named('GLEANER_SOURCE_ALIASES'), detail: aliases.join('; ') } : { verdict: 'ok', what: named('GLEANER_SOURCE_ALIASES'), detail: `${Object.keys(config.sourceAliases).length} aliases` });
  return { config, checks };
}

export async function doctor(env: Record<string, string | undefined> = process.env): Promise<Check[]> {
  const checks: Check[] = [{ verdict: 'ok', what: 'version', detail: versionLine() }];
  const cacheDir = (globalThis as { __gleanerCacheDir?: string }).__gleanerCacheDir;
  if (cacheDir) checks.push({ verdict: 'ok', what: 'private files', detail: cacheDir });
  const files = fileChecks(env);
  const config = files.config;
  if (config) checks.push(...dataDirChecks(config.dataDir));
  // Cluster mode: NATS, JetStream, the namespace's streams and buckets with their replicas, the nodes.
  if (config?.cluster) checks.push(...(await checkCluster(config.cluster)));
  const [browser, ffmpeg] = await Promise.all([probeBrowser(config?.chromium), probeFfmpeg(config?.ffmpeg)]);
  checks.push(
    browser.ok
      ? { verdict: 'ok', what: 'browser', detail: `${browser.path ?? 'Playwright\'s own'}: ${browser.version}` }
      : { verdict: 'FAIL', what: 'browser', detail: `${browser.reason}; ${browser.fix} (without one, run_js and screenshots are refused)` },
  );
  checks.push(
    ffmpeg.ok
      ? { verdict: 'ok', what: 'ffmpeg', detail: `${ffmpeg.path}: ${ffmpeg.version}` }
      : { verdict: 'warn', what: 'ffmpeg', detail: `${ffmpeg.reason}; needed by the video download route only: ${ffmpeg.fix}` },
  );
  if (config) checks.push(...(await portChecks(config)));
  checks.push(...files.checks);
  return checks;
}

export function formatChecks(checks: Check[]): string {
  return checks.map((c) => `${c.verdict.padEnd(4)}  ${c.what}: ${c.detail}`).join('\n') + '\n';
}
