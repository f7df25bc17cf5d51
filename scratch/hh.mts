import * as wreq from 'wreq-js';
import { startRecorder } from '/work/wt/ident-net/test/helpers/recorder/server.ts';
const rec = await startRecorder();
const rec1 = await startRecorder({ h2: false, ca: rec.ca });
process.env.SSL_CERT_FILE = rec.ca.caFile;
const t = await wreq.createTransport({ browser: 'chrome_149', os: 'linux' });
for (const [r, tag] of [[rec, 'two'], [rec1, 'one']] as const) {
  const res = await wreq.fetch(`${r.origin}/r/${tag}`, { transport: t, headers: [['Host', new URL(r.origin).host], ['Connection', 'keep-alive'], ['sec-ch-ua', 'x'], ['User-Agent', 'u'], ['Accept-Encoding', 'gzip, deflate, br, zstd'], ['Priority', 'u=0, i']], disableDefaultHeaders: true });
  console.log(res.status, Object.keys(res).join(','));
  console.log((await rec.requests.concat(rec1.requests).find(x=>x.tag===tag))?.headers.map((h) => h.join('=')).join(' | '), (await r.waitFor(tag)).pseudo);
}
await t.close(); await rec.close(); await rec1.close();
