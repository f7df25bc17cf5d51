/**
 * Assistant questions on the simulator's three chat pages, the farm called directly (2 workers,
 * default contexts), one row per assistant in a fresh process of its own (the simulator in
 * another): questions per minute, latency, and the farm's CPU per question (its whole process
 * tree, Chromium included). Each question is a fresh browser context, a page, typing, sending,
 * waiting for the completion signals and reading the answer: the simulated answers stream or
 * render in about half a second, and completion waits for the text to be stable for
 * `stableMs` (600 ms shipped), so latency is dominated by waiting, not CPU.
 *   node --import tsx bench/farm/assistants.ts [--questions 24] [--concurrency 4]
 */
import { isMain, runChild, startService, tell } from '../child.js';
import { arg, argString, measure, printTable, round, type RunStats } from './measure.js';

export interface AssistantRow extends RunStats {
  questionsPerMin: number;
}

export async function runAssistants(opts: { questions: number; concurrency: number }): Promise<{ rows: AssistantRow[]; notes: string[] }> {
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  const rows: AssistantRow[] = [];
  const notes: string[] = [];
  try {
    for (const assistant of ['llm1', 'llm2', 'llm3']) {
      const args = ['--row', assistant, '--origin', sim.info.origin, '--questions', String(opts.questions), '--concurrency', String(opts.concurrency), '--sim-pid', String(sim.pid)];
      try {
        rows.push(await runChild<AssistantRow>('bench/farm/assistants.ts', args, 300_000));
      } catch (err) {
        notes.push(`assistant row ${assistant} skipped: ${(err as Error).message}`);
      }
    }
  } finally {
    await sim.stop();
  }
  return { rows, notes };
}

async function rowMain(assistant: string, origin: string, questions: number, concurrency: number, simPid: number | undefined): Promise<AssistantRow> {
  const { loadConfig } = await import('../../core/config.js');
  const { createFarm } = await import('../../farm/index.js');
  const { task } = await import('../../test/helpers/farm.js');
  const targets = { [assistant]: { baseUrl: `${origin}/${assistant}` } };
  const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 2, targets }) });
  const ask = async (q: string) => {
    const out = await farm.run(task({ query: q, output: ['json'] }, { routeId: assistant, timeoutMs: 60_000 }));
    if (out.results[0]?.metadata.parse_status !== 'parsed') throw new Error(`${assistant}: the answer to "${q}" was not parsed`);
  };
  await Promise.all(Array.from({ length: 4 }, (_, i) => ask(`warm-up question ${i}`)));
  const t0 = performance.now();
  const stats = await measure(`assistant: ${assistant} (farm direct)`, questions, concurrency, (i) => ask(`bench question number ${i}`), process.pid, simPid);
  const minutes = (performance.now() - t0) / 60_000;
  await farm.close();
  return { ...stats, questionsPerMin: round((stats.pages - stats.failures) / minutes, 1) };
}

export function printAssistants(rows: readonly AssistantRow[]): void {
  console.table(rows.map((r) => ({ row: r.name, 'questions/min': r.questionsPerMin, 'p50 ms': r.p50Ms, 'p95 ms': r.p95Ms, 'CPU ms/question': r.cpuMsPerPage, failures: r.failures })));
}

if (isMain(import.meta)) {
  const row = argString('row');
  if (row) {
    try {
      await tell({ type: 'result', value: await rowMain(row, argString('origin'), arg('questions', 24), arg('concurrency', 4), arg('sim-pid', 0) || undefined) });
    } catch (err) {
      await tell({ type: 'error', message: (err as Error).message });
      if (!process.send) throw err;
    }
    process.exit(0);
  }
  const result = await runAssistants({ questions: arg('questions', 24), concurrency: arg('concurrency', 4) });
  printAssistants(result.rows);
  printTable(result.rows);
  for (const n of result.notes) console.log(`- ${n}`);
}
