/**
 * Publishing to a stream through elections: during a NATS leader election a publish can fail
 * (no responders, timeout) for several seconds. Every publish that matters carries a message
 * id, so retrying it with the same id is safe: the stream stores it once (dedupe window,
 * connection.ts).
 */
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';

/** How long a publish keeps being retried before the caller gets the error (an accepted job's 202 waits for it). */
export const PUBLISH_DEADLINE_MS = 30_000;

export async function publishRetrying(js: JetStreamClient, subject: string, data: Uint8Array, msgID: string, deadlineMs = PUBLISH_DEADLINE_MS): Promise<PubAck> {
  const until = Date.now() + deadlineMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await js.publish(subject, data, { msgID, timeout: 5_000 });
    } catch (err) {
      if (Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Errors worth retrying: the cluster is electing a leader or a server went away. */
export function isTransient(err: unknown): boolean {
  // The client reports a stream without a leader (an election after a server died) as
  // "jetstream is not enabled", caused by "no responders": the cause says what happened.
  // A read through a stream leader during its election answers "JetStream system temporarily
  // unavailable" (API error 10008, status 503), whose code is not in its message.
  const cause = (err as { cause?: Error })?.cause;
  const code = (err as { code?: unknown })?.code ?? '';
  const text = `${(err as Error)?.name ?? ''} ${(err as Error)?.message ?? err} ${String(code)} ${cause?.name ?? ''} ${cause?.message ?? ''}`;
  return /timeout|no responders|503|10008|temporarily unavailable|not current|leader|disconnect|closed connection|reconnect|stale connection/i.test(text) && !/wrong last sequence|key exists/i.test(text);
}

/** Runs `op` again on transient errors until the deadline (KV reads and writes through an election). */
export async function retrying<T>(op: () => Promise<T>, deadlineMs = PUBLISH_DEADLINE_MS): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await op();
    } catch (err) {
      if (!isTransient(err) || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
