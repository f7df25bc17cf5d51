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
