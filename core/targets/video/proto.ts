/**
 * A protobuf writer just large enough for the platform's request parameters: the search filter
 * (`sp`), the transcript panel's `params`, the channel tab `params`. Fields are written in the
 * order given, varints and length-delimited bytes only (the wire types those messages use), so
 * the bytes equal what the platform's own client sends when fields are given in field order.
 * A general protobuf library would need the message schemas compiled in for three tiny messages.
 */

export type Field = readonly [field: number, value: number | boolean | string | Uint8Array];

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** The message's bytes. Booleans are varints 0/1; strings are UTF-8. */
export function message(fields: readonly Field[]): Uint8Array {
  const bytes: number[] = [];
  for (const [field, value] of fields) {
    if (typeof value === 'number' || typeof value === 'boolean') {
      bytes.push(...varint(field * 8), ...varint(Number(value)));
    } else {
      const data = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      bytes.push(...varint(field * 8 + 2), ...varint(data.length), ...data);
    }
  }
  return Uint8Array.from(bytes);
}

/** Standard base64 (with padding), as the platform writes these parameters before URL-encoding. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
