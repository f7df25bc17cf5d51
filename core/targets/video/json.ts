/**
 * Walking the platform's renderer JSON (`ytInitialData`, the player response, the internal
 * API's answers) without trusting its shape: every reader takes `unknown` and answers
 * undefined/null instead of throwing, so a renamed field loses that field, not the page.
 */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * The value at `path` (object keys and array indexes), or undefined. The readers call this a few
 * dozen times per card, mostly before V8 has optimised them: an indexed loop, because `for...of`
 * in unoptimised code steps an iterator (a call and a result object per key).
 */
export function at(v: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = v;
  for (let i = 0; i < path.length; i++) {
    const k = path[i] as string | number;
    if (typeof k === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[k];
    } else {
      if (!isObj(cur)) return undefined;
      cur = cur[k];
    }
  }
  return cur;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** An integer written as a number or a digit string (`"237"`), else null. */
export function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/**
 * The text of one of the platform's text shapes: `{simpleText}`, `{runs: [{text}]}`, the view
 * models' `{content}`, or a plain string. Null when empty.
 */
export function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  const o = obj(v);
  if (!o) return null;
  if (typeof o.simpleText === 'string') return o.simpleText || null;
  if (typeof o.content === 'string') return o.content || null;
  if (Array.isArray(o.runs)) {
    const t = o.runs.map((r) => (typeof at(r, 'text') === 'string' ? (at(r, 'text') as string) : '')).join('');
    return t || null;
  }
  return null;
}

/** The accessibility label of a text or button shape (`accessibility.accessibilityData.label`). */
export function labelOf(v: unknown): string | null {
  return str(at(v, 'accessibility', 'accessibilityData', 'label')) ?? str(at(v, 'accessibilityData', 'label'));
}

/**
 * Every value stored under `key` anywhere below `v`, in document order (depth first). Bounded by
 * `limit` hits; renderer trees are deep but finite, and this never follows a cycle because the
 * input comes from JSON.parse.
 */
export function findAll(v: unknown, key: string, limit = Infinity): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [v];
  while (stack.length > 0 && out.length < limit) {
    const cur = stack.pop();
    if (Array.isArray(cur)) {
      for (let i = cur.length - 1; i >= 0; i--) stack.push(cur[i]);
    } else if (isObj(cur)) {
      const keys = Object.keys(cur);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        if (k === key) continue;
        stack.push(cur[k]);
      }
      if (key in cur) {
        out.push(cur[key]);
        // The hit's own subtree is searched after it, keeping document order for nested hits.
        stack.push(cur[key]);
      }
    }
  }
  return out;
}

/** The first value under `key` anywhere below `v`. */
export function findFirst(v: unknown, key: string): unknown {
  return findAll(v, key, 1)[0];
}

/** The thumbnails of a `{thumbnails: [{url, width, height}]}` shape, protocol-relative URLs made https. */
export function thumbnailsOf(v: unknown): { url: string; width: number | null; height: number | null }[] {
  const out: { url: string; width: number | null; height: number | null }[] = [];
  for (const t of arr(at(v, 'thumbnails'))) {
    const url = str(at(t, 'url'));
    if (!url) continue;
    out.push({ url: url.startsWith('//') ? `https:${url}` : url, width: int(at(t, 'width')), height: int(at(t, 'height')) });
  }
  return out;
}

/**
 * The largest thumbnail's URL (by width, else the last listed): `thumbnailsOf`'s choice without
 * building its list, as every card of a listing asks for one.
 */
export function bestThumbnail(v: unknown): string | null {
  const list = arr(at(v, 'thumbnails'));
  let best = -1;
  for (let i = list.length - 1; i >= 0 && best < 0; i--) if (str(at(list[i], 'url'))) best = i;
  if (best < 0) return null;
  let bestWidth = int(at(list[best], 'width')) ?? 0;
  for (let i = 0; i < list.length; i++) {
    const width = int(at(list[i], 'width')) ?? 0;
    if (width > bestWidth && str(at(list[i], 'url'))) {
      best = i;
      bestWidth = width;
    }
  }
  const url = str(at(list[best], 'url')) as string;
  return url.startsWith('//') ? `https:${url}` : url;
}
