/**
 * pino JSON logs on stdout; one logger per process, children carry the request id.
 *
 * Lines are buffered (4 KiB) and written asynchronously, and the buffer is flushed every 200 ms,
 * so a quiet service's lines still appear at once while a busy one writes in batches: a
 * synchronous write per request cost the gateway ~20 µs of main-thread time. The buffer is
 * flushed on exit, and `flushLogs()` lets the CLI flush before `process.exit`.
 *
 * No pino `redact`: it wraps every serialization (~10 µs per request line). Instead no call site
 * logs secrets: request lines carry id, method, route, status and time; credentials, the
 * Authorization header and the LLM key are never passed to the logger (a test checks the
 * service's output for them).
 */
import { pino, type Logger } from 'pino';

export type { Logger };

const destinations: Array<{ flushSync(): void }> = [];

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  destinations.push(destination);
  if (destinations.length === 1) process.once('exit', flushLogs);
  setInterval(() => {
    // Not while the file descriptor is still being opened or a write is in flight: flush()
    // throws on an unready stream; the next tick will catch up.
    try {
      destination.flush();
    } catch {
      /* not ready yet */
    }
  }, 200).unref();
  return pino(
    {
      level,
      base: { service: 'gleaner' },
    },
    destination,
  );
}

/** Writes out every buffered log line now (safe to call more than once). */
export function flushLogs(): void {
  for (const d of destinations) {
    try {
      d.flushSync();
    } catch {
      // A destination that is not open yet, or already closed, has nothing to flush.
    }
  }
}
