/**
 * `GLEANER_CA_FILE`: a PEM file of extra trusted roots (a TLS-inspecting corporate proxy, a
 * test server), trusted on top of the public roots by every client that verifies certificates:
 *
 * - the plain path (wreq-js, BoringSSL): it reads extra roots only from OpenSSL's default-path
 *   variable `SSL_CERT_FILE` (trust store "combined" = that file + its bundled Mozilla roots),
 *   so the farm's main thread sets that variable to the file before any worker starts. A
 *   process-wide variable: children the service starts inherit it (they see the same roots).
 * - webhooks and bucket uploads (undici): `trustedRoots()` is Node's bundled roots plus the
 *   file's, given as the connector's `ca`.
 *
 * - the browser: browser/trust.ts (an NSS database in the browser's HOME).
 *
 * Certificate errors stay errors: nothing here disables verification.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { isMainThread } from 'node:worker_threads';
import { GleanerError } from '../../core/errors.js';

let roots: string[] | undefined;
let file: string | undefined;

/** Reads and checks the file (once per thread); undefined: public roots only. */
export function useCaFile(path: string | undefined): void {
  if (path === file) return;
  file = path;
  if (!path) {
    roots = undefined;
    return;
  }
  const pems = readPems(path);
  roots = [...rootCertificates, ...pems];
  // Only the main thread's process.env reaches the C environment the native client reads.
  if (isMainThread) process.env.SSL_CERT_FILE = path;
}

/** Node's roots plus the extra ones, or undefined when no extra file is configured. */
export function trustedRoots(): string[] | undefined {
  return roots;
}

/** The certificates of a CA file, each checked (what the browser's trust database is made of). */
export function caPems(path: string): string[] {
  return readPems(path);
}

function readPems(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new GleanerError('INTERNAL_ERROR', `GLEANER_CA_FILE ${path} cannot be read.`);
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) throw new GleanerError('INTERNAL_ERROR', `GLEANER_CA_FILE ${path} holds no PEM certificate.`);
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new GleanerError('INTERNAL_ERROR', `GLEANER_CA_FILE ${path} holds a certificate that does not parse.`);
    }
  }
  return pems;
}
