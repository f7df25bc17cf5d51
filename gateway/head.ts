/**
 * The request head's limits and framing rules, checked on every request of every listener
 * before routing (README "Limits").
 *
 * Framing (RFC 9112 6.3): a request with more than one Content-Length field, a Content-Length
 * that is not a plain decimal number, or a Transfer-Encoding other than one `chunked` is
 * refused with 400 MALFORMED_REQUEST and its connection closed: a proxy in front may frame
 * such a message differently, and the difference is a smuggled request. (uWS itself closes a
 * connection that sends both Content-Length and Transfer-Encoding, without an answer.)
 *
 * Size: uWS hands us a head of any size that arrives in one read, but keeps at most 4 KiB of a
 * head that arrives in several, and stalls on a head of 48 fields or more (the connection is
 * closed by its idle timer, unanswered). Our limits sit below both, so every head that uWS
 * parses and that breaks them gets an answer: 414 for the target, 431 for the fields.
 */
import type { HttpRequest } from 'uWebSockets.js';

/** Longest request target (path, `?`, query) in bytes; longer is 414. */
export const MAX_TARGET_BYTES = 2048;
/** Most header fields; more is 431. */
export const MAX_HEADER_FIELDS = 40;
/** Longest head (request line and fields, as sent) in bytes; longer is 431. */
export const MAX_HEAD_BYTES = 4096;

export interface HeadDefect {
  code: 'MALFORMED_REQUEST' | 'URI_TOO_LONG' | 'HEADERS_TOO_LARGE';
  detail: string;
}

const DECIMAL = /^[0-9]{1,15}$/;

/**
 * The first defect of a request's head, or undefined. Walks the fields once; must run in the
 * uWS handler, synchronously (the request object is valid only there).
 */
export function inspectHead(req: HttpRequest, method: string, path: string, query: string): HeadDefect | undefined {
  // `GET /path?query HTTP/1.1\r\n`
  const target = path.length + (query ? query.length + 1 : 0);
  let fields = 0;
  let bytes = method.length + target + 12;
  let lengths = 0;
  let badLength = false;
  let encodings = 0;
  let badEncoding = false;
  req.forEach((name, value) => {
    fields++;
    bytes += name.length + value.length + 4;
    if (name === 'content-length') {
      lengths++;
      if (!DECIMAL.test(value)) badLength = true;
    } else if (name === 'transfer-encoding') {
      encodings++;
      if (value.trim().toLowerCase() !== 'chunked') badEncoding = true;
    }
  });
  if (lengths > 1) return malformed(`The request has ${lengths} Content-Length fields.`);
  if (badLength) return malformed('The Content-Length field is not a decimal number.');
  if (encodings > 0 && lengths > 0) return malformed('The request has both Content-Length and Transfer-Encoding.');
  if (encodings > 1 || badEncoding) return malformed('Transfer-Encoding must be exactly one "chunked".');
  // Lengths are in UTF-16 units: close to bytes for a head, which is ASCII when well-formed.
  if (target > MAX_TARGET_BYTES) {
    return { code: 'URI_TOO_LONG', detail: `The request target is ${target} bytes; the limit is ${MAX_TARGET_BYTES}.` };
  }
  if (fields > MAX_HEADER_FIELDS) {
    return { code: 'HEADERS_TOO_LARGE', detail: `The request has ${fields} header fields; the limit is ${MAX_HEADER_FIELDS}.` };
  }
  if (bytes > MAX_HEAD_BYTES) {
    return { code: 'HEADERS_TOO_LARGE', detail: `The request head is about ${bytes} bytes; the limit is ${MAX_HEAD_BYTES}.` };
  }
  return undefined;
}

function malformed(detail: string): HeadDefect {
  return { code: 'MALFORMED_REQUEST', detail: `${detail} The connection is closed (RFC 9112 6.3).` };
}
