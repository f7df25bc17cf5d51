import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wreq from 'wreq-js';
import { startRecorder } from '/work/wt/ident-net/test/helpers/recorder/server.ts';
const rec = await startRecorder({ h2: false });
process.env.SSL_CERT_FILE = rec.ca.caFile;
async function chrome(bin: string, tag: string, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'chr-'));
  const p = spawn(bin, ['--no-sandbox', `--user-data-dir=${dir}`, '--no-first-run', '--ignore-certificate-errors', ...extra, `${rec.origin}/r/${tag}`], { stdio: 'ignore' });
  try { return await rec.waitFor(tag, 30000); } finally { p.kill('SIGKILL'); }
}
const r = await chrome('/usr/bin/chromium', 'full', ['--headless=new']);
console.log(r.headers.map((h) => h[0]).join(' | '));
const t = await wreq.createTransport({ browser: 'chrome_149', os: 'linux' });
const res = await wreq.fetch(`${rec.origin}/r/w`, { transport: t, headers: [['sec-ch-ua', 'x'], ['Upgrade-Insecure-Requests', '1'], ['User-Agent', 'u'], ['Accept', 'a'], ['Cookie', 'c=d'], ['Priority', 'u=0, i']], disableDefaultHeaders: true });
await res.text();
console.log((await rec.waitFor('w')).headers.map((h) => h[0]).join(' | '));
await t.close(); await rec.close();
