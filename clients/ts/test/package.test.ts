/**
 * The client as a user consumes it (README): `npm pack` in clients/ts makes a tarball (its
 * `prepack` builds dist/), a fresh project installs the tarball (no registry: the client has no
 * dependencies), then
 *   - TypeScript compiles a consumer against the installed types: `wait(id)` on an id from
 *     `submit('se1/search', ...)` is typed by the route with no type argument, `problem` of a
 *     `GleanerApiError` needs no `?.`, the webhook payload type is the generated one;
 *   - plain JavaScript runs against a real gateway: a sync scrape, submit + wait, and an
 *     unknown route refused by name before any request.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startGateway, type TestGateway } from '../../../test/helpers/gateway.js';
import { startSimulator, type Simulator } from '../../../test/sites/server.js';

const run = promisify(execFile);
const CLIENT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(CLIENT, '../..');

let dir: string;
let sim: Simulator;
let gw: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-client-consumer-'));
  sim = await startSimulator();
  gw = await startGateway({ targets: { se1: { baseUrl: `${sim.origin}/se1` } } });
  await run('npm', ['pack', '--pack-destination', dir], { cwd: CLIENT, timeout: 300_000 });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: dir, timeout: 300_000 });
}, 600_000);
afterAll(async () => {
  await gw?.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed client in a fresh project', () => {
  test('TypeScript: wait(id) is typed by the submitted route; problem needs no ?.; webhook payload generated', async () => {
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { Gleaner, GleanerApiError, GleanerHttpError, type WebhookPayload } from '@gleaner/client';
const g = new Gleaner({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
export async function typed(): Promise<string[]> {
  const job = await g.submit('se1/search', { query: 'typed' });
  const done = await g.wait(job.metadata.request_id);
  // No type argument: the organic results of se1/search are known to the compiler.
  return (done.results[0]?.json?.organic ?? []).map((o) => o.url);
}
export function problemOf(err: unknown): string {
  if (err instanceof GleanerApiError) return err.problem.title + ' ' + err.problem.detail;
  if (err instanceof GleanerHttpError) return String(err.status);
  return '';
}
export const payload: WebhookPayload = { event: 'job.done', job_id: '1', status: 'done', finished_at: 1, results_url: 'x' };
// @ts-expect-error: an unknown route is a compile error
g.scrape('se9/search', { query: 'x' });
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const out = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir }).then(() => 'ok', (e: { stdout: string }) => e.stdout);
    expect(out).toBe('ok');
  }, 120_000);

  test('plain JavaScript: scrape, submit and wait against a gateway; an unknown route refused by name', async () => {
    writeFileSync(
      join(dir, 'consumer.mjs'),
      `import { Gleaner } from '@gleaner/client';
const [baseUrl, apiKey, origin] = process.argv.slice(2);
const g = new Gleaner({ baseUrl, apiKey });
const page = await g.scrape('universal', { url: origin + '/static', output: ['markdown'] });
const job = await g.submit('se1/search', { query: 'packed client', output: ['json'] });
const done = await g.wait(job.metadata.request_id, { intervalMs: 100 });
let unknown;
try { await g.scrape('se1/nosuch', { query: 'x' }); } catch (err) { unknown = err.constructor.name + ': ' + err.message; }
console.log(JSON.stringify({ heading: page.results[0].markdown.split('\\n')[0], organic: done.results[0].json.organic.length, unknown }));
`,
    );
    const { stdout } = await run(process.execPath, ['consumer.mjs', gw.url, gw.key, sim.origin], { cwd: dir, timeout: 120_000 });
    expect(JSON.parse(stdout)).toEqual({
      heading: '# Static heading',
      organic: 10,
      unknown: 'TypeError: Unknown sync route "se1/nosuch"; routes are listed by GET /v1/scrapers and in PATHS.',
    });
  }, 180_000);
});
