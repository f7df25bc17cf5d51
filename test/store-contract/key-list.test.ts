/**
 * Listing a KV bucket's keys while they are being written (core/store/nats/key-list.ts), on a
 * real nats-server: `kv.keys()` delivers a key written during the listing a second time, which
 * made the cluster's crawl pump start a frontier page twice. `listKeys` names each key once, in
 * order, and misses none of those that existed throughout.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { listKeys } from '../../core/store/nats/key-list.js';
import { startNats, type NatsServers } from '../helpers/nats.js';

let nats: NatsServers;
let nc: NatsConnection;
let kv: KV;

beforeAll(async () => {
  nats = await startNats(1);
  nc = await connect({ servers: nats.urls[0]!, timeout: 10_000 });
  kv = await new Kvm(jetstream(nc, { timeout: 10_000 })).create('keys_test', { history: 1 });
}, 30_000);

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const pad = (n: number) => String(n).padStart(4, '0');

test('keys written again while they are listed: each is named once, sorted, none missing', async () => {
  const all = Array.from({ length: 300 }, (_, i) => `f.c1.${pad(i)}`);
  await Promise.all(all.map((k) => kv.put(k, new TextEncoder().encode('0'))));
  await kv.put('other.x', new TextEncoder().encode('0'));

  // A writer re-puts the listed keys without pause (a step's writes applied by two callers).
  let writing = true;
  const writer = (async () => {
    for (let round = 1; writing; round++) await Promise.all(all.slice(0, 40).map((k) => kv.put(k, new TextEncoder().encode(String(round)))));
  })();
  const listings: string[][] = [];
  let raw = 0;
  try {
    for (let i = 0; i < 15; i++) {
      listings.push(await listKeys(kv, 'f.c1.>'));
      // The library's own listing: how often it names a key twice.
      const seen: string[] = [];
      for await (const k of await kv.keys('f.c1.>')) seen.push(k);
      if (new Set(seen).size !== seen.length) raw++;
    }
  } finally {
    writing = false;
    await writer;
  }
  for (const keys of listings) expect(keys).toEqual(all);
  // Why listKeys exists: if an upgrade of @nats-io/kv stops repeating keys, this says so.
  expect(raw, 'kv.keys() listings that named a key twice during writes').toBeGreaterThan(0);
}, 60_000);
