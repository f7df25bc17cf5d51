/**
 * Worker side: async results written to the store by the worker that produced them
 * (ScrapeTask.persist, DESIGN.md "it writes results to LMDB itself"). The main thread then
 * gets only the status and usage: a 1 MB page is neither structured-cloned to it nor
 * msgpack-encoded on it. The job's final state is still committed by the main thread
 * (JobStore.finish), after this write: a crash in between reruns the job, whose run
 * overwrites the same key; a result whose job then fails is removed with the job.
 *
 * One result writer per thread (core/store/index.ts openResultWriter), opened on the first
 * persisted task with the service's store location.
 */
import type { StoreLocation } from '../../core/store/index.js';
import type { ResultWriter } from '../../core/store/jobs.js';
import type { ScrapeOutcome } from '../../core/wire.js';

import { lazy } from './lazy.js';

/** The store's modules (LMDB, msgpackr) load with the first persisted task (lazy.ts). */
const store = lazy('../../core/store/index.js', () => import('../../core/store/index.js'));
let writer: ResultWriter | undefined;

export async function persistResults(location: StoreLocation, id: string, outcome: ScrapeOutcome): Promise<ScrapeOutcome> {
  writer ??= (await store()).openResultWriter(location);
  await writer.put(id, { results: outcome.results });
  // Everything but the results goes back (a media download's object among it).
  return { ...outcome, results: [], stored: true };
}
