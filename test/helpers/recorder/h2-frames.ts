/**
 * The HTTP/2 fingerprint of a connection, read from the decrypted bytes the client sent: the
 * first SETTINGS frame (ids and values in the order sent), the connection WINDOW_UPDATE sent
 * before the first request, PRIORITY frames, and the first HEADERS frame's priority fields.
 * The pseudo-header order comes from the decoded request (server.ts). Together they make
 * Akamai's format: `SETTINGS|WINDOW_UPDATE|PRIORITY|PSEUDO_HEADER_ORDER`
 * (e.g. `1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p`).
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface H2Print {
  /** `id:value` pairs of the first SETTINGS frame, in order. */
  settings: string;
  /** Increment of the connection-level WINDOW_UPDATE sent before the first HEADERS, or `00`. */
  windowUpdate: string;
  /** `stream:exclusive:dependency:weight` of PRIORITY frames before the first HEADERS, or `0`. */
  priority: string;
  /** The first HEADERS frame's priority (`exclusive:dependency:weight`), or `none`. */
  headersPriority: string;
  /** Frame types in order up to and including the first HEADERS (e.g. `SETTINGS,WINDOW_UPDATE,HEADERS`). */
  frames: string;
}

const NAMES = ['DATA', 'HEADERS', 'PRIORITY', 'RST_STREAM', 'SETTINGS', 'PUSH_PROMISE', 'PING', 'GOAWAY', 'WINDOW_UPDATE', 'CONTINUATION'];

/** Collects client bytes until the first HEADERS frame; `print` is set then. */
export class H2Reader {
  private buf = Buffer.alloc(0);
  private prefaceSeen = false;
  private settings: string | undefined;
  private windowUpdate = '00';
  private readonly priorities: string[] = [];
  private readonly frames: string[] = [];
  print: H2Print | undefined;

  /** Feeds decrypted client bytes; returns true once the fingerprint is complete. */
  push(chunk: Buffer): boolean {
    if (this.print) return true;
    this.buf = Buffer.concat([this.buf, chunk]);
    if (!this.prefaceSeen) {
      if (this.buf.length < PREFACE.length) return false;
      if (!this.buf.subarray(0, PREFACE.length).equals(PREFACE)) throw new Error('not an HTTP/2 preface');
      this.buf = this.buf.subarray(PREFACE.length);
      this.prefaceSeen = true;
    }
    while (this.buf.length >= 9 && !this.print) {
      const len = this.buf.readUIntBE(0, 3);
      if (this.buf.length < 9 + len) break;
      const type = this.buf[3];
      const flags = this.buf[4];
      const stream = this.buf.readUInt32BE(5) & 0x7fffffff;
      const payload = this.buf.subarray(9, 9 + len);
      this.buf = this.buf.subarray(9 + len);
      this.frame(type, flags, stream, payload);
    }
    return this.print !== undefined;
  }

  private frame(type: number, flags: number, stream: number, payload: Buffer): void {
    const name = NAMES[type] ?? `0x${type.toString(16)}`;
    if (type === 4 && flags & 1) return; // SETTINGS ACK: says nothing about the client
    this.frames.push(name);
    if (type === 4 && this.settings === undefined) {
      const pairs: string[] = [];
      for (let i = 0; i + 6 <= payload.length; i += 6) pairs.push(`${payload.readUInt16BE(i)}:${payload.readUInt32BE(i + 2)}`);
      this.settings = pairs.join(';');
    } else if (type === 8 && stream === 0 && this.windowUpdate === '00') {
      this.windowUpdate = String(payload.readUInt32BE(0) & 0x7fffffff);
    } else if (type === 2) {
      const dep = payload.readUInt32BE(0);
      this.priorities.push(`${stream}:${dep >>> 31}:${dep & 0x7fffffff}:${payload[4] + 1}`);
    } else if (type === 1) {
      let headersPriority = 'none';
      if (flags & 0x20) {
        const at = flags & 0x08 ? 1 : 0; // PADDED: one pad-length byte first
        const dep = payload.readUInt32BE(at);
        headersPriority = `${dep >>> 31}:${dep & 0x7fffffff}:${payload[at + 4] + 1}`;
      }
      this.print = {
        settings: this.settings ?? '',
        windowUpdate: this.windowUpdate,
        priority: this.priorities.length ? this.priorities.join(',') : '0',
        headersPriority,
        frames: this.frames.join(','),
      };
    }
  }
}

/** Akamai's string from the frame print and the first request's pseudo-header names. */
export function akamai(print: H2Print, pseudo: readonly string[]): string {
  const order = pseudo.map((p) => p.replace(/^:/, '')[0]).join(',');
  return `${print.settings}|${print.windowUpdate}|${print.priority}|${order}`;
}
