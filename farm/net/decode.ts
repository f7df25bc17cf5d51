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
  return { text: decoderFor(charset).decode(body), isHtml, binary: false };
}

/** Decoders by charset label (stateless when used without `stream`, so one per label serves). */
const DECODERS = new Map<string, TextDecoder>();

function decoderFor(label: string): TextDecoder {
  const key = label.toLowerCase();
  let decoder = DECODERS.get(key);
  if (!decoder) {
    try {
      decoder = new TextDecoder(key);
    } catch {
      decoder = decoderFor('utf-8');
    }
    // Labels come from pages: bound the map so odd labels cannot grow it without end.
    if (DECODERS.size < 64) DECODERS.set(key, decoder);
  }
  return decoder;
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
