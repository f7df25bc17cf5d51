/**
 * The plumbing of the browser's SSRF guard (guard-proxy.ts) that does not depend on its policy:
 * the header fields that are not relayed to the next hop, the target of an absolute-form
 * request, and the relay of bytes between two sockets once a tunnel or an upgrade is made.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Hop-by-hop fields (RFC 9110 7.6.1): dropped from requests and responses the guard relays. */
export const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'proxy-authorization',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The URL of an absolute-form `http:` request (`GET http://host/path`), else undefined. */
export function httpTarget(req: IncomingMessage): URL | undefined {
  try {
    const target = new URL(req.url ?? '');
    return target.protocol === 'http:' ? target : undefined;
  } catch {
    return undefined;
  }
}

/** Relays both ways (`head` first: what the client sent past the request); either end's error or close ends both. */
export function splice(client: Duplex, up: Socket, head: Buffer): void {
  if (head.length > 0) up.write(head);
  client.pipe(up);
  up.pipe(client);
  up.on('error', () => client.destroy());
  client.on('error', () => up.destroy());
  up.on('close', () => client.destroy());
  client.on('close', () => up.destroy());
}
