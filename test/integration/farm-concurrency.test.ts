/**
 * A thread runs several tasks at once: the plain path's fetch threads up to `tasksPerWorker`,
 * a render thread up to its page budget (workers x contexts). Piscina counts a thread running a
 * task with an abort `signal` as full, so farm tasks carry none (in-flight.ts terminates stuck
 * threads itself); this holds the line. Real farm, real Chromium, a local site that holds every
 * answer until four requests are open at once and reports the most it saw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { task } from '../helpers/farm.js';

const TOGETHER = 4;
let server: Server;
let origin: string;
let open = 0;
let most = 0;
/** Answers held until TOGETHER requests are open (or 10 s passed: then the test fails on `most`). */
let waiting: Array<() => void> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    open++;
    most = Math.max(most, open);
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>${req.url}</title></head><body><h1>${req.url}</h1></body></html>`, () => open--);
    };
    if (req.url === '/warm') return answer();
    waiting.push(answer);
    if (open >= TOGETHER) {
      for (const w of waiting) w();
      waiting = [];
    } else setTimeout(() => waiting.includes(answer) && (waiting.splice(waiting.indexOf(answer), 1), answer()), 10_000);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('tasks at once on one thread', () => {
  let farm: Farm;
  beforeAll(async () => {
    // One fetch thread, one render thread with a budget of four pages.
    farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, contextsPerWorker: TOGETHER, browserThreads: 1 }) });
  });
  afterAll(async () => farm?.destroy());

  test('four plain fetches on one fetch thread are open together', async () => {
    most = 0;
    const outs = await Promise.all(Array.from({ length: TOGETHER }, (_, i) => farm.run(task({ url: `${origin}/plain/${i}`, output: ['markdown'] }))));
    expect(outs.map((o) => o.results[0]!.markdown)).toEqual(Array.from({ length: TOGETHER }, (_, i) => `# /plain/${i}\n`));
    expect(most).toBe(TOGETHER);
  });

  test('four rendered pages on one render thread are open together', async () => {
    await farm.run(task({ url: `${origin}/warm`, run_js: true, output: ['html'] }, { timeoutMs: 60_000 })).catch(() => undefined);
    most = 0;
    const outs = await Promise.all(Array.from({ length: TOGETHER }, (_, i) => farm.run(task({ url: `${origin}/js/${i}`, output: ['markdown'], run_js: true }, { timeoutMs: 60_000 }))));
    expect(outs.map((o) => o.results[0]!.markdown)).toEqual(Array.from({ length: TOGETHER }, (_, i) => `# /js/${i}\n`));
    expect(most).toBe(TOGETHER);
  });
});
