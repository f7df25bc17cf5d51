/**
 * Raw HTTP/1.1 over node:net, for what fetch cannot send: duplicate framing fields, huge heads,
 * pipelined bytes. Resolves with everything the server wrote and how the connection ended.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** Everything received, as latin1 text. */
  text: string;
  /** `closed`: the server closed (FIN); `reset`: ECONNRESET; `open`: still open at the wait's end. */
  end: 'closed' | 'reset' | 'open';
  /** Status codes of the responses found in `text`, in order. */
  statuses: number[];
  /** The body of the first response (after its blank line). */
  firstBody: string;
}

export function rawRequest(port: number, data: string | Buffer, waitMs = 1500): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (end: RawAnswer['end']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      const head = text.indexOf('\r\n\r\n');
      const firstBody = head < 0 ? '' : text.slice(head + 4).split('HTTP/1.1 ')[0];
      resolve({ text, end, statuses, firstBody });
    };
    const timer = setTimeout(() => finish('open'), waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : 'closed'));
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.write(data);
  });
}

/** Complete responses in `text` (each head and its Content-Length body). */
function completeResponses(text: string): number {
  let count = 0;
  let at = 0;
  for (;;) {
    const head = text.indexOf('\r\n\r\n', at);
    if (head < 0) return count;
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(at, head))?.[1];
    const end = head + 4 + Number(length ?? 0);
    if (end > text.length) return count;
    count++;
    at = end;
  }
}

/**
 * Several writes on one connection. With `answerFirst` (the default) each part after the first
 * is written once every part before it has its complete answer (a kept-alive client, or one
 * that sends after a refusal arrived); without it, the parts go out as separate writes at once.
 * Then waits up to `waitMs` for the server to close. A part written after the server closed is
 * dropped, as a client would see it.
 */
export function rawExchange(port: number, parts: Array<string | Buffer>, opts: { answerFirst?: boolean; waitMs?: number } = {}): Promise<RawAnswer> {
  const answerFirst = opts.answerFirst ?? true;
  const waitMs = opts.waitMs ?? 1500;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const text = (): string => Buffer.concat(chunks).toString('latin1');
    const finish = (end: RawAnswer['end']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const all = text();
      const statuses = [...all.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      const head = all.indexOf('\r\n\r\n');
      resolve({ text: all, end, statuses, firstBody: head < 0 ? '' : all.slice(head + 4).split('HTTP/1.1 ')[0] });
    };
    const armDeadline = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish('open'), waitMs);
    };
    const sendNext = (): void => {
      if (settled || socket.destroyed || sent >= parts.length) return;
      socket.write(parts[sent++]);
      armDeadline();
      if (!answerFirst) setImmediate(sendNext);
    };
    socket.on('data', (d) => {
      chunks.push(d);
      if (answerFirst && completeResponses(text()) >= sent) sendNext();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : 'closed'));
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('connect', sendNext);
  });
}
