/**
 * The compiled service as `npm start` runs it, for the benches that meter a node's memory: plain
 * node, no tsx and no test helpers in the main isolate (bench/gateway.ts `--serve --dist` loads
 * both, ~40 MB of PSS that a deployed node does not have). `npm run build` first.
 *   fork('bench/serve-dist.mjs', ['--workers', '2', '--key', K, '--config', '{...}'])
 * Sends `{type: 'ready', info: {url, key, dataDir}}`; stops on SIGTERM or when the parent goes.
 * Plain JavaScript on purpose: a .ts file would need tsx in this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
};
// BENCH_DIST: another build (an absolute path: a copy of an older dist/ where its imports
// resolve, e.g. beside a node_modules link) for A/B runs.
const dist = process.env.BENCH_DIST || '../dist';
const { loadConfig } = await import(`${dist}/core/config.js`);
const { createLogger } = await import(`${dist}/core/log.js`);
const { startServer } = await import(`${dist}/gateway/server.js`);
const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-'));
const key = arg('key', 'test-key-0123456789abcdef');
const overrides = { workers: Number(arg('workers', '1')), ...JSON.parse(arg('config', '{}')) };
const config = loadConfig(process.env, { host: '127.0.0.1', port: 0, realtimePort: 0, dataPort: 0, dataDir, bootstrapApiKey: key, allowPrivate: true, logLevel: 'silent', ...overrides });
const server = await startServer({ config, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent') });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => (rmSync(dataDir, { recursive: true, force: true }), process.exit(0)),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.once('disconnect', stop);
const info = { url: server.url, key, dataDir };
if (process.send) process.send({ type: 'ready', info });
else console.log(`gleaner (compiled) listening on ${server.url} (key ${key}, data in ${dataDir})`);
