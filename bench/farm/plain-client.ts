/**
 * What Chrome's own network stack costs the plain path (issue #20; README "What a site sees"):
 * the farm called directly (`run_js: false`, Markdown) with `GLEANER_PLAIN_CLIENT=native`
 * (wreq-js) and `=chromium` (a fetch tab navigates, the document response is taken before
 * commit: farm/browser/nav-fetch.ts), beside the raw undici + turndown loop, in one run. Each
 * contender runs in a fresh process of its own; the pages come from a server in this process
 * (not metered). The chromium row's CPU includes the browser's processes (the process tree).
 *
 *   node --import tsx bench/farm/plain-client.ts [--pages 1500] [--warm 300] [--concurrency 8] [--kb 87] [--rows turndown,native,chromium] [--dist] [--configs '[{},{"workerYoungMb":0}]']
 *
 * `--dist`: the farm rows run the compiled farm (`npm run build` first; `BENCH_DIST=/abs/dist`
 * another build), whose threads run without tsx as a deployed node's do. `--configs`: each farm
 * row once per set of Config overrides, one after the other in the same run. `--limits '{"contextMaxFetches":1e9}'`:
 * farm limits (`farm/messages.ts` FarmLimits) for every farm row.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { isMain, runChild, tell } from '../child.js';
import { arg, argString, measure, printTable, type RunStats } from './measure.js';

/** An article of about `kb` KB: headings, paragraphs with links, a list, a table. */
export function article(kb: number, seed: number): string {
  const parts: string[] = [`<!doctype html><html><head><meta charset="utf-8"><title>Article ${seed}</title></head><body><main><h1>Article ${seed}</h1>`];
  let size = parts[0].length;
  for (let s = 0; size < kb * 1024; s++) {
    const block =
      `<h2>Section ${s}</h2><p>Paragraph ${s} of article ${seed}: lorem ipsum dolor sit amet, <a href="/a/${s}">consectetur</a> adipiscing elit, ` +
      'sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.</p>' +
      `<ul><li>Point ${s}.1</li><li>Point ${s}.2 with <strong>emphasis</strong></li></ul>` +
      `<table><tr><th>k</th><th>v</th></tr><tr><td>${s}</td><td>${seed}</td></tr></table>`;
    parts.push(block);
    size += block.length;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}

async function rowMain(name: string, origin: string, pages: number, warmPages: number, concurrency: number): Promise<RunStats> {
  const urls = Array.from({ length: pages }, (_, i) => `${origin}/p?i=${i}`);
  const warm = Array.from({ length: warmPages }, (_, i) => `${origin}/p?w=${i}`);
  const run = async (label: string, once: (url: string) => Promise<unknown>): Promise<RunStats> => {
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < warm.length; i = next++) await once(warm[i]!);
    }));
    return measure(label, pages, concurrency, async (i) => void (await once(urls[i]!)));
  };
  if (name === 'turndown') {
    const { default: TurndownService } = await import('turndown');
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: concurrency });
    const stats = await run('raw undici + turndown', async (url) => turndown.turndown(await (await request(url, { dispatcher: agent })).body.text()));
    await agent.close();
    return stats;
  }
  const dist = process.argv.includes('--dist');
  // A computed specifier: dist/ has no type declarations; its modules are the sources' own.
  // The compiled farm's threads run without tsx, as a deployed node's do.
  const from = (path: string) => (dist ? `${process.env.BENCH_DIST || '../../dist'}/${path}` : `../../${path}`);
  const { loadConfig } = (await import(from('core/config.js'))) as typeof import('../../core/config.js');
  const { createFarm } = (await import(from('farm/index.js'))) as typeof import('../../farm/index.js');
  const { task } = await import('../../test/helpers/farm.js');
  const plainClient = name === 'chromium' ? 'chromium' : 'native';
  const more = argString('config');
  const limits = argString('limits');
  const farm = await createFarm({
    config: loadConfig({}, { allowPrivate: true, plainClient, ...(more ? (JSON.parse(more) as object) : {}) }),
    ...(limits ? { limits: JSON.parse(limits) as object } : {}),
  });
  try {
    return await run(`farm, plain client ${plainClient} (markdown)${more ? ` ${more}` : ''}${limits ? ` limits ${limits}` : ''}${dist ? ' [dist]' : ''}`, async (url) => {
      const out = await farm.run(task({ url, output: ['markdown'] }, { timeoutMs: 60_000 }));
      if (out.status !== 200) throw new Error(`status ${out.status}`);
    });
  } finally {
    await farm.close();
  }
}

if (isMain(import.meta)) {
  const row = argString('row');
  if (row) {
    try {
      await tell({ type: 'result', value: await rowMain(row, argString('origin'), arg('pages', 1500), arg('warm', 300), arg('concurrency', 8)) });
    } catch (err) {
      await tell({ type: 'error', message: (err as Error).message });
    }
    process.exit(0);
  }
  const kb = arg('kb', 87);
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const key = req.url ?? '/';
    let body = pages.get(key);
    if (!body) pages.set(key, (body = article(kb, pages.size)));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rows: RunStats[] = [];
  const wanted = argString('rows', 'turndown,native,chromium').split(',').filter(Boolean);
  // --configs '[{},{"workerYoungMb":0}]': each farm row once per config (Config overrides), side by side.
  const configs = (JSON.parse(argString('configs', '[{}]')) as object[]).map((c) => (Object.keys(c).length ? JSON.stringify(c) : ''));
  for (const name of wanted) {
    const args = ['--row', name, '--origin', origin, '--pages', String(arg('pages', 1500)), '--warm', String(arg('warm', 300)), '--concurrency', String(arg('concurrency', 8))];
    if (name === 'turndown') {
      rows.push(await runChild<RunStats>('bench/farm/plain-client.ts', args, 600_000));
      continue;
    }
    for (const config of configs) {
      const limits = argString('limits');
      const extra = [...(config ? ['--config', config] : []), ...(limits ? ['--limits', limits] : []), ...(process.argv.includes('--dist') ? ['--dist'] : [])];
      rows.push(await runChild<RunStats>('bench/farm/plain-client.ts', [...args, ...extra], 600_000));
    }
  }
  server.close();
  printTable(rows);
}
