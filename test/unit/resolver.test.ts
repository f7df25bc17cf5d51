/**
 * farm/net/resolver.ts: the farm's resolver off libuv's thread pool. The hosts-file parser, IP
 * literals, and c-ares against a real (tiny) DNS server on 127.0.0.1 over UDP: A and AAAA
 * merged IPv4 first, a name with no AAAA, NXDOMAIN.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createResolver, parseHosts, resolveAll } from '../../farm/net/resolver.js';

const RECORDS: Record<string, { a?: number[][]; aaaa?: string[] }> = {
  'both.example.test': { a: [[10, 1, 2, 3]], aaaa: ['20010db8000000000000000000000001'] },
  'v4only.example.test': { a: [[10, 9, 9, 9], [10, 9, 9, 8]] },
};

/** A DNS server answering RECORDS (A = 1, AAAA = 28); other names are NXDOMAIN. */
function answer(query: Buffer): Buffer {
  const labels: string[] = [];
  let at = 12;
  while (query[at] !== 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('latin1'));
    at += query[at] + 1;
  }
  const questionEnd = at + 5;
  const type = query.readUInt16BE(at + 1);
  const record = RECORDS[labels.join('.').toLowerCase()];
  const rdata = !record ? [] : type === 1 ? (record.a ?? []).map((a) => Buffer.from(a)) : type === 28 ? (record.aaaa ?? []).map((h) => Buffer.from(h, 'hex')) : [];
  const head = Buffer.alloc(12);
  query.copy(head, 0, 0, 2); // id
  head.writeUInt16BE(record ? 0x8180 : 0x8183, 2); // response, recursion; NXDOMAIN when unknown
  head.writeUInt16BE(1, 4);
  head.writeUInt16BE(rdata.length, 6);
  const answers = rdata.map((data) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the question's name
    rr.writeUInt16BE(type, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([head, query.subarray(12, questionEnd), ...answers]);
}

let server: Socket;
let port: number;
beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (msg, from) => server.send(answer(msg), from.port, from.address));
  await new Promise<void>((ok) => server.bind(0, '127.0.0.1', ok));
  port = server.address().port;
});
afterAll(() => server?.close());

function resolve(name: string): Promise<{ err: string | undefined; addresses: LookupAddress[] }> {
  const resolver = createResolver([`127.0.0.1:${port}`]);
  return new Promise((done) => resolveAll(name, (err, addresses) => done({ err: err?.code, addresses }), resolver));
}

test('the hosts file: comments, several names a line, IPv4 first, zone ids dropped', () => {
  const table = parseHosts('# comment\n127.0.0.1 localhost app.local\n::1 localhost ip6-localhost\nfe80::1%eth0 link\nnot-an-ip name\n10.0.0.7\tDB.Internal # db\n');
  expect(table.get('localhost')).toEqual([{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]);
  expect(table.get('app.local')).toEqual([{ address: '127.0.0.1', family: 4 }]);
  expect(table.get('db.internal')).toEqual([{ address: '10.0.0.7', family: 4 }]);
  expect(table.get('link')).toEqual([{ address: 'fe80::1', family: 6 }]);
  expect(table.has('name')).toBe(false);
});

test('IP literals and localhost need no DNS', async () => {
  expect(await resolve('192.0.2.1')).toEqual({ err: undefined, addresses: [{ address: '192.0.2.1', family: 4 }] });
  expect(await resolve('2001:db8::5')).toEqual({ err: undefined, addresses: [{ address: '2001:db8::5', family: 6 }] });
  expect((await resolve('localhost')).addresses[0]).toEqual({ address: '127.0.0.1', family: 4 });
  expect((await resolve('api.localhost')).addresses[0]).toEqual({ address: '127.0.0.1', family: 4 });
});

test('c-ares: A and AAAA merged IPv4 first; a name without AAAA; NXDOMAIN is ENOTFOUND', async () => {
  expect(await resolve('both.example.test')).toEqual({ err: undefined, addresses: [{ address: '10.1.2.3', family: 4 }, { address: '2001:db8::1', family: 6 }] });
  expect(await resolve('V4ONLY.example.test.')).toEqual({ err: undefined, addresses: [{ address: '10.9.9.9', family: 4 }, { address: '10.9.9.8', family: 4 }] });
  expect(await resolve('missing.example.test')).toEqual({ err: 'ENOTFOUND', addresses: [] });
});
