/**
 * Jobs (issue: jobs), with the service and the simulator in processes of their own:
 *  (a) durable submit throughput: `POST /v1/async/scrape` 202s per second (each job committed
 *      to LMDB before its 202) against bare uWS `POST /hello` in the same run. Target ≥ 0.30.
 *      The submitted jobs point at the simulator's `/slow` page, so the few that the dispatcher
 *      starts meanwhile wait on the network and take no CPU from the submit path.
 *  (b) a burst of 10,000 async jobs on `/static` (20 batch submissions of 500, workers: 2):
 *      time to drain, and every job read back through `GET /v1/async/scrape/{id}` as `done`.
 *
 *   node --import tsx bench/jobs.ts [--seconds 5] [--connections 32] [--jobs 10000] [--batch 500] [--contexts N] [--burst-only]
 */
import { Pool } from 'undici';
import { isMain, startService, type Service } from './child.js';
import { arg, startMeter } from './farm/measure.js';
import { INVALID_SCRAPE_BODY, startGatewayService, type GatewayInfo } from './gateway.js';
import { runLoad, assertLoopback } from './load.js';
import { ratio, type Section } from './report.js';

export interface JobsOptions {
  seconds: number;
  connections: number;
  jobs: number;
  batch: number;
  /** Bound on the drain wait. */
  drainTimeoutS: number;
  /** GLEANER_CONTEXTS for the burst's service (the dispatcher runs workers × contexts jobs at once); default: the service's. */
  contexts?: number;
  /** Skip (a). */
  burstOnly?: boolean;
}

async function submitThroughput(opts: JobsOptions, sim: string): Promise<{ rows: Record<string, unknown>[]; notes: string[] }> {
  const hello = await startService<{ url: string }>('bench/hello.ts');
  const gw = await startGatewayService(2);
  const common = { connections: opts.connections, durationMs: opts.seconds * 1000, warmupMs: 1000 };
  const body = JSON.stringify({ url: `${sim}/slow?ms=60000` });
  try {
    const bare = await runLoad({ ...common, name: 'bare uWS POST /hello', origin: hello.info.url, method: 'POST', path: '/hello', headers: { 'content-type': 'application/json' }, body: INVALID_SCRAPE_BODY, expectStatus: 200, serverPid: hello.pid });
    const ours = await runLoad({ ...common, name: 'POST /v1/async/scrape (202, durable)', origin: gw.info.url, method: 'POST', path: '/v1/async/scrape', headers: { authorization: `Bearer ${gw.info.key}`, 'content-type': 'application/json' }, body, expectStatus: 202, serverPid: gw.pid });
    const r = ours.rps / bare.rps;
    const rows = [bare, ours].map((x, i) => ({
      target: x.name,
      'req/s': x.rps,
      'p50 ms': x.p50Ms,
      'p99 ms': x.p99Ms,
      'vs bare': ratio(i === 0 ? 1 : r),
      'server CPU µs/req': x.serverCpuUsPerReq,
      'server CPU %': x.serverCpuPct,
      'client CPU %': x.clientCpuPct,
      'bad answers': x.unexpected + x.errors,
    }));
    return { rows, notes: [`durable submit: ${ratio(r)} of bare throughput (target ≥ 0.30: ${r >= 0.3 ? 'met' : 'NOT met'}); ${ours.requests + 0} jobs committed in ${opts.seconds} s.`] };
  } finally {
    // Jobs on /slow are still running: no graceful drain, the temp store is removed anyway.
    await Promise.all([hello.stop(), gw.stop(2000)]);
  }
}

