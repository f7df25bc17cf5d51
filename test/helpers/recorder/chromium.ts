/**
 * The reference: the local Chromium itself opening a URL, as a person would (its own command
 * line, no automation protocol), so what the recorder sees is exactly what that build sends for a
 * top-level navigation. The recorder's test CA is not in Chromium's store, so certificate errors
 * are ignored for this reference run (that flag changes nothing in the ClientHello or requests).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Recorder, RecordedRequest } from './server.js';

export const FULL_CHROMIUM = '/usr/bin/chromium';
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export function hasBrowser(path: string): boolean {
  return existsSync(path);
}

/** Opens `<origin>/r/<tag>` in `binary` and returns what the recorder saw (the browser is then killed). */
export async function chromiumVisit(binary: string, rec: Recorder, tag: string, origin = rec.origin): Promise<RecordedRequest> {
  const profile = mkdtempSync(join(tmpdir(), 'gleaner-ref-chromium-'));
  const args = [`--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', '--ignore-certificate-errors'];
  if (binary === FULL_CHROMIUM) args.push('--headless=new');
  // Chromium refuses to run as root with its sandbox (CI runs as root).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child = spawn(binary, [...args, `${origin}/r/${tag}`], { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    return await rec.waitFor(tag, 45_000);
  } finally {
    // The browser and the helpers it started (its own process group).
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
    rmSync(profile, { recursive: true, force: true });
  }
}
