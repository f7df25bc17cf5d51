/**
 * Seeded fuzzing of every endpoint's validator. For each endpoint, valid bodies are generated
 * from its JSON Schema (and must validate), then mutated: wrong types, huge and odd Unicode
 * strings, unknown and hostile keys, deep nesting, nulls, arrays, deletions, non-object bodies.
 *
 * Invariants, for every body:
 *   1. `validate` never throws and does not modify the body;
 *   2. ok ⇒ `params` validates again to the same `params` (the echo is a valid request);
 *   3. not ok ⇒ `errors` is non-empty, with unique pointers of the form `#` or `#/token...`;
 *   4. every pointer RESOLVES in the body as sent, except a "missing member" error: its detail
 *      starts with `is required`, its parent pointer resolves to an object, and that object
 *      has no own member named by the last token.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { mulberry32 } from '../helpers/random.js';
import { MKT1_MARKETPLACES } from '../../core/registry/index.js';
import { allEndpoints, compileAll, type Endpoint, endpointKey, jsonSchemaFor, type JsonSchema, validate } from '../../core/schema/index.js';

const BODIES_PER_ENDPOINT = 32;


// FUZZ_SEED explores other sequences locally; the suite itself always runs the fixed seed.
const rnd = mulberry32(Number(process.env.FUZZ_SEED ?? 20240611));
const chance = (p: number): boolean => rnd() < p;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

/** Valid samples for each pattern the registry uses. */
const PATTERN_SAMPLES: Record<string, string[]> = {
  '^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*){0,2}$': ['com', 'co.uk', 'de', 'com.mx'],
  '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$': ['uk', 'www', 'fr-ca'],
  '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$': ['en_US', 'de', 'pt-BR'],
  '^[A-Za-z0-9][A-Za-z0-9 -]*$': ['10001', 'SW1A 1AA', '100-0001'],
  '^[0-9]{2}:[0-5][0-9]:[0-5][0-9]$': ['00:00:10', '01:02:03'],
  '^[A-Za-z]{3}$': ['EUR', 'usd'],
};
const URLS = ['https://example.com/p?q=1', 'http://127.0.0.1:8080/x', 'https://shop.example.com/item/42#f'];
const TEXT = 'abcXYZ 019-_/é漢😀';

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  return Array.isArray(t) ? (t.find((x) => x !== 'null') as string) : (t as string | undefined);
}

function validValue(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum)) return pick(schema.enum);
  if (schema.if) return pick(['video', 'audio', ['html'], ['markdown', 'html']]);
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'http-url') return pick(URLS);
      if (schema.format === 'country') return pick(['US', 'de', 'GB', 'jp']);
      if (typeof schema.pattern === 'string') return pick(PATTERN_SAMPLES[schema.pattern]!);
      const min = (schema.minLength as number | undefined) ?? 1;
      const len = between(min, Math.min((schema.maxLength as number | undefined) ?? 24, 24));
      return Array.from({ length: len }, () => pick([...TEXT])).join('').slice(0, len) || 'q';
    }
    case 'integer':
      return between((schema.minimum as number) ?? -5, Math.min((schema.maximum as number) ?? 50, ((schema.minimum as number) ?? 0) + 50));
    case 'number':
      return Math.round(rnd() * 100000) / 100;
    case 'boolean':
      return chance(0.5);
    case 'array': {
      const items = schema.items as JsonSchema;
      const out: unknown[] = [];
      for (let i = between(1, 3); i > 0; i--) out.push(validValue(items));
      return schema.uniqueItems ? [...new Map(out.map((v) => [JSON.stringify(v), v])).values()] : out;
    }
    case 'object': {
      const props = schema.properties as Record<string, JsonSchema> | undefined;
      if (!props) return { type: 'object', properties: { title: { type: 'string' } } };
      const required = (schema.required as string[] | undefined) ?? [];
      return Object.fromEntries(Object.entries(props).filter(([k]) => required.includes(k) || chance(0.5)).map(([k, v]) => [k, validValue(v)]));
    }
    default:
      return null;
  }
}

