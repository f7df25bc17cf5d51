import * as wreq from 'wreq-js';
import { startRecorder } from '/work/wt/ident-net/test/helpers/recorder/server.ts';
const rec = await startRecorder();
const rec1 = await startRecorder({ h2: false, ca: rec.ca });
process.env.SSL_CERT_FILE = rec.ca.caFile;
const t = await wreq.createTransport({ browser: 'chrome_149', os: 'linux', emulation: { origHeaders: ['Host', 'Connection', 'sec-ch-ua', 'User-Agent', 'Accept-Encoding', 'Cookie'] } as any });
for (const [r, tag] of [[rec, 'two'], [rec1, 'one']] as const) {
  const res = await wreq.fetch(`${r.origin}/r/${tag}`, { transport: t, headers: [['connection', 'keep-alive'], ['sec-ch-ua', 'x'], ['user-agent', 'u'], ['accept-encoding', 'gzip, deflate, br, zstd'], ['cookie', 'a=b'], ['priority', 'u=0, i']], disableDefaultHeaders: true });
  await res.text();
  const got = await r.waitFor(tag);
  console.log(tag, got.protocol, got.akamai, got.headers.map((h) => h.join('=')).join(' | '));
}
await t.close(); await rec.close(); await rec1.close();
