/**
 * The gauges `/metrics` reads at scrape time: farm load, job queue, admitted requests. Read on
 * demand (never sampled on a timer), so an idle service does no work for them.
 */
import type { Farm, JobRunner } from '../farm/index.js';
import type { Services } from './context.js';
import { quotaMetrics } from './quota.js';

export function registerGauges(svc: Services, farm: Farm, jobs: JobRunner): void {
  svc.metrics.addSection(() => quotaMetrics(svc.store, svc.quota));
  svc.metrics.addGauges(() => {
    const f = farm.stats();
    const d = jobs.stats();
    return {
      gleaner_farm_in_flight: f.inFlight,
      gleaner_farm_queued: f.queued,
      gleaner_jobs_running: d.running,
      gleaner_jobs_queued: d.waiting,
      gleaner_admitted_requests: svc.admission.total(),
    };
  });
}
