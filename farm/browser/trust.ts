/**
 * `GLEANER_CA_FILE` for the browser. Chromium takes no PEM file on its command line: on Linux,
 * full Chromium and the headless shell alike verify a server's chain against the Chrome Root
 * Store plus the roots trusted in the user's NSS database, `$HOME/.pki/nssdb`. So the farm
 * writes such a database holding the file's certificates, trusted for server authentication
 * only (`C,,`), with NSS's `certutil` (Debian: libnss3-tools), into a folder of its own, and
 * starts the browser with HOME set to that folder. Nothing else changes: chains are verified as
 * before, a certificate from any other unknown CA stays ERR_CERT_AUTHORITY_INVALID.
 *
 * The folder is named by a hash of the certificates (`<tmp>/gleaner-browser-trust-<hash>`), so
 * every process and thread given the same file shares one database and a changed file gets a
 * new one. Concurrency: it is built in a private folder, then renamed into place; a builder
 * that loses the race uses the winner's (both hold the same certificates).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caPems } from '../net/trust.js';

/** Each certutil call is short (~50 ms); this bounds a stuck one. */
const CERTUTIL_TIMEOUT_MS = 15_000;

/**
 * The environment the browser starts with (`HOME` → the trust folder), or undefined without a
 * CA file. Throws (at farm start, where the operator sees it) when certutil is missing.
 */
export function browserTrustEnv(caFile: string | undefined): Record<string, string> | undefined {
  if (!caFile) return undefined;
  return { HOME: trustHome(caPems(caFile)) };
}

function trustHome(pems: readonly string[]): string {
  const hash = createHash('sha256').update(pems.join('\n')).digest('hex').slice(0, 16);
  const home = join(tmpdir(), `gleaner-browser-trust-${hash}`);
  if (existsSync(join(home, '.pki', 'nssdb', 'cert9.db'))) return home;
  const building = mkdtempSync(`${home}.building-`);
  try {
    const db = join(building, '.pki', 'nssdb');
    mkdirSync(db, { recursive: true, mode: 0o700 });
    certutil(['-N', '-d', `sql:${db}`, '--empty-password']);
    pems.forEach((pem, i) => {
      const file = join(building, `extra-${i}.pem`);
      writeFileSync(file, pem);
      certutil(['-A', '-d', `sql:${db}`, '-t', 'C,,', '-n', `gleaner-extra-${i}`, '-i', file]);
    });
    try {
      renameSync(building, home);
    } catch (err) {
      // Another thread or process put the same database there first.
      if (!existsSync(join(home, '.pki', 'nssdb', 'cert9.db'))) throw err;
    }
    return home;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

function certutil(args: string[]): void {
  try {
    execFileSync('certutil', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: CERTUTIL_TIMEOUT_MS });
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? 'GLEANER_CA_FILE: the browser trusts extra roots through an NSS database made with certutil, which is not installed (Debian: apt-get install libnss3-tools)'
        : `GLEANER_CA_FILE: certutil failed (${String((err as { stderr?: Buffer }).stderr ?? err).trim().slice(0, 200)})`,
    );
  }
}
