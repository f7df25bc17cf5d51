/**
 * Worker entry (one Piscina thread): the default export handles one task message. Per-thread
 * state (transports, browser connection, contexts, guards) is built on the first task from
 * `workerData`; it stays between tasks, which is the point of an actor worker.
 */
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import type { TaskMessage, WorkerSetup } from '../messages.js';
import type { TaskReply } from '../../core/wire.js';
import { createEnv, type WorkerEnv } from './env.js';
import { runTask } from './run-task.js';

let env: WorkerEnv | undefined;

export default async function handle(msg: TaskMessage): Promise<TaskReply> {
  env ??= createEnv(workerData as WorkerSetup);
  const reply = await runTask(msg, env);
  // Serialised results (ScrapeTask.encode) leave by transfer: the buffers move, they are not copied.
  const encoded = reply.ok ? reply.outcome.encoded : undefined;
  if (!encoded || encoded.length === 0) return reply;
  return move({ [transferableSymbol]: encoded.map((b) => b.buffer), [valueSymbol]: reply }) as unknown as TaskReply;
}
