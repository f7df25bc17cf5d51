/**
 * A throwaway certificate authority made in the test run (openssl, P-256): a root and a leaf
 * it signs for `localhost` and 127.0.0.1. The server presents the leaf alone, so a client
 * trusts it only through the root (what `GLEANER_CA_FILE` gives Gleaner). Nothing here
 * protects anything: the keys live in a temporary folder removed by `remove()`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  dir: string;
  /** The root certificate (PEM) and its file: what GLEANER_CA_FILE names. */
  caPem: string;
  caFile: string;
  /** The leaf's key and certificate (PEM) for the server. */
  key: string;
  cert: string;
  remove(): void;
}

export function makeTestCa(name = 'Gleaner test root'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-ca-'));
  const at = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at('ca.key'));
  ssl('req', '-x509', '-new', '-key', at('ca.key'), '-sha256', '-days', '30', '-subj', `/CN=${name}`, '-out', at('ca.pem'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at('leaf.key'));
  ssl('req', '-new', '-key', at('leaf.key'), '-subj', '/CN=localhost', '-out', at('leaf.csr'));
  writeFileSync(at('leaf.ext'), [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
  ].join('\n'));
  ssl('x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-sha256', '-days', '30',
    '-extfile', at('leaf.ext'), '-out', at('leaf.pem'));
  return {
    dir,
    caPem: readFileSync(at('ca.pem'), 'utf8'),
    caFile: at('ca.pem'),
    key: readFileSync(at('leaf.key'), 'utf8'),
    cert: readFileSync(at('leaf.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
