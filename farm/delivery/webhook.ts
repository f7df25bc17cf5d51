/**
 * Signed webhook POSTs (issue 4, spec 6). One POST per finished job; the outbox retries a
 * failed attempt with backoff (backoff.ts) until the receiver answers 2xx or the policy gives up.
 *
 * Every POST carries:
 *   Content-Type:      application/json
 *   Gleaner-Event:     job.done | job.faulted
 *   Gleaner-Delivery:  the delivery id (the same on every retry of one delivery: receivers
 *                      de-duplicate on it, since a retry may follow a 2xx that was lost)
 *   Gleaner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * Verifying (receiver side):
 *   1. Split the header on ',' into key=value pairs; take `t` and every `v1`.
 *   2. Compute hex HMAC-SHA256 with the account's webhook secret over the bytes of
 *      `<t>` + '.' + <the raw request body exactly as received> (not re-serialised JSON).
 *   3. Accept if it equals any `v1` (constant-time compare) and |now - t| <= 300 s. The
 *      timestamp is signed, so an old delivery replayed later is refused by step 3.
 * farm/delivery/README.md has a ten-line Node version; `verifySignature` below is the same.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { classifyAnswer, send } from './http.js';
import type { AttemptOptions, AttemptResult } from './types.js';

export const SIGNATURE_HEADER = 'Gleaner-Signature';
export const EVENT_HEADER = 'Gleaner-Event';
export const DELIVERY_HEADER = 'Gleaner-Delivery';
export const WEBHOOK_USER_AGENT = 'Gleaner-Webhook/1';
/** How far a signature's timestamp may be from the receiver's clock (seconds). */
export const SIGNATURE_TOLERANCE_SEC = 300;

/** `crawl.page` (batches of page references) and `crawl.done` are a crawl's events (farm/crawl/deliveries.ts). */
export type WebhookEvent = 'job.done' | 'job.faulted' | 'crawl.page' | 'crawl.done';

/**
 * The `Gleaner-Signature` header value for `body` signed at `timestamp` (Unix seconds):
 * `t=<timestamp>,v1=<hex hmac-sha256 of "<timestamp>.<body>">`.
 */
export function signBody(body: string | Buffer, secret: string, timestamp: number): string {
  if (!Number.isInteger(timestamp) || timestamp < 0 || timestamp > 1e11) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${timestamp}`);
  }
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Receiver-side check of a `Gleaner-Signature` header (what the README snippet does). */
export function verifySignature(
  header: string,
  body: string | Buffer,
  secret: string,
  { toleranceSec = SIGNATURE_TOLERANCE_SEC, now = Math.floor(Date.now() / 1000) } = {},
): boolean {
  const pairs = header.split(',').map((part) => part.trim().split('='));
  const t = Number(pairs.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceSec) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex'));
  return pairs.some(([k, v]) => k === 'v1' && v !== undefined && v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

/** A new per-account webhook secret (32 random bytes, base64url, `whsec_` prefix). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export interface WebhookOptions extends AttemptOptions {
  event: WebhookEvent;
  /** Stable across the retries of one delivery (the outbox entry id). */
  deliveryId: string;
  /** Signing time, Unix seconds; default now. Each attempt is signed afresh. */
  timestamp?: number;
}

/**
 * POSTs `body` to `url`, signed with `secret`. 2xx is delivered. Redirects are not followed
 * (a redirect is a final failure: following one would let a receiver aim our signed POST
 * elsewhere). 4xx other than 408/429 are final; network errors, timeouts, 5xx, 408 and 429 are
 * retryable, with the receiver's `Retry-After` in `retryAfterMs`.
 */
export async function postWebhook(url: string, body: string | Buffer, secret: string, options: WebhookOptions): Promise<AttemptResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, retry: false, error: 'callback_url is not a valid URL' };
  }
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [EVENT_HEADER]: options.event,
    [DELIVERY_HEADER]: options.deliveryId,
    [SIGNATURE_HEADER]: signBody(body, secret, timestamp),
  };
  if (target.username || target.password) {
    // Userinfo in a callback URL is the receiver's Basic credentials; send them as a header.
    const user = decodeURIComponent(target.username);
    const pass = decodeURIComponent(target.password);
    headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    target.username = '';
    target.password = '';
  }
  const res = await send({ method: 'POST', url: target, headers, body }, options);
  if (!res.ok) return res;
  return classifyAnswer(res.status, res.headers, 'webhook receiver');
}
