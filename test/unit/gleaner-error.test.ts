/**
 * GleanerError (issue 24 item 11): it keeps the error it stands for as `cause` (for logs only:
 * the wire form and so the problem document never carry it), and constructing one leaves the
 * process-wide `Error.stackTraceLimit` alone.
 */
import { expect, test } from 'vitest';
import { GleanerError } from '../../core/errors.js';
import { asFetchError } from '../../farm/net/follow.js';

test('the cause is kept on the error and left out of its wire form', () => {
  const socket = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
  const err = new GleanerError('UPSTREAM_FAILED', 'Fetching example.com failed (ECONNREFUSED).', undefined, { cause: socket });
  expect(err.cause).toBe(socket);
  expect(err.toWire()).toEqual({ code: 'UPSTREAM_FAILED', message: 'Fetching example.com failed (ECONNREFUSED).' });
  expect(JSON.stringify(GleanerError.fromWire(err.toWire()))).not.toContain('10.0.0.1');
});

test('a fetch failure names the client error as its cause', () => {
  const socket = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  const err = asFetchError(socket, new AbortController().signal, new URL('https://example.com/a')) as GleanerError;
  expect([err.code, err.cause]).toEqual(['UPSTREAM_FAILED', socket]);
});

test('Error.stackTraceLimit is not touched: every code keeps its stack, and the limit stays', () => {
  const before = Error.stackTraceLimit;
  // The old constructor set the global limit to 0 around super() for expected codes.
  expect(new GleanerError('NOT_FOUND').stack).toMatch(/gleaner-error\.test/);
  expect(new GleanerError('INTERNAL_ERROR').stack).toMatch(/gleaner-error\.test/);
  expect(Error.stackTraceLimit).toBe(before);
});
