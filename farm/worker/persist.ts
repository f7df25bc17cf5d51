/**
 * Worker side: async results written to the store by the worker that produced them
 * (ScrapeTask.persist, DESIGN.md "it writes results to LMDB itself"). The main thread then
 * gets only the status and usage: a 1 MB page is neither structured-cloned to it nor
 * msgpack-encoded on it. The job's final state is still committed by the main thread
 * (JobStore.finish), after this write: a crash in between reruns the job, whose run
 * overwrites the same key; a result whose job then fails is removed with the job.
 *
 * One LMDB environment handle per thread, opened on the first persisted task with the
 * service's options (core/store/index.ts openRoot); lmdb-js shares the environment between
 * the threads of a process and serialises their writes.
 */
import type { Database, RootDatabase } from 'lmdb';
import { openRoot } from '../../core/store/index.js';
import type { JobResult } from '../../core/store/jobs.js';
import type { ScrapeOutcome } from '../../core/wire.js';

let store: { root: RootDatabase; results: Database<unknown, string> } | undefined;

export async function persistResults(dataDir: string, id: string, outcome: ScrapeOutcome): Promise<ScrapeOutcome> {
  if (!store) {
    const root = openRoot(dataDir);
    store = { root, results: root.openDB({ name: 'results' }) };
  }
  await store.results.put(id, { results: outcome.results } satisfies JobResult);
  // Everything but the results goes back (a media download's object among it).
  return { ...outcome, results: [], stored: true };
}
