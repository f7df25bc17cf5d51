/** Quota arithmetic (core/quota.ts): which limit refuses, which one the headers show, resets. */
import { describe, expect, test } from 'vitest';
import { evaluateQuota, minuteReset, rateLimitHeaders } from '../../core/quota.js';
import { emptyQuota, periodResets } from '../../core/store/quotas.js';

const NOW = Date.parse('2026-11-23T19:42:10.500Z');
const usage = { pages_day: 5, pages_month: 50, rendered_day: 1, rendered_month: 9 };

describe('evaluateQuota', () => {
  test('resets: next UTC midnight, first of next month, next whole minute', () => {
    expect(periodResets(NOW)).toEqual({ day: Date.parse('2026-11-24T00:00:00Z'), month: Date.parse('2026-12-01T00:00:00Z') });
    expect(periodResets(Date.parse('2026-12-31T23:59:59Z')).month).toBe(Date.parse('2027-01-01T00:00:00Z'));
    expect(minuteReset(NOW)).toBe(Date.parse('2026-11-23T19:43:00Z'));
  });

  test('fits: the tightest limit (least left after this request) is reported', () => {
    const v = evaluateQuota({ ...emptyQuota(), pages_per_day: 10, pages_per_month: 52 }, usage, 0, { pages: 1, rendered: false }, NOW);
    expect(v.ok).toBe(true);
    expect(v.tightest).toEqual({ limit: 'pages_per_month', max: 52, used: 50, remaining: 1, reset: Date.parse('2026-12-01T00:00:00Z') });
    expect(rateLimitHeaders(v.tightest!)).toEqual({ 'x-ratelimit-limit': '52', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(Date.parse('2026-12-01T00:00:00Z') / 1000), 'x-ratelimit-resource': 'pages_per_month' });
  });

  test('a batch that would pass the limit is refused whole', () => {
    const v = evaluateQuota({ ...emptyQuota(), pages_per_day: 10 }, usage, 0, { pages: 6, rendered: false }, NOW);
    expect(v.ok).toBe(false);
    expect(v.exceeded).toEqual({ limit: 'pages_per_day', max: 10, used: 5, remaining: 5, reset: Date.parse('2026-11-24T00:00:00Z') });
    expect(evaluateQuota({ ...emptyQuota(), pages_per_day: 10 }, usage, 0, { pages: 5, rendered: false }, NOW).ok).toBe(true);
  });

  test('rendered limits bind rendering requests only', () => {
    const quota = { ...emptyQuota(), rendered_per_day: 1 };
    expect(evaluateQuota(quota, usage, 0, { pages: 1, rendered: false }, NOW)).toEqual({ ok: true, exceeded: undefined, tightest: undefined });
    expect(evaluateQuota(quota, usage, 0, { pages: 1, rendered: true }, NOW).exceeded?.limit).toBe('rendered_per_day');
  });

  test('request rate: one request each, reset at the next minute', () => {
    const quota = { ...emptyQuota(), requests_per_minute: 3 };
    expect(evaluateQuota(quota, usage, 2, { pages: 10, rendered: false }, NOW).tightest).toMatchObject({ limit: 'requests_per_minute', remaining: 0 });
    expect(evaluateQuota(quota, usage, 3, { pages: 1, rendered: false }, NOW).exceeded).toMatchObject({ limit: 'requests_per_minute', reset: Date.parse('2026-11-23T19:43:00Z') });
  });
});
