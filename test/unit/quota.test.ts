/** Quota arithmetic (core/quota.ts): which limit refuses, which one the headers show, resets. */
import { describe, expect, test } from 'vitest';
import { evaluateQuota, minuteReset, needOf, rateLimitHeaders } from '../../core/quota.js';
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
    expect(v.tightest).toEqual({ limit: 'pages_per_month', max: 52, used: 50, reserved: 0, remaining: 1, reset: Date.parse('2026-12-01T00:00:00Z') });
    expect(rateLimitHeaders(v.tightest!)).toEqual({ 'x-ratelimit-limit': '52', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(Date.parse('2026-12-01T00:00:00Z') / 1000), 'x-ratelimit-resource': 'pages_per_month' });
  });

  test('a batch that would pass the limit is refused whole', () => {
    const v = evaluateQuota({ ...emptyQuota(), pages_per_day: 10 }, usage, 0, { pages: 6, rendered: false }, NOW);
    expect(v.ok).toBe(false);
    expect(v.exceeded).toEqual({ limit: 'pages_per_day', max: 10, used: 5, reserved: 0, remaining: 5, reset: Date.parse('2026-11-24T00:00:00Z') });
    expect(evaluateQuota({ ...emptyQuota(), pages_per_day: 10 }, usage, 0, { pages: 5, rendered: false }, NOW).ok).toBe(true);
  });

  test('pages held by unfinished work count against every page limit; rendered ones against rendered limits too', () => {
    const quota = { ...emptyQuota(), pages_per_day: 10, rendered_per_month: 12 };
    const held = { pages: 4, rendered: 2 };
    const v = evaluateQuota(quota, usage, 0, { pages: 2, rendered: false }, NOW, held);
    expect(v.exceeded).toEqual({ limit: 'pages_per_day', max: 10, used: 5, reserved: 4, remaining: 1, reset: Date.parse('2026-11-24T00:00:00Z') });
    expect(evaluateQuota(quota, usage, 0, { pages: 1, rendered: false }, NOW, held).tightest).toMatchObject({ limit: 'pages_per_day', remaining: 0 });
    // Rendered: 9 charged + 2 held + 1 needed fits 12; 2 needed does not (the day limit has room for neither).
    expect(evaluateQuota({ ...quota, pages_per_day: null }, usage, 0, { pages: 1, rendered: true }, NOW, held).ok).toBe(true);
    expect(evaluateQuota({ ...quota, pages_per_day: null }, usage, 0, { pages: 2, rendered: true }, NOW, held).exceeded).toMatchObject({ limit: 'rendered_per_month', used: 9, reserved: 2 });
    // The request rate does not count pages.
    expect(evaluateQuota({ ...emptyQuota(), requests_per_minute: 1 }, usage, 0, { pages: 1, rendered: false }, NOW, { pages: 1000, rendered: 0 }).ok).toBe(true);
  });

  test('needOf: batch values times pages, rendering with run_js', () => {
    expect(needOf({ url: 'x' })).toEqual({ pages: 1, rendered: false });
    expect(needOf({ query: 'x', pages: 3, run_js: true }, 4)).toEqual({ pages: 12, rendered: true });
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
