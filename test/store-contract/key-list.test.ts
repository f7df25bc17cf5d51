/**
 * Listing a KV bucket's keys while they are being written (core/store/nats/key-list.ts), on a
 * real nats-server: `kv.keys()` names a key written during the listing twice or not at all, which
 * made the cluster's crawl pump start a frontier page twice. `listKeys` (the stream's subjects
 * under a filter, from the server) names each key once, in order, none missing; a key removed
 * with `removeKey` is not named, one deleted with `kv.delete` is (its marker is a message).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { listKeys, removeKey } from '../../core/store/nats/key-list.js';
import { startNats, type NatsServers } from '../helpers/nats.js';

let nats: NatsServers;
let nc: NatsConnection;
let jsm: JetStreamManager;
let kv: KV;
const BUCKET = 'keys_test';

beforeAll(async () => {
  nats = await startNats(1);
  nc = await connect({ servers: nats.urls[0]!, timeout: 10_000 });
  jsm = await jetstreamManager(nc);
  kv = await new Kvm(jetstream(nc, { timeout: 10_000 })).create(BUCKET, { history: 1 });
}, 30_000);

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const pad = (n: number) => String(n).padStart(4, '0');
const bytes = (s: string) => new TextEncoder().encode(s);

test('keys written again while they are listed: each is named once, sorted, none missing (kv.keys() gets them wrong)', async () => {
  const all = Array.from({ length: 300 }, (_, i) => `f.c1.${pad(i)}`);
  await Promise.all(all.map((k) => kv.put(k, bytes('0'))));
  await kv.put('other.x', bytes('0'));

  // A writer re-puts a tenth of the keys without pause (a step's writes applied by two callers).
  let writing = true;
  const writer = (async () => {
    for (let round = 1; writing; round++) await Promise.all(all.slice(0, 40).map((k) => kv.put(k, bytes(String(round)))));
  })();
  const listings: string[][] = [];
  let wrong = 0;
  try {
    for (let i = 0; i < 15; i++) {
      listings.push(await listKeys(jsm, BUCKET, 'f.c1.>'));
      const raw: string[] = [];
      for await (const k of await kv.keys('f.c1.>')) raw.push(k);
      if (raw.length !== all.length || new Set(raw).size !== all.length) wrong++;
    }
  } finally {
    writing = false;
    await writer;
  }
  for (const keys of listings) expect(keys).toEqual(all);
  // Why listKeys exists: if an upgrade of @nats-io/kv lists keys right under writes, this says so.
  expect(wrong, 'kv.keys() listings that named a key twice or missed one during writes').toBeGreaterThan(0);
}, 60_000);

test('a removed key is not listed; a deleted one is (callers skip what is not a value)', async () => {
  await Promise.all(['g.1', 'g.2', 'g.3'].map((k) => kv.put(k, bytes('v'))));
  await kv.delete('g.2');
  await removeKey(jsm, BUCKET, 'g.3');
  expect(await listKeys(jsm, BUCKET, 'g.>')).toEqual(['g.1', 'g.2']);
  expect([(await kv.get('g.2'))?.operation, await kv.get('g.3')]).toEqual(['DEL', null]);
  expect(await listKeys(jsm, BUCKET, 'none.>')).toEqual([]);
});