async function gauges(pool: Pool, key: string): Promise<Record<string, number>> {
  // /metrics needs an admin key (or GLEANER_METRICS_TOKEN): the bench's key is the bootstrap admin key.
  const res = await pool.request({ path: '/metrics', method: 'GET', headers: { authorization: `Bearer ${key}` } });
  const text = await res.body.text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(gleaner_(?:jobs_running|jobs_queued|farm_in_flight))\s+(\S+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

async function burst(opts: JobsOptions, sim: string): Promise<{ rows: Record<string, unknown>[]; notes: string[] }> {
  const gw: Service<GatewayInfo> = await startGatewayService(2, opts.contexts ? ['--contexts', String(opts.contexts)] : []);
  assertLoopback(gw.info.url);
  const pool = new Pool(gw.info.url, { connections: 16 });
  const auth = { authorization: `Bearer ${gw.info.key}`, 'content-type': 'application/json' };
  const ids: string[] = [];
  const meter = startMeter(gw.pid);
  try {
    const t0 = performance.now();
    for (let first = 0; first < opts.jobs; first += opts.batch) {
      const url = Array.from({ length: Math.min(opts.batch, opts.jobs - first) }, (_, i) => `${sim}/static?n=${first + i}`);
      const res = await pool.request({ path: '/v1/async/scrape/batch', method: 'POST', headers: auth, body: JSON.stringify({ url }) });
      const answer = (await res.body.json()) as { data?: Array<{ metadata: { request_id: string } }> };
      if (res.statusCode !== 202 || !answer.data) throw new Error(`batch submit answered ${res.statusCode}: ${JSON.stringify(answer).slice(0, 300)}`);
      for (const d of answer.data) ids.push(d.metadata.request_id);
    }
    const submittedS = (performance.now() - t0) / 1000;
    let drainedS = NaN;
    const until = performance.now() + opts.drainTimeoutS * 1000;
    while (performance.now() < until) {
      const g = await gauges(pool, gw.info.key);
      if (g.gleaner_jobs_running === 0 && g.gleaner_jobs_queued === 0) {
        drainedS = (performance.now() - t0) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const m = meter.stop();
    // Read every job back through the API.
    const statuses: Record<string, number> = {};
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < ids.length; i = next++) {
        const res = await pool.request({ path: `/v1/async/scrape/${ids[i]}`, method: 'GET', headers: auth });
        const job = (await res.body.json()) as { status?: string };
        const key = res.statusCode === 200 ? String(job.status) : `http ${res.statusCode}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    const done = statuses.done ?? 0;
    const rows = [
      {
        jobs: ids.length,
        'submit s': Math.round(submittedS * 100) / 100,
        'drain s (from first submit)': Number.isFinite(drainedS) ? Math.round(drainedS * 100) / 100 : `> ${opts.drainTimeoutS}`,
        'jobs/s': Number.isFinite(drainedS) ? Math.round(ids.length / drainedS) : 'n/a',
        'CPU ms/job (service tree)': Math.round((m.cpuMs / Math.max(1, ids.length)) * 100) / 100,
        'peak RSS MB (service tree)': Math.round(m.peakRssBytes / 2 ** 20),
        'read back done': done,
        'read back other': JSON.stringify(Object.fromEntries(Object.entries(statuses).filter(([k]) => k !== 'done'))),
      },
    ];
    const all = done === opts.jobs;
    const ctx = opts.contexts ? `contexts: ${opts.contexts}` : 'contexts: default';
    return { rows, notes: [`burst: ${done} of ${opts.jobs} jobs read back as done${all ? '' : ' — NOT all done'}; ${Math.ceil(opts.jobs / opts.batch)} batch submissions of ${opts.batch}, workers: 2, ${ctx}.`] };
  } finally {
    await pool.close();
    await gw.stop(30_000);
  }
}

export async function runJobsBench(opts: JobsOptions): Promise<Section> {
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  try {
    const a = opts.burstOnly ? { rows: [], notes: [] } : await submitThroughput(opts, sim.info.origin);
    const b = await burst(opts, sim.info.origin);
    return {
      id: 'jobs',
      title: `Jobs: durable submit vs bare uWS (${opts.connections} connections, ${opts.seconds} s), and a ${opts.jobs}-job burst`,
      tables: [
        { caption: '(a) durable submit', rows: a.rows },
        { caption: '(b) burst', rows: b.rows },
      ],
      notes: [...a.notes, ...b.notes],
    };
  } finally {
    await sim.stop();
  }
}

if (isMain(import.meta)) {
  const { printSection } = await import('./report.js');
  printSection(
    await runJobsBench({ seconds: arg('seconds', 5), connections: arg('connections', 32), jobs: arg('jobs', 10_000), batch: arg('batch', 500), drainTimeoutS: arg('drain-timeout', 300), contexts: arg('contexts', 0) || undefined, burstOnly: process.argv.includes('--burst-only') }),
  );
}
