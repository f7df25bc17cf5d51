/**
 * Compare-and-set on a three-server NATS cluster (R3 buckets), where nats-server 2.9 lets two
 * `kv.update`s based on the same revision both land (cas.ts). Writers on three connections, one
 * per server, race on one revision (or to create one key) many times over: exactly one write
 * per revision is stored.
 * Also: buckets are read through their leader (no direct gets from a lagging replica).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type Bucket, type KV } from '@nats-io/kv';
import { casCreate, casPut } from '../../core/store/nats/cas.js';
import { ensureHandles, isCasConflict, type Handles } from '../../core/store/nats/connection.js';
import { startNats, type NatsServers } from '../helpers/nats.js';

let nats: NatsServers;
let conns: NatsConnection[] = [];
let buckets: KV[] = [];

beforeAll(async () => {
  nats = await startNats(3);
  conns = await Promise.all(nats.urls.map((u) => connect({ servers: u, timeout: 10_000 })));
  // The bucket is made once (R3) and opened on each server's connection; JetStream answers
  // once the three servers have elected their meta leader.
  for (let i = 0; ; i++) {
    try {
      await new Kvm(jetstream(conns[0]!, { timeout: 5_000 })).create('cas_test', { replicas: 3, history: 1, allow_direct: false });
      break;
    } catch (err) {
      if (i > 20) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  buckets = await Promise.all(conns.map((nc) => new Kvm(jetstream(nc, { timeout: 10_000 })).open('cas_test')));
}, 60_000);

afterAll(async () => {
  await Promise.all(conns.map((nc) => nc.close()));
  await nats?.stop();
});

const bytes = (s: string) => new TextEncoder().encode(s);

test('of writers racing on one revision from three servers, exactly one is stored each time; the rest are conflicts', async () => {
  const rounds = 40;
  const perRound = 6;
  let stored = 0;
  let revision = await buckets[0]!.put('k', bytes('start'));
  for (let round = 0; round < rounds; round++) {
    const base = revision;
    const outcomes = await Promise.allSettled(Array.from({ length: perRound }, (_, i) => casPut(buckets[i % 3]!, 'k', bytes(`${round}.${i}`), base)));
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
    expect([won.length, lost.every((e) => isCasConflict(e))]).toEqual([1, true]);
    stored += won.length;
    revision = won[0]!;
    // What is stored is the winner's write, at the revision its writer was told.
    const entry = await buckets[1]!.get('k');
    expect(entry?.revision).toBe(revision);
  }
  expect(stored).toBe(rounds);
}, 120_000);

test('a write based on an old revision is a conflict; one based on the latest lands', async () => {
  const first = await buckets[0]!.put('seq', bytes('a'));
  const second = await casPut(buckets[1]!, 'seq', bytes('b'), first);
  await expect(casPut(buckets[2]!, 'seq', bytes('c'), first)).rejects.toSatisfy(isCasConflict);
  const third = await casPut(buckets[2]!, 'seq', bytes('c'), second);
  expect([third > second, new TextDecoder().decode((await buckets[0]!.get('seq'))!.value)]).toEqual([true, 'c']);
});

test('of writers racing to create a key, new or deleted, exactly one is stored; a key with a value is a conflict', async () => {
  const race = async (key: string) => {
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => casCreate(buckets[i % 3]!, key, bytes(String(i)))));
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
    return [outcomes.length - lost.length, lost.every((e) => isCasConflict(e))];
  };
  for (let round = 0; round < 20; round++) {
    const key = `slot${round}`;
    expect(await race(key)).toEqual([1, true]);
    // A deleted key (a released slot) is taken again by exactly one.
    await buckets[0]!.delete(key);
    expect(await race(key)).toEqual([1, true]);
  }
  await expect(casCreate(buckets[2]!, 'slot0', bytes('again'))).rejects.toSatisfy(isCasConflict);
}, 120_000);

test('the store opens every bucket with reads through the stream leader, also one made earlier with direct gets', async () => {
  // An earlier version created buckets with allow_direct: true.
  await new Kvm(jetstream(conns[0]!, { timeout: 10_000 })).create('legacy_jobs', { replicas: 3, history: 1, allow_direct: true });
  const h: Handles = await ensureHandles(conns[0]!, { servers: nats.urls, namespace: 'legacy', replicas: 3 });
  const kvs = [h.accounts, h.totals, h.usage, h.jobs, h.results, h.expiry, h.deadletters, h.nodes, h.reserved, h.ids, h.crawls] as Bucket[];
  expect(kvs.map((b) => [b.bucket, b.direct])).toEqual(kvs.map((b) => [b.bucket, false]));
  // Message ids of compare-and-set kept for seconds, not two minutes.
  const windows = await Promise.all(kvs.map(async (b) => (await h.jsm.streams.info(`KV_${b.bucket}`)).config.duplicate_window / 1e6));
  expect(windows).toEqual(kvs.map(() => 10_000));
  expect((await h.jsm.streams.info('KV_legacy_jobs')).config.allow_direct).toBe(true);
  expect(((await new Kvm(h.js).create('legacy_jobs', { replicas: 3, allow_direct: false })) as Bucket).direct).toBe(false);
}, 120_000);
