/** Turns response bytes into the `html` output: text decoded by its charset, binary as base64. */

const TEXTUAL = /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded)|image\/svg\+xml)/i;

export interface Decoded {
  text: string;
  /** Whether the body is markup the Markdown converter and parsers should see. */
  isHtml: boolean;
  binary: boolean;
}

export function decodeBody(body: Buffer, contentType: string): Decoded {
  const type = contentType.split(';')[0].trim().toLowerCase();
  const sniffedHtml = type === '' && /^\s*(?:<!doctype html|<html|<head|<body)/i.test(body.subarray(0, 512).toString('latin1'));
  const isHtml = type === 'text/html' || type === 'application/xhtml+xml' || sniffedHtml;
  if (!isHtml && type !== '' && !TEXTUAL.test(type)) {
    return { text: body.toString('base64'), isHtml: false, binary: true };
  }
  const charset = charsetOf(contentType) ?? (isHtml ? metaCharset(body) : undefined) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return { text: decoder.decode(body), isHtml, binary: false };
}

function charsetOf(contentType: string): string | undefined {
  const m = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  return m?.[1];
}

/** `<meta charset>` or `http-equiv` within the first 2 KiB, as browsers look for it. */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return m?.[1];
}
