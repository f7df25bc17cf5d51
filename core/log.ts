/** pino JSON logs on stdout; one logger per process, children carry the request id. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gleaner' },
    // Secrets never reach a log line, whatever a caller passes in.
    redact: { paths: ['authorization', '*.authorization', 'key', '*.key', 'llm.key', 'password', '*.password'], censor: '[redacted]' },
  });
}
