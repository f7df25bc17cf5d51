/**
 * Which NATS errors the cluster store retries (core/store/nats/publish.ts `isTransient`): the
 * answers of a cluster electing a leader are retried, a compare-and-set conflict never is.
 * The errors are the client library's own classes, as its requests raise them.
 */
import { expect, test } from 'vitest';
import { JetStreamApiError } from '@nats-io/jetstream';
import { isTransient } from '../../core/store/nats/publish.js';

test('a leader election\'s answers are transient; a compare-and-set conflict and a missing stream are not', () => {
  const api = (code: number, err_code: number, description: string) => new JetStreamApiError({ code, err_code, description });
  expect([
    isTransient(api(503, 10008, 'JetStream system temporarily unavailable')),
    isTransient(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
    isTransient(new Error('jetstream is not enabled', { cause: Object.assign(new Error('no responders'), { name: 'NoRespondersError' }) })),
    isTransient(api(400, 10071, 'wrong last sequence: 12')),
    isTransient(api(404, 10059, 'stream not found')),
  ]).toEqual([true, true, true, false, false]);
});
