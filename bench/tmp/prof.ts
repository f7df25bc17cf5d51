import { parsePage } from '../../core/targets/index.js';
import { FAMILIES, familyPages } from '../families/pages.js';
const names = process.argv[2]!.split(',');
const reps = Number(process.argv[3] ?? 20);
for (const f of FAMILIES.filter((x) => names.includes(x.name))) {
  const pages = familyPages(f);
  for (let r = 0; r < reps; r++) for (const p of pages) parsePage(f.route, { html: p.html, url: f.url(p.name), page: 1, params: { query: 'x' } });
}
