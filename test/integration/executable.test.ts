/**
 * The single executable (`npm run dist`), smoke-tested the way an operator runs it: copied
 * alone into an empty folder (no node_modules, no source tree, nothing but the file), then its
 * CLI offline, `doctor`, and `serve` against the target simulator on both APIs — plain and
 * rendered pages, a screenshot, a parser, async jobs, the Job API's two hosts, a quota set by
 * the CLI while it runs — and a SIGTERM drain. Skipped (with the reason) when the executable
 * is not built from this commit; CI builds it first and sets GLEANER_REQUIRE_EXECUTABLE=1.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { EXECUTABLE, executableUnavailable, runGleaner, startGleaner, type GleanerProcess } from '../helpers/executable.js';
import { until } from '../helpers/wait.js';

const unavailable = executableUnavailable();
// CI builds the executable first and sets this: there a missing or stale one is a failure.
const required = process.env.GLEANER_REQUIRE_EXECUTABLE === '1';
const USER = 'smoke';
const PASSWORD = 'smoke-password';
let dir: string;
let exe: [string, string[]];
let env: Record<string, string>;
let sim: Simulator;
let g: GleanerProcess;
let web: string;
let realtime: string;
let data: string;
let key: string;
const basic = { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const bearer = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const postWeb = (path: string, body: unknown) => json(web + path, { method: 'POST', headers: bearer(), body: JSON.stringify(body) });
const postJob = (base: string, path: string, body: unknown) => json(base + path, { method: 'POST', headers: basic, body: JSON.stringify(body) });

describe.skipIf(unavailable !== undefined && !required)(`the executable from an empty folder${unavailable ? ` — skipped: ${unavailable}` : ''}`, () => {
  beforeAll(async () => {
    if (unavailable) throw new Error(unavailable);
    dir = mkdtempSync(join(tmpdir(), 'gleaner-exe-'));
    exe = [join(dir, 'gleaner'), []];
    copyFileSync(EXECUTABLE, exe[0]);
    sim = await startSimulator();
    writeFileSync(join(dir, 'targets.json'), JSON.stringify({ se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: `${sim.origin}/se2` } }));
    // A clean environment: no NODE_OPTIONS or npm variables, HOME in the folder (the private cache goes there).
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GLEANER_TARGETS: 'targets.json',
      GLEANER_ALLOW_PRIVATE: '1',
      GLEANER_PORT: '0',
      GLEANER_REALTIME_PORT: '0',
      GLEANER_DATA_PORT: '0',
      GLEANER_WORKERS: '1',
      GLEANER_BOOTSTRAP_USER: `${USER}:${PASSWORD}`,
    };
  });
  afterAll(async () => {
    if (g && g.child.exitCode === null) g.child.kill('SIGKILL');
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('--version, doctor and keys create work offline in the empty folder', async () => {
    const version = await runGleaner(exe, ['--version'], { cwd: dir, env });
    expect(version.stdout).toMatch(/^gleaner \d+\.\d+\.\d+ \(commit [0-9a-f]{12}.*, build [0-9a-f]{12}, node 20\./);
    const doctor = await runGleaner(exe, ['doctor'], { cwd: dir, env: { ...env, GLEANER_PORT: '0' } });
    expect(doctor.stdout).toMatch(/^ok +browser: /m);
    expect(doctor.stdout).toMatch(/^ok +GLEANER_TARGETS \(.*targets\.json\): 2 targets$/m);
    expect(doctor.stdout).toMatch(/^ok +private files: .*\/\.cache\/gleaner\/\d+\.\d+\.\d+-[0-9a-f]{12}$/m);
    expect([doctor.status, doctor.stdout]).toEqual([0, expect.any(String)]);
    const created = await runGleaner(exe, ['keys', 'create', '--label', 'smoke'], { cwd: dir, env });
    expect(created.status).toBe(0);
    key = created.stdout.trim();
    expect(key).toMatch(/^glk_/);
  });

  test('serve: ready, Web API plain, rendered, screenshot and search', async () => {
    g = startGleaner(exe, ['serve'], { cwd: dir, env });
    const ready = await g.waitFor((l) => l.msg === 'gleaner ready');
    web = `http://127.0.0.1:${ready.port}`;
    realtime = `http://127.0.0.1:${ready.realtime_port}`;
    data = `http://127.0.0.1:${ready.data_port}`;
    expect((await json(`${web}/readyz`)).body).toMatchObject({ status: 'ready', browser: true });

    const plain = await postWeb('/v1/scrape', { url: `${sim.origin}/static`, output: ['markdown'] });
    expect(plain.status).toBe(200);
    expect(plain.body.results[0].markdown).toContain('# ');
    // The plain path is the embedded wreq-js client with the session's Chrome headers.
    const headers = await postWeb('/v1/scrape', { url: `${sim.origin}/headers`, output: ['html'] });
    const sent = JSON.parse(headers.body.results[0].html) as Record<string, string>;
    expect([sent['user-agent'], sent['sec-ch-ua-mobile'], sent['sec-fetch-mode']]).toEqual([expect.stringMatching(/^Mozilla\/5\.0 .* Chrome\/\d+\.0\.0\.0 /), '?0', 'navigate']);
    const rendered = await postWeb('/v1/scrape', { url: `${sim.origin}/js-only`, output: ['html', 'screenshot'], run_js: true });
    expect(rendered.status).toBe(200);
    expect(rendered.body.results[0].screenshot).toMatch(/^iVBORw0KGgo/);
    const search = await postWeb('/v1/search', { query: 'trail shoes' });
    expect(search.status).toBe(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    // The crawl's readers (robots.txt, RE2 patterns, links) are in the bundle too.
    const mapped = await postWeb('/v1/map', { url: `${sim.origin}/static`, search: 'static' });
    expect([mapped.status, Array.isArray(mapped.body.urls)]).toEqual([200, true]);
  });

  test('serve: async job, Job API realtime with a parser, push-pull', async () => {
    const submitted = await postWeb('/v1/async/scrape', { url: `${sim.origin}/static` });
    expect(submitted.status).toBe(202);
    const job = await until(async () => {
      const j = (await json(`${web}/v1/async/scrape/${submitted.body.metadata.request_id}`, { headers: bearer() })).body;
      return j.status !== 'pending' && j;
    }, 'the async job to finish', 30_000);
    expect(job.status).toBe('done');

    const rt = await postJob(realtime, '/v1/queries', { source: 'se1_search', query: 'trail shoes', parse: true });
    expect(rt.status).toBe(200);
    expect(rt.body.results[0].content.organic.length).toBeGreaterThan(0);
    const pushed = await postJob(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` });
    expect(pushed.status).toBe(200);
    const state =
      pushed.body.status !== 'pending'
        ? pushed.body
        : await until(async () => {
            const s = (await json(`${data}/v1/queries/${pushed.body.id}`, { headers: basic })).body;
            return s.status !== 'pending' && s;
          }, 'the push-pull job to finish', 30_000);
    expect(state.status).toBe('done');
    expect((await json(`${data}/v1/queries/${pushed.body.id}/results`, { headers: basic })).body.results[0].content).toContain('<h1');
  });

  test('a quota set by the CLI while serving applies to the next request', async () => {
    const set = await runGleaner(exe, ['accounts', 'set-quota', '1', '--requests-per-minute', '0'], { cwd: dir, env });
    expect(set.stdout.trim()).toBe('account 1: requests_per_minute=0');
    const refused = await postWeb('/v1/scrape', { url: `${sim.origin}/static` });
    expect([refused.status, refused.body.title, refused.headers.get('x-ratelimit-limit')]).toEqual([429, 'QUOTA_EXCEEDED', '0']);
  });

  test('SIGTERM drains and exits 0', async () => {
    g.child.kill('SIGTERM');
    expect(await g.exited).toBe(0);
  });
});
