/**
 * Which result tab an se1 page is: the page says it itself in the search form's hidden `tbm` /
 * `udm` input (every generation seen, 2013-2025, basic and full markup), which the URL only
 * repeats — and a page fetched through a neutral or rewritten URL still carries it.
 */
import type { Document } from '../../../parsers/dom.js';
import { all } from '../../../parsers/dom.js';

export type Vertical = 'web' | 'news' | 'images' | 'videos' | 'shopping' | 'books';

const BY_TBM: Readonly<Record<string, Vertical>> = { nws: 'news', isch: 'images', vid: 'videos', shop: 'shopping', bks: 'books' };
/** `udm` values of the 2024-2025 tabs that replaced `tbm`. */
const BY_UDM: Readonly<Record<string, Vertical>> = { '2': 'images', '7': 'videos', '28': 'shopping', '36': 'books' };

function fromParams(tbm: string | null | undefined, udm: string | null | undefined): Vertical | null {
  if (tbm && BY_TBM[tbm]) return BY_TBM[tbm];
  if (udm && BY_UDM[udm]) return BY_UDM[udm];
  return null;
}

export function verticalOf(doc: Document, pageUrl: string): Vertical {
  for (const input of all('input[name="tbm"], input[name="udm"]', doc)) {
    const v = input.attribs.value;
    const found = input.attribs.name === 'tbm' ? fromParams(v, null) : fromParams(null, v);
    if (found) return found;
  }
  try {
    const p = new URL(pageUrl).searchParams;
    return fromParams(p.get('tbm'), p.get('udm')) ?? 'web';
  } catch {
    return 'web';
  }
}
