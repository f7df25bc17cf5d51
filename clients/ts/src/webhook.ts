/**
 * Webhook signature verification. Gleaner signs each webhook call with the account's webhook
 * secret (`gleaner accounts list` shows it):
 *
 *   Gleaner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * Verify the raw body bytes exactly as received (before any JSON parsing), and refuse
 * signatures older than the tolerance (replays). Several `v1` values may be present while a
 * secret rotates; any one matching is enough.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'gleaner-signature';
export const DEFAULT_TOLERANCE_SEC = 300;

// The body of a Web API webhook call is generated from the service's schema (the Job API sends
// its job object instead).
import type { WebhookPayload } from './generated.js';

export interface VerifyOptions {
  toleranceSec?: number;
  /** Unix seconds; defaults to now. */
  now?: number;
}

/** True when `header` is a valid, fresh signature of `rawBody` under `secret`. */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, header: string | null | undefined, opts: VerifyOptions = {}): boolean {
  if (!header) return false;
  const pairs = header.split(',').map((part) => {
    const i = part.indexOf('=');
    return i < 0 ? [part.trim(), ''] : [part.slice(0, i).trim(), part.slice(i + 1).trim()];
  });
  const t = Number(pairs.find(([k]) => k === 't')?.[1]);
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(t) || Math.abs(now - t) > (opts.toleranceSec ?? DEFAULT_TOLERANCE_SEC)) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex'));
  return pairs.some(([k, v]) => k === 'v1' && v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

/** Verifies, then parses: the payload, or an Error when the signature is missing, wrong or stale. */
export function parseWebhook(secret: string, rawBody: string | Uint8Array, header: string | null | undefined, opts: VerifyOptions = {}): WebhookPayload {
  if (!verifyWebhook(secret, rawBody, header, opts)) throw new Error('invalid or stale Gleaner-Signature');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as WebhookPayload;
}
