import { readFileSync } from 'node:fs';
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(prof.nodes.map(n => [n.id, n]));
const parent = new Map(); for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const counts = new Map(); let total = 0;
prof.samples.forEach((id, i) => { const d = prof.timeDeltas[i] ?? 0; counts.set(id, (counts.get(id) ?? 0) + d); total += d; });
const own = new Map(), incl = new Map();
for (const [id, t] of counts) {
  const k0 = keyOf(byId.get(id)); own.set(k0, (own.get(k0) ?? 0) + t);
  const seen = new Set(); let cur = id;
  while (cur !== undefined) { const k = keyOf(byId.get(cur)); if (!seen.has(k)) { incl.set(k, (incl.get(k) ?? 0) + t); seen.add(k); } cur = parent.get(cur); }
}
const top = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(100 * v / total).toFixed(1).padStart(5)}% ${k}`).join('\n');
console.log('SELF'); console.log(top(own, Number(process.argv[3] ?? 30)));
console.log('INCLUSIVE'); console.log(top(incl, Number(process.argv[4] ?? 45)));
