/**
 * Where a job's result goes in cluster mode (core/store/nats/jobs.ts RESULT_KV_MAX_BYTES): one
 * KV value, or the object store (128 KiB chunks plus a metadata message). For each size, the
 * time of a write then a read of the same value, each way, on one nats-server (R1) and on three
 * (R3), in the same run. KV values cannot exceed the server's max_payload (1 MiB by default).
 *
 *   node --import tsx bench/cluster-results.ts [--n 40]
 */
import { readFileSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import { arg } from './farm/measure.js';
import { startNats } from '../test/helpers/nats.js';

const SIZES = [16, 64, 128, 256, 512, 900].map((k) => k * 1024);

async function run(servers: 1 | 3, n: number): Promise<Array<Record<string, unknown>>> {
  const nats = await startNats(servers);
  const nc = await connect({ servers: nats.urls.map((u) => u.replace('nats://', '')) });
  try {
    const js = jetstream(nc);
    // A fresh three-server cluster elects its JetStream meta leader first: retry until it has.
    const ready = async <T>(make: () => Promise<T>): Promise<T> => {
      for (let i = 0; ; i++) {
        try {
          return await make();
        } catch (err) {
          if (i > 60) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    const kv = await ready(() => new Kvm(js).create('bench_results', { replicas: servers, history: 1 }));
    const obj = await ready(() => new Objm(js).create('bench_results', { replicas: servers }));
    const rows: Array<Record<string, unknown>> = [];
    for (const size of SIZES) {
      const data = new Uint8Array(size).fill(120);
      const time = async (op: (i: number) => Promise<unknown>) => {
        await op(-1); // warm
        const t = performance.now();
        for (let i = 0; i < n; i++) await op(i);
        return (performance.now() - t) / n;
      };
      const kvMs = await time(async (i) => {
        await kv.put(`r${size}.${i + 1}`, data);
        await kv.get(`r${size}.${i + 1}`);
      });
      const objMs = await time(async (i) => {
        await obj.putBlob({ name: `r${size}.${i + 1}` }, data);
        await obj.getBlob(`r${size}.${i + 1}`);
      });
      rows.push({ servers: `${servers} (R${servers})`, 'KiB': size / 1024, 'KV put+get ms': kvMs.toFixed(2), 'object put+get ms': objMs.toFixed(2), 'object / KV': (objMs / kvMs).toFixed(2) });
    }
    return rows;
  } finally {
    await nc.close();
    await nats.stop();
  }
}

const n = arg('n', 40);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const rows = [...(await run(1, n)), ...(await run(3, n))];
console.table(rows);
console.log(`${n} write+read pairs per cell, sequential; load average at start ${load}`);
