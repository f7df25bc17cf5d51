/**
 * The TLS ClientHello as a fingerprinting server reads it: parsed from the raw bytes a client
 * sends before the handshake, then summarised as JA3 (for the log: Chrome permutes its
 * extensions, so JA3 changes per connection) and JA4 (FoxIO's spec: GREASE ignored
 * everywhere; ciphers sorted; extensions sorted without SNI and ALPN, followed by the
 * signature algorithms in their original order; each list hashed with SHA-256, 12 hex chars).
 */
import { createHash } from 'node:crypto';

export interface ClientHello {
  legacyVersion: number;
  ciphers: number[];
  /** Extension types in the order sent (GREASE included, as on the wire). */
  extensions: number[];
  sni: string | undefined;
  alpn: string[];
  groups: number[];
  pointFormats: number[];
  sigalgs: number[];
  versions: number[];
}

export interface HelloPrint {
  ja3: string;
  ja3Hash: string;
  ja4: string;
  /** JA4 with the two lists unhashed (sorted), for a readable diff when hashes differ. */
  ja4Raw: string;
  ja4Ciphers: string;
  ja4Extensions: string;
}

export const isGrease = (v: number): boolean => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);

/**
 * The ClientHello in `buf` (one or more TLS records from the start of a connection), or
 * undefined while more bytes are needed. Throws on bytes that are not a TLS handshake.
 */
export function parseClientHello(buf: Buffer): ClientHello | undefined {
  const body = handshakeBytes(buf);
  if (!body) return undefined;
  if (body[0] !== 1) throw new Error('not a ClientHello');
  const reader = new Reader(body.subarray(4, 4 + body.readUIntBE(1, 3)));
  const legacyVersion = reader.u16();
  reader.skip(32);
  reader.skip(reader.u8());
  const ciphers = reader.list16(2).map((b) => b.readUInt16BE(0));
  reader.skip(reader.u8());
  const hello: ClientHello = { legacyVersion, ciphers, extensions: [], sni: undefined, alpn: [], groups: [], pointFormats: [], sigalgs: [], versions: [] };
  if (reader.done()) return hello;
  const ext = new Reader(reader.bytes(reader.u16()));
  while (!ext.done()) {
    const type = ext.u16();
    const data = new Reader(ext.bytes(ext.u16()));
    hello.extensions.push(type);
    if (type === 0x0000) {
      const list = new Reader(data.bytes(data.u16()));
      list.u8();
      hello.sni = list.bytes(list.u16()).toString('latin1');
    } else if (type === 0x0010) {
      const list = new Reader(data.bytes(data.u16()));
      while (!list.done()) hello.alpn.push(list.bytes(list.u8()).toString('latin1'));
    } else if (type === 0x000a) hello.groups = data.list16(2).map((b) => b.readUInt16BE(0));
    else if (type === 0x000b) hello.pointFormats = [...data.bytes(data.u8())];
    else if (type === 0x000d) hello.sigalgs = data.list16(2).map((b) => b.readUInt16BE(0));
    else if (type === 0x002b) hello.versions = readU8List16(data);
  }
  return hello;
}

function readU8List16(data: Reader): number[] {
  const raw = data.bytes(data.u8());
  const out: number[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push(raw.readUInt16BE(i));
  return out;
}

/** The handshake message carried by the leading records, once all its bytes are there. */
function handshakeBytes(buf: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let have = 0;
  for (let at = 0; at + 5 <= buf.length; ) {
    if (buf[at] !== 0x16) throw new Error('not a TLS handshake record');
    const len = buf.readUInt16BE(at + 3);
    if (at + 5 + len > buf.length) return undefined;
    parts.push(buf.subarray(at + 5, at + 5 + len));
    have += len;
    at += 5 + len;
    const joined = Buffer.concat(parts);
    if (have >= 4 && have >= 4 + joined.readUIntBE(1, 3)) return joined;
  }
  return undefined;
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  done(): boolean {
    return this.at >= this.buf.length;
  }
  u8(): number {
    return this.buf[this.at++];
  }
  u16(): number {
    const v = this.buf.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  skip(n: number): void {
    this.at += n;
  }
  bytes(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new Error('truncated ClientHello');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  /** A list with a 16-bit length of items of `size` bytes. */
  list16(size: number): Buffer[] {
    const raw = this.bytes(this.u16());
    const out: Buffer[] = [];
    for (let i = 0; i + size <= raw.length; i += size) out.push(raw.subarray(i, i + size));
    return out;
  }
}

const hex4 = (v: number) => v.toString(16).padStart(4, '0');
const sha12 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

const VERSIONS: Record<number, string> = { 0x0304: '13', 0x0303: '12', 0x0302: '11', 0x0301: '10', 0x0300: 's3', 0x0002: 's2' };

export function fingerprint(h: ClientHello): HelloPrint {
  const ciphers = h.ciphers.filter((c) => !isGrease(c));
  const exts = h.extensions.filter((e) => !isGrease(e));
  const groups = h.groups.filter((g) => !isGrease(g));
  const ja3 = [h.legacyVersion, ciphers.join('-'), exts.join('-'), groups.join('-'), h.pointFormats.join('-')].join(',');
  const versions = h.versions.filter((v) => !isGrease(v));
  const version = VERSIONS[versions.length ? Math.max(...versions) : h.legacyVersion] ?? '00';
  const count = (n: number) => String(Math.min(n, 99)).padStart(2, '0');
  const a = `t${version}${h.sni === undefined ? 'i' : 'd'}${count(ciphers.length)}${count(exts.length)}${alpnChars(h.alpn[0])}`;
  const cipherList = ciphers.map(hex4).sort().join(',');
  const extList = exts.filter((e) => e !== 0x0000 && e !== 0x0010).map(hex4).sort().join(',');
  const sigs = h.sigalgs.filter((s) => !isGrease(s)).map(hex4).join(',');
  const extPart = sigs ? `${extList}_${sigs}` : extList;
  const ja4Ciphers = cipherList ? sha12(cipherList) : '000000000000';
  const ja4Extensions = extList ? sha12(extPart) : '000000000000';
  return {
    ja3,
    ja3Hash: createHash('md5').update(ja3).digest('hex'),
    ja4: `${a}_${ja4Ciphers}_${ja4Extensions}`,
    ja4Raw: `${a}_${cipherList}_${extPart}`,
    ja4Ciphers,
    ja4Extensions,
  };
}

/** First and last character of the first ALPN value; hex digits when either is not alphanumeric. */
function alpnChars(first: string | undefined): string {
  if (!first) return '00';
  const f = first[0];
  const l = first[first.length - 1];
  if (/[0-9A-Za-z]/.test(f) && /[0-9A-Za-z]/.test(l)) return f + l;
  const hex = Buffer.from(first, 'latin1').toString('hex');
  return hex[0] + hex[hex.length - 1];
}
