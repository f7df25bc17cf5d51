/**
 * The work seam: how queued async jobs reach a node's job runner (farm/jobs/job-runner.ts).
 * Implemented by lmdb/work.ts; the cluster store implements it with a JetStream work-queue
 * stream and a durable pull consumer.
 *
 * A job is handed over as a WorkItem; the runner then does `JobStore.start` (CAS; undefined
 * means "already final": settle without running), runs it, `JobStore.finish`es it, and only
 * then settles the item. Delivery is at least once: the same job may be handed over again
 * (after a node died, after a leader failover), and the CAS of `start`/`finish` makes the
 * repeat harmless.
 *
 * | step | LMDB (one process) | JetStream (cluster) |
 * |---|---|---|
 * | hand over | every queued job at `consume` (recovery), then each job as `enqueue` commits | pull from the durable consumer, at most `room()` unacknowledged |
 * | while held | nothing | the consumer renews the claim (`working()`, every third of AckWait) until settle or release; a claim found another node's is `lost` |
 * | `settle` | nothing (`finish` removed the queue entry in its transaction) | ack |
 * | `release` | nothing (the entry stays; handed over at the next `consume`) | nak, redelivered to any node |
 * | poison | `start` refuses after `maxStarts` starts | the same count in the job's state; MaxDeliver as the backstop |
 */

/** One job to run, as the queue hands it over. */
export interface WorkItem {
  id: string;
  clientId: number;
  routeId: string;
}

export interface WorkSink {
  /** Jobs handed over; the runner holds them (fair between accounts) until it can run them. */
  deliver(items: readonly WorkItem[]): void;
  /** How many more jobs the runner can take now (JetStream sizes its pulls by it; LMDB hands over everything). */
  room(): number;
  /**
   * Another node holds the job now (cluster: this node stopped answering past the ack wait — a
   * pause, a stall — and the job was handed over). Drop it: stop its run here, and neither
   * finish, settle nor release it (its holder does). Never called by LMDB.
   */
  lost?(id: string): void;
}

export interface WorkConsumer {
  /** Jobs handed over when consuming began (LMDB: the queue found at start, running ones included). */
  readonly recovered: number;
  /** The job's final state is stored, or it was final already: done with it. */
  settle(id: string): void;
  /** Given back unfinished (shutdown, destroy): run it later, here or elsewhere. */
  release(id: string): void;
  /**
   * Stops handing over jobs; those held and never settled are handed over again later.
   * `settle` and `release` still work after it (running jobs finish after a stop), and jobs held
   * stay claimed until then.
   */
  stop(): void;
}

export interface WorkQueue {
  /** Starts handing this node's runner the jobs to run. One consumer per node. */
  consume(sink: WorkSink): WorkConsumer;
}
