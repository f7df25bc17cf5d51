/**
 * Plain-HTTP throughput: a raw undici + converter loop against the farm (`run_js: false`,
 * markdown output), on the simulator's static page, in one process.
 *   node --import tsx bench/farm/static.ts [--pages 400] [--concurrency 16]
 */
import { Agent, request } from 'undici';
import { loadConfig } from '../../core/config.js';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import { createFarm } from '../../farm/index.js';
import { startSimulator } from '../../test/sites/server.js';
import { task } from '../../test/helpers/farm.js';
import { arg, measure, printTable } from './measure.js';

const pages = arg('pages', 400);
const concurrency = arg('concurrency', 16);
const sim = await startSimulator();
const url = `${sim.origin}/static`;

const agent = new Agent({ keepAliveTimeout: 10_000 });
for (let i = 0; i < 50; i++) htmlToMarkdown(await (await request(url, { dispatcher: agent })).body.text(), url); // warm up
const raw = await measure('raw undici + htmlToMarkdown', pages, concurrency, async () => {
  const res = await request(url, { dispatcher: agent });
  htmlToMarkdown(await res.body.text(), url);
});
await agent.close();

const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true }) });
await farm.run(task({ url, output: ['markdown'] })); // warm the workers
const ours = await measure('farm (run_js false)', pages, concurrency, async () => {
  await farm.run(task({ url, output: ['markdown'] }));
});
await farm.close();
await sim.close();
printTable([raw, ours]);