/** A body meant to be valid: random optional members, then the cross-field rules satisfied. */
function validBody(endpoint: Endpoint): Record<string, unknown> {
  const schema = jsonSchemaFor(endpoint);
  const props = schema.properties as Record<string, JsonSchema>;
  const required = schema.required as string[];
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) if (required.includes(k) || chance(0.3)) body[k] = validValue(v);
  if (endpoint.kind === 'search' || endpoint.kind === 'map') return body;
  if (endpoint.kind === 'crawl') {
    // Patterns must compile; the scrape object follows /v1/scrape's rules (screenshot needs run_js, json output needs json).
    for (const key of ['include_paths', 'exclude_paths']) if (key in body) body[key] = ['^/blog/', 'x+y'];
    if (body.scrape && typeof body.scrape === 'object') body.scrape = { output: ['markdown'], run_js: chance(0.5) };
    if (body.callback_pages === true && typeof body.callback_url !== 'string') body.callback_pages = false;
    return body;
  }
  const id = endpoint.routeId;
  if (body.json && typeof body.json === 'object') body.json = chance(0.5) ? { prompt: 'list the prices' } : { schema: { type: 'object', properties: {} } };
  if (id === 'se1/maps' || id === 'media/video/subtitles' || (Array.isArray(body.output) && body.output.includes('json') && 'json' in props)) {
    body.output = ['json', ...(chance(0.5) ? ['html'] : [])];
    body.json = { prompt: 'extract everything' };
  }
  if (Array.isArray(body.output) && body.output.includes('screenshot')) body.run_js = true;
  if (id === 'se1/aimode') body.run_js = true;
  if (id.startsWith('mkt1') && body.location != null) body.location = MKT1_MARKETPLACES[(body.domain as string) ?? 'com']!.example;
  if (typeof body.min_price === 'number' && typeof body.max_price === 'number' && body.min_price > body.max_price) body.max_price = body.min_price;
  if (body.start_at !== undefined && body.end_at !== undefined) Object.assign(body, { start_at: '00:00:01', end_at: '00:10:00' });
  if (id === 'media/video/download' && (body.storage === undefined || body.storage === null)) body.storage = { type: 's3', url: 's3://bucket/prefix' };
  return body;
}

function deep(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = chance(0.5) ? { a: v } : [v];
  return v;
}

function junk(): unknown {
  return pick<() => unknown>([
    () => null, () => true, () => false, () => 0, () => -1, () => 1.5, () => 1e308, () => -0,
    () => '', () => ' ', () => 'x'.repeat(between(2049, 100_000)), () => '\u0000\uffff😀\ud800', () => 'javascript:alert(1)',
    () => 'http://', () => `https://${'a'.repeat(9000)}.com`, () => '10001', () => 'true', () => '01:00:00',
    () => [], () => [1, 'a', null], () => Array.from({ length: 1000 }, (_, i) => i), () => ['html', 'html'],
    () => ({}), () => ({ prompt: 'p', schema: { a: 1 } }), () => ({ type: 's3' }), () => deep(between(2, 60)), () => deep(5000), () => deep(20_000),
  ])();
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'a/b', '~0', '~1/~', '', 'ünïcødé', '😀', 'query ', 'URL', 'Output', '0', 'hasOwnProperty'];

/** Sets an own data member, as JSON.parse does, even for `__proto__` (plain assignment would change the prototype). */
function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mutate(body: Record<string, unknown>, schema: JsonSchema): unknown {
  const known = Object.keys(schema.properties as object);
  const keys = Object.keys(body);
  switch (between(0, 9)) {
    case 0:
      body[pick(known)] = junk();
      break;
    case 1:
      setOwn(body, chance(0.5) ? pick(HOSTILE_KEYS) : String(rnd()), junk());
      break;
    case 2:
      if (keys.length) delete body[pick(keys)];
      break;
    case 3: {
      const k = pick(keys.length ? keys : known);
      body[k] = chance(0.5) ? [body[k]] : { v: body[k] };
      break;
    }
    case 4: {
      const k = pick(keys.length ? keys : known);
      const v = body[k];
      if (Array.isArray(v)) v.splice(between(0, v.length), chance(0.5) ? 1 : 0, junk());
      else if (v && typeof v === 'object') setOwn(v as object, pick(['prompt', 'schema', 'type', 'url', 'page', 'limit', 'extra', '__proto__']), junk());
      else body[k] = junk();
      break;
    }
    case 5:
      body.output = Array.from({ length: between(0, 4) }, () => pick(['html', 'markdown', 'json', 'screenshot', 'video', 'pdf']));
      break;
    case 6:
      body.json = pick([null, {}, { prompt: 'p' }, { schema: { type: 'object' } }, { prompt: 'p', schema: { type: 'object', x: 1 } }, { prompt: 'p'.repeat(8193) }]);
      break;
    case 7:
      if (chance(0.5)) delete body.run_js;
      else body.run_js = pick([true, false, 'true', null]);
      break;
    case 8:
      body.location = pick(['de', 'XX', '10115', 'SW1A 1AA', '100-0001', '1', null, 5]);
      break;
    default:
      if (chance(0.3)) return pick([null, [], [body], 'string', 42, true]);
      body[pick(known)] = null;
  }
  return body;
}

