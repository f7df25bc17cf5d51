import { parseDocument } from 'htmlparser2';
import { loadHtml } from '../../core/parsers/dom.js';
import { parsePage } from '../../core/targets/index.js';
import { FAMILIES, familyPages } from '../../bench/families/pages.js';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const only = process.argv[2];
for (const f of FAMILIES) {
  if (only && !only.split(',').includes(f.name)) continue;
  let P = 0, B = 0, L = 0;
  for (const p of familyPages(f)) {
    const input = { html: p.html, url: f.url(p.name), page: 1, params: { query: 'x' } };
    const fns = [() => parsePage(f.route, input), () => parseDocument(p.html), () => loadHtml(p.html)];
    for (const fn of fns) fn();
    const t = [0, 0, 0];
    for (let r = 0; r < 8; r++) fns.forEach((fn, i) => { const s = cpu(); fn(); t[i] += cpu() - s; });
    P += t[0] / 8; B += t[1] / 8; L += t[2] / 8;
  }
  console.log(f.name.padEnd(18), 'parse', P.toFixed(1), 'bare', B.toFixed(1), 'loadHtml', L.toFixed(1), 'ratio', (P / B).toFixed(2), 'load/bare', (L / B).toFixed(2));
}