function decode(pointer: string): string[] | undefined {
  if (pointer === '#') return [];
  if (!pointer.startsWith('#/')) return undefined;
  return pointer.slice(2).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function resolve(root: unknown, tokens: readonly string[]): { found: boolean; value?: unknown } {
  let cur = root;
  for (const t of tokens) {
    if (Array.isArray(cur) && /^(0|[1-9][0-9]*)$/.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else if (cur && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else return { found: false };
  }
  return { found: true, value: cur };
}

/** A deep copy, or undefined for values nested too deeply to copy (JSON.parse has no depth limit). */
function tryClone(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}

/** Problems with one result, as strings (empty when every invariant holds). */
function check(endpoint: Endpoint, body: unknown): string[] {
  const snapshot = chance(0.2) ? tryClone(body) : undefined;
  let result: ReturnType<typeof validate>;
  try {
    result = validate(endpoint, body);
  } catch (err) {
    return [`threw ${String(err)}`];
  }
  const problems: string[] = [];
  if (snapshot !== undefined && !isDeepStrictEqual(snapshot, body)) problems.push('body was modified');
  if (result.ok) {
    const again = validate(endpoint, result.params);
    if (!again.ok || !isDeepStrictEqual(again.params, result.params)) problems.push(`echo does not validate to itself: ${JSON.stringify(again).slice(0, 300)}`);
    return problems;
  }
  if (result.errors.length === 0) problems.push('no errors');
  if (new Set(result.errors.map((e) => e.pointer)).size !== result.errors.length) problems.push('duplicate pointers');
  for (const e of result.errors) {
    const tokens = decode(e.pointer);
    if (!tokens || typeof e.detail !== 'string' || e.detail === '') {
      problems.push(`bad entry ${JSON.stringify(e)}`);
      continue;
    }
    if (resolve(body, tokens).found) continue;
    const parent = resolve(body, tokens.slice(0, -1));
    const isObj = parent.found && parent.value !== null && typeof parent.value === 'object' && !Array.isArray(parent.value);
    const missing = isObj && !Object.hasOwn(parent.value as object, tokens[tokens.length - 1]!);
    if (!(e.detail.startsWith('is required') && missing)) problems.push(`pointer does not resolve: ${JSON.stringify(e)}`);
  }
  return problems;
}

describe('validator fuzzing', () => {
  test(`every endpoint: ${BODIES_PER_ENDPOINT} seeded bodies each, invariants hold`, () => {
    compileAll();
    const failures: string[] = [];
    const validBases = new Map<string, number>();
    let bodies = 0;
    for (const endpoint of allEndpoints()) {
      const key = endpointKey(endpoint);
      const schema = jsonSchemaFor(endpoint);
      for (let i = 0; i < BODIES_PER_ENDPOINT; i++) {
        const base = validBody(endpoint);
        if (i < 4) {
          // Unmutated bodies: the generator and the validator agree on what is valid.
          const r = validate(endpoint, base);
          if (r.ok) validBases.set(key, (validBases.get(key) ?? 0) + 1);
          else failures.push(`${key}: generated body refused ${JSON.stringify(r.errors)} ${JSON.stringify(base).slice(0, 300)}`);
        }
        let body: unknown = base;
        for (let m = between(1, 3); m > 0 && body && typeof body === 'object' && !Array.isArray(body); m--) {
          body = mutate(body as Record<string, unknown>, schema);
        }
        bodies++;
        for (const p of check(endpoint, body)) failures.push(`${key}: ${p}`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(bodies).toBeGreaterThanOrEqual(5000);
    expect(validBases.size).toBe(allEndpoints().length);
  });
});
