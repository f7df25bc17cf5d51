/**
 * Request validation: each schema bound and each cross-field rule, with the exact `errors[]`
 * or the exact echoed `params`; OPTIONS example bodies; the OpenAPI document.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { GleanerError } from '../../core/errors.js';
import { buildProblem } from '../../core/problem.js';
import { scrapePaths } from '../../core/registry/index.js';
import {
  addGleanerVocabulary,
  allEndpoints,
  compileAll,
  warmValidators,
  type Endpoint,
  exampleBody,
  openApiDocument,
  RULES,
  validate,
} from '../../core/schema/index.js';
import type { Mode } from '../../core/registry/types.js';

const SEARCH: Endpoint = { kind: 'search' };
const scrape = (routeId: string, mode: Mode = 'sync'): Endpoint => ({ kind: 'scrape', routeId, mode });
const UNI = scrape('universal');

const errorsOf = (endpoint: Endpoint, body: unknown) => {
  const r = validate(endpoint, body);
  return r.ok ? r : r.errors;
};
const paramsOf = (endpoint: Endpoint, body: unknown) => {
  const r = validate(endpoint, body);
  return r.ok ? r.params : r;
};

const BASE = { output: ['html'], json: null, location: null, device: 'desktop', run_js: false };
const QUEUED = { callback_url: null, storage: null };

describe('POST /v1/search', () => {
  test('defaults are filled and echoed in spec order', () => {
    expect(paramsOf(SEARCH, { max_results: 3, query: 'coffee' })).toEqual({ query: 'coffee', location: null, max_results: 3 });
    expect(paramsOf(SEARCH, { query: 'coffee', location: 'de' })).toEqual({ query: 'coffee', location: 'de', max_results: 10 });
  });

  test('every failing field once, unknown parameters by name', () => {
    expect(errorsOf(SEARCH, { query: '', max_results: 21, location: 'XX', page: 2 })).toEqual([
      { pointer: '#/page', detail: 'unknown parameter' },
      { pointer: '#/query', detail: 'must be at least 1 character long' },
      { pointer: '#/location', detail: 'must be an ISO 3166-1 alpha-2 country code' },
      { pointer: '#/max_results', detail: 'must be at most 20' },
    ]);
    expect(errorsOf(SEARCH, { query: 'x'.repeat(2049), max_results: 2.5 })).toEqual([
      { pointer: '#/query', detail: 'must be at most 2048 characters long' },
      { pointer: '#/max_results', detail: 'must be an integer' },
    ]);
    expect(errorsOf(SEARCH, { max_results: 0 })).toEqual([
      { pointer: '#/query', detail: 'is required' },
      { pointer: '#/max_results', detail: 'must be at least 1' },
    ]);
  });

  test('a body that is not an object is refused at #', () => {
    for (const body of [null, [], 'query', 5, true, undefined]) {
      expect(errorsOf(SEARCH, body)).toEqual([{ pointer: '#', detail: 'the request body must be a JSON object' }]);
    }
  });

  test('pointer tokens are escaped (RFC 6901)', () => {
    expect(errorsOf(SEARCH, { query: 'q', 'a/b~c': 1 })).toEqual([{ pointer: '#/a~1b~0c', detail: 'unknown parameter' }]);
  });
});

describe('shared scrape parameters (spec 2.1, 4.2)', () => {
  test('sync echo: url then shared defaults', () => {
    expect(paramsOf(UNI, { url: 'https://example.com/a' })).toEqual({ url: 'https://example.com/a', ...BASE });
  });

  test('async and batch echo callback_url and storage', () => {
    expect(paramsOf(scrape('universal', 'async'), { url: 'http://example.com', storage: { url: 'not even a url', type: 'gcs' } })).toEqual({
      url: 'http://example.com',
      ...BASE,
      callback_url: null,
      storage: { type: 'gcs', url: 'not even a url' },
    });
    expect(paramsOf(scrape('universal', 'batch'), { url: ['http://a.example', 'https://b.example/x'], callback_url: 'https://hooks.example/h' })).toEqual({
      url: ['http://a.example', 'https://b.example/x'],
      ...BASE,
      callback_url: 'https://hooks.example/h',
      storage: null,
    });
  });

  test('url: absolute http/https, at most 8192', () => {
    // Each detail says what is wrong with the value, not only what a URL should be.
    expect(errorsOf(UNI, { url: 'ftp://example.com' })).toEqual([{ pointer: '#/url', detail: 'must be an http or https URL (the scheme is ftp)' }]);
    expect(errorsOf(UNI, { url: '/relative' })).toEqual([{ pointer: '#/url', detail: 'must be an absolute URL starting with http:// or https:// (this one has no scheme)' }]);
    expect(errorsOf(UNI, { url: ' http://example.com' })).toEqual([{ pointer: '#/url', detail: 'must not start or end with whitespace: remove a space at character 1' }]);
    expect(errorsOf(UNI, { url: 'http://host/a b' })).toEqual([{ pointer: '#/url', detail: 'is not a valid URL: it contains a space at character 14; percent-encode it (%20)' }]);
    expect(errorsOf(UNI, { url: 'http://exa mple.com/' })).toEqual([{ pointer: '#/url', detail: 'is not a valid URL: its host contains a space at character 11' }]);
    expect(errorsOf(UNI, { url: 'http://host/a\u0001' })).toEqual([{ pointer: '#/url', detail: 'is not a valid URL: it contains a control character (U+0001) at character 14; percent-encode it (%01)' }]);
    expect(errorsOf(UNI, { url: 'http://[zz' })).toEqual([{ pointer: '#/url', detail: 'is not a valid URL: its host or port cannot be parsed' }]);
    expect(errorsOf(UNI, { url: `http://example.com/${'a'.repeat(8200)}` })).toEqual([{ pointer: '#/url', detail: 'must be at most 8192 characters long' }]);
    expect(errorsOf(UNI, {})).toEqual([{ pointer: '#/url', detail: 'is required' }]);
  });

  test('output: enum, unique, non-empty; device, run_js, location types', () => {
    expect(errorsOf(UNI, { url: 'http://x.example', output: ['pdf', 'html', 'html'], device: 'tablet', run_js: 'yes', location: 'DEU' })).toEqual([
      { pointer: '#/output/0', detail: 'must be one of "html", "markdown", "json", "screenshot"' },
      { pointer: '#/output', detail: 'must not contain duplicates (items 2 and 1 are equal)' },
      { pointer: '#/location', detail: 'must be an ISO 3166-1 alpha-2 country code' },
      { pointer: '#/device', detail: 'must be one of "desktop", "mobile"' },
      { pointer: '#/run_js', detail: 'must be a boolean' },
    ]);
    expect(errorsOf(UNI, { url: 'http://x.example', output: [] })).toEqual([{ pointer: '#/output', detail: 'must contain at least 1 item' }]);
    expect(errorsOf(UNI, { url: 'http://x.example', output: 'html' })).toEqual([{ pointer: '#/output', detail: 'must be an array' }]);
  });

  test('json: only prompt and schema, with their bounds', () => {
    expect(errorsOf(UNI, { url: 'http://x.example', json: { prompt: 'p'.repeat(8193), extra: 1 } })).toEqual([
      { pointer: '#/json/extra', detail: 'unknown parameter' },
      { pointer: '#/json/prompt', detail: 'must be at most 8192 characters long' },
    ]);
    expect(errorsOf(UNI, { url: 'http://x.example', json: { schema: {} } })).toEqual([
      { pointer: '#/json/schema', detail: 'must be 10 to 65535 characters as JSON text (is 2)' },
    ]);
    const big = { type: 'object', description: 'd'.repeat(65535) };
    expect(errorsOf(UNI, { url: 'http://x.example', json: { schema: big } })).toEqual([
      { pointer: '#/json/schema', detail: 'must be 10 to 65535 characters as JSON text (is 65569)' },
    ]);
    // Both bounds are inclusive: {"a":"12"} is 10 characters; 34 characters of wrapping + 65501.
    expect(validate(UNI, { url: 'http://x.example', json: { schema: { a: '12' } } }).ok).toBe(true);
    expect(validate(UNI, { url: 'http://x.example', json: { schema: { type: 'object', description: 'd'.repeat(65501) } } }).ok).toBe(true);
    expect(errorsOf(UNI, { url: 'http://x.example', json: { schema: [1, 2, 3, 4, 5, 6] } })).toEqual([
      { pointer: '#/json/schema', detail: 'must be an object or null' },
    ]);
    expect(errorsOf(UNI, { url: 'http://x.example', json: 'extract prices' })).toEqual([{ pointer: '#/json', detail: 'must be an object or null' }]);
  });

  test('json is echoed as {prompt, schema} with null for the one not given', () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } } };
    expect(paramsOf(UNI, { url: 'http://x.example', output: ['json'], json: { schema } })).toEqual({
      url: 'http://x.example',
      ...BASE,
      output: ['json'],
      json: { prompt: null, schema },
    });
  });

  test('callback_url: absolute http/https, at most 2048; storage: type enum, both members required', () => {
    const A = scrape('universal', 'async');
    expect(errorsOf(A, { url: 'http://x.example', callback_url: 'not a url', storage: { type: 'dropbox' } })).toEqual([
      { pointer: '#/callback_url', detail: 'must be an absolute URL starting with http:// or https:// (this one has no scheme)' },
      { pointer: '#/storage/url', detail: 'is required' },
      { pointer: '#/storage/type', detail: 'must be one of "s3", "s3_gzip", "s3_compatible", "gcs", "tos"' },
    ]);
    expect(errorsOf(A, { url: 'http://x.example', callback_url: `https://h.example/${'a'.repeat(2040)}`, storage: { type: 's3', url: 5, region: 'x' } })).toEqual([
      { pointer: '#/callback_url', detail: 'must be at most 2048 characters long' },
      { pointer: '#/storage/region', detail: 'unknown parameter' },
      { pointer: '#/storage/url', detail: 'must be a string' },
    ]);
  });

  test('callback_url and storage do not exist on sync routes', () => {
    expect(errorsOf(UNI, { url: 'http://x.example', callback_url: 'https://h.example', storage: null })).toEqual([
      { pointer: '#/callback_url', detail: 'unknown parameter' },
      { pointer: '#/storage', detail: 'unknown parameter' },
    ]);
  });

  test('echoed params validate again to the same params', () => {
    const E = scrape('mkt1/search', 'async');
    const first = paramsOf(E, { query: 'lamp', location: '10115', domain: 'de', json: { prompt: 'prices' }, storage: { type: 's3', url: 's3://b/k' } });
    expect(first).toEqual({
      query: 'lamp', domain: 'de', pages: 1, start_page: 1,
      output: ['html'], json: { prompt: 'prices', schema: null }, location: '10115', device: 'desktop', run_js: false,
      callback_url: null, storage: { type: 's3', url: 's3://b/k' },
    });
    expect(paramsOf(E, first)).toEqual(first);
  });
});

describe('batch mode (spec 4.4)', () => {
  const B = scrape('se1/search', 'batch');
  test('the input is an array of strings with the singular bounds; the rest stays singular', () => {
    expect(errorsOf(B, { query: ['ok', '', 7, 'x'.repeat(2049)], pages: [2] })).toEqual([
      { pointer: '#/query/1', detail: 'must be at least 1 character long' },
      { pointer: '#/query/2', detail: 'must be a string' },
      { pointer: '#/query/3', detail: 'must be at most 2048 characters long' },
      { pointer: '#/pages', detail: 'must be an integer' },
    ]);
    expect(errorsOf(B, { query: [] })).toEqual([{ pointer: '#/query', detail: 'must contain at least 1 item' }]);
    expect(errorsOf(B, { query: 'single' })).toEqual([{ pointer: '#/query', detail: 'must be an array' }]);
    expect(errorsOf(scrape('universal', 'batch'), { url: ['http://a.example', 'mailto:x@y.z'] })).toEqual([
      { pointer: '#/url/1', detail: 'must be an http or https URL (the scheme is mailto)' },
    ]);
  });

  test('route defaults are echoed once for every job', () => {
    expect(paramsOf(B, { query: ['a', 'b'], tbs: 'qdr:d', filter: 0 })).toEqual({
      query: ['a', 'b'], filter: 0, pages: 1, start_page: 1, tbs: 'qdr:d', ...BASE, ...QUEUED,
    });
  });
});

describe('dedicated route parameters', () => {
  test('se1 search bounds and nested limit_per_page', () => {
    expect(errorsOf(scrape('se1/search'), { query: 'q', pages: 101, start_page: 0, filter: 2, domain: 'Bad Domain', limit_per_page: [{ page: 1, x: 1 }] })).toEqual([
      { pointer: '#/domain', detail: 'must look like a top-level domain such as com, co.uk or de' },
      { pointer: '#/filter', detail: 'must be one of 0, 1' },
      { pointer: '#/limit_per_page/0/limit', detail: 'is required' },
      { pointer: '#/limit_per_page/0/x', detail: 'unknown parameter' },
      { pointer: '#/pages', detail: 'must be at most 100' },
      { pointer: '#/start_page', detail: 'must be at least 1' },
    ]);
  });

  test('se1 shopping: sort_by enum with default r', () => {
    expect(paramsOf(scrape('se1/shopping/search'), { query: 'shoes', min_price: 10 })).toEqual({
      query: 'shoes', min_price: 10, pages: 1, sort_by: 'r', start_page: 1, ...BASE,
    });
    expect(errorsOf(scrape('se1/shopping/search'), { query: 'shoes', sort_by: 'price' })).toEqual([
      { pointer: '#/sort_by', detail: 'must be one of "r", "rv", "p", "pd"' },
    ]);
  });

  test('video search enums and flags', () => {
    expect(errorsOf(scrape('media/video/search'), { query: 'q', duration: '5', upload_date: 'yesterday', '4k': 'yes' })).toEqual([
      { pointer: '#/4k', detail: 'must be a boolean' },
      { pointer: '#/duration', detail: 'must be one of "<4", "4-20", ">20"' },
      { pointer: '#/upload_date', detail: 'must be one of "last_hour", "today", "this_week", "this_month", "this_year"' },
    ]);
    expect(errorsOf(scrape('media/video/subtitles'), { query: 'v', subtitle_origin: 'machine', json: { prompt: 'p' }, output: ['json'] })).toEqual([
      { pointer: '#/subtitle_origin', detail: 'must be one of "uploader_provided", "auto_generated"' },
    ]);
  });

  test('video download: output video|audio or the array without json; no json parameter', () => {
    const D = scrape('media/video/download', 'async');
    const storage = { type: 's3', url: 's3://b/p' };
    expect(paramsOf(D, { query: 'abc', storage })).toEqual({ query: 'abc', output: 'video', location: null, device: 'desktop', run_js: false, ...QUEUED, storage });
    expect(paramsOf(D, { query: 'abc', output: 'audio', start_at: '00:01:00', storage })).toMatchObject({ output: 'audio', start_at: '00:01:00' });
    expect(errorsOf(D, { query: 'abc', output: 'mp4', storage })).toEqual([{ pointer: '#/output', detail: 'must be one of "video", "audio"' }]);
    expect(errorsOf(D, { query: 'abc', output: 3, storage })).toEqual([{ pointer: '#/output', detail: 'must be "video", "audio" or an array of output formats' }]);
    expect(errorsOf(D, { query: 'abc', output: ['json'], json: { prompt: 'p' }, start_at: '1:00', storage })).toEqual([
      { pointer: '#/json', detail: 'unknown parameter' },
      { pointer: '#/start_at', detail: 'must look like a time hh:mm:ss' },
      { pointer: '#/output/0', detail: 'must be one of "html", "markdown", "screenshot"' },
    ]);
  });

  test('an endpoint the registry lacks is NOT_FOUND', () => {
    expect(() => validate(scrape('media/video/download', 'sync'), {})).toThrowError(GleanerError);
    expect(() => validate(scrape('llm1', 'sync'), {})).toThrowError('no sync endpoint for route llm1');
    expect(() => validate(scrape('nope', 'async'), {})).toThrowError('no async endpoint for route nope');
  });

  test('llm1 search flag has no default and is not echoed when absent; assistants answer json by default', () => {
    const answer = { ...BASE, output: ['json'] };
    expect(paramsOf(scrape('llm1', 'async'), { query: 'why?' })).toEqual({ query: 'why?', ...answer, ...QUEUED });
    expect(paramsOf(scrape('llm1', 'batch'), { query: ['why?'], search: false })).toEqual({ query: ['why?'], search: false, ...answer, ...QUEUED });
  });
});

describe('cross-field rules (one test each)', () => {
  test('the rule table', () => {
    expect(RULES.map((r) => r.id)).toEqual([
      'json-prompt-xor-schema',
      'screenshot-needs-run-js',
      'dedicated-no-parser-needs-json',
      'json-output-needs-json-object',
      'run-js-required',
      'price-range-ordered',
      'media-needs-storage',
      'time-range-ordered',
      'mkt1-postal-fits-marketplace',
    ]);
  });

  test('json-prompt-xor-schema', () => {
    const schema = { type: 'object', properties: {} };
    expect(errorsOf(UNI, { url: 'http://x.example', json: { prompt: 'p', schema } })).toEqual([
      { pointer: '#/json', detail: 'give json.prompt or json.schema, not both' },
    ]);
    expect(errorsOf(UNI, { url: 'http://x.example', json: {} })).toEqual([{ pointer: '#/json', detail: 'must contain prompt or schema' }]);
    expect(errorsOf(UNI, { url: 'http://x.example', json: { prompt: null, schema: null } })).toEqual([
      { pointer: '#/json', detail: 'must contain prompt or schema' },
    ]);
    expect(paramsOf(scrape('se1/search'), { query: 'q', json: { prompt: 'p', schema: null } })).toMatchObject({ json: { prompt: 'p', schema: null } });
  });

  test('screenshot-needs-run-js', () => {
    expect(errorsOf(UNI, { url: 'http://x.example', output: ['screenshot'] })).toEqual([{ pointer: '#/output', detail: 'screenshot requires run_js: true' }]);
    expect(errorsOf(UNI, { url: 'http://x.example', output: ['screenshot'], run_js: false })).toEqual([
      { pointer: '#/output', detail: 'screenshot requires run_js: true' },
    ]);
    expect(paramsOf(UNI, { url: 'http://x.example', output: ['screenshot', 'markdown'], run_js: true })).toEqual({
      url: 'http://x.example', ...BASE, output: ['screenshot', 'markdown'], run_js: true,
    });
  });

  test('json-output-needs-json-object (generic route); built-in parser routes need no json object', () => {
    expect(errorsOf(UNI, { url: 'http://x.example', output: ['json'] })).toEqual([{ pointer: '#/json', detail: 'is required when output contains json' }]);
    expect(errorsOf(UNI, { url: 'http://x.example', output: ['json'], json: null })).toEqual([{ pointer: '#/json', detail: 'is required when output contains json' }]);
    expect(paramsOf(scrape('se1/search'), { query: 'q', output: ['json'] })).toEqual({ query: 'q', pages: 1, start_page: 1, ...BASE, output: ['json'] });
  });

  test('dedicated-no-parser-needs-json (se1/maps, media/video/subtitles)', () => {
    expect(errorsOf(scrape('se1/maps'), { query: 'cafes' })).toEqual([
      { pointer: '#/json', detail: 'is required on this route (it has no built-in parser): give json.prompt or json.schema' },
      { pointer: '#/output', detail: 'is required on this route and must contain json (it has no built-in parser)' },
    ]);
    expect(errorsOf(scrape('media/video/subtitles', 'batch'), { query: ['v'], output: ['html'], json: { prompt: 'lines' } })).toEqual([
      { pointer: '#/output', detail: 'must contain json on this route (it has no built-in parser)' },
    ]);
    expect(paramsOf(scrape('se1/maps'), { query: 'cafes', output: ['json'], json: { prompt: 'names' } })).toEqual({
      query: 'cafes', pages: 1, start_page: 1, ...BASE, output: ['json'], json: { prompt: 'names', schema: null },
    });
  });

  test('run-js-required (se1/aimode)', () => {
    expect(errorsOf(scrape('se1/aimode'), { query: 'q' })).toEqual([{ pointer: '#/run_js', detail: 'is required and must be true on this route' }]);
    expect(errorsOf(scrape('se1/aimode'), { query: 'q', run_js: false })).toEqual([{ pointer: '#/run_js', detail: 'must be true on this route' }]);
    expect(paramsOf(scrape('se1/aimode', 'async'), { query: 'q', run_js: true })).toEqual({ query: 'q', ...BASE, run_js: true, ...QUEUED });
  });

  test('mkt1-postal-fits-marketplace', () => {
    const P = scrape('mkt1/product');
    expect(paramsOf(P, { query: 'B000', location: '10001' })).toEqual({ query: 'B000', domain: 'com', ...BASE, location: '10001' });
    expect(errorsOf(P, { query: 'B000', location: 'SW1A 1AA' })).toEqual([
      { pointer: '#/location', detail: 'must be a postal code of the com marketplace: a US ZIP code (5 digits, optionally -4 more), e.g. 10001 (got "SW1A 1AA")' },
    ]);
    expect(paramsOf(P, { query: 'B000', domain: 'co.uk', location: 'SW1A 1AA' })).toMatchObject({ domain: 'co.uk', location: 'SW1A 1AA' });
    expect(paramsOf(P, { query: 'B000', domain: 'co.jp', location: '100-0001' })).toMatchObject({ location: '100-0001' });
    expect(errorsOf(P, { query: 'B000', domain: 'de', location: '1234' })).toEqual([
      { pointer: '#/location', detail: 'must be a postal code of the de marketplace: a German postal code (5 digits), e.g. 10115 (got "1234")' },
    ]);
    expect(errorsOf(P, { query: 'B000', domain: 'moon', location: '1' })).toEqual([
      { pointer: '#/domain', detail: expect.stringMatching(/^must be one of "com", "ca", /) },
      { pointer: '#/location', detail: 'must be at least 2 characters long' },
    ]);
    // The URL route has no domain: the marketplace is the URL's, when its host names one.
    const U = scrape('mkt1', 'batch');
    expect(errorsOf(U, { url: ['https://www.example.de/dp/1', 'https://www.example.co.uk/dp/2'], location: '10115' })).toEqual([
      { pointer: '#/location', detail: 'must be a postal code of the co.uk marketplace: a UK postcode (such as SW1A 1AA), e.g. SW1A 1AA (got "10115")' },
    ]);
    expect(paramsOf(scrape('mkt1'), { url: 'http://127.0.0.1:9000/dp/1', location: '10115' })).toMatchObject({ location: '10115', pages: 1 });
  });

  test('price-range-ordered', () => {
    expect(errorsOf(scrape('bigbox1/search'), { query: 'tv', min_price: 500, max_price: 100.5 })).toEqual([
      { pointer: '#/min_price', detail: 'must not be greater than max_price' },
    ]);
    expect(paramsOf(scrape('bigbox1/search'), { query: 'tv', min_price: 99.5, max_price: 100 })).toEqual({
      query: 'tv', max_price: 100, min_price: 99.5, start_page: 1, ...BASE,
    });
  });

  test('media-needs-storage', () => {
    const detail = 'is required on this route: the downloaded file is uploaded to the bucket it names';
    expect(errorsOf(scrape('media/video/download', 'async'), { query: 'v' })).toEqual([{ pointer: '#/storage', detail }]);
    expect(errorsOf(scrape('media/video/download', 'batch'), { query: ['v'], storage: null })).toEqual([{ pointer: '#/storage', detail }]);
    expect(errorsOf(scrape('media/video/download', 'async'), { query: 'v', storage: 's3://b' })).toEqual([{ pointer: '#/storage', detail: 'must be an object or null' }]);
  });

  test('time-range-ordered', () => {
    expect(errorsOf(scrape('media/video/download', 'batch'), { query: ['v'], start_at: '00:10:00', end_at: '00:09:59', storage: { type: 's3', url: 's3://b' } })).toEqual([
      { pointer: '#/end_at', detail: 'must be later than start_at' },
    ]);
  });
});

describe('OPTIONS example bodies (spec 2.4)', () => {
  test('search', () => {
    expect(exampleBody(SEARCH)).toEqual({ query: 'string', location: 'string', max_results: 'int' });
  });
  test('generic route, sync and async', () => {
    const sync = { url: 'string', output: ['string'], json: { prompt: 'string', schema: {} }, location: 'string', device: 'string', run_js: 'bool' };
    expect(exampleBody(UNI)).toEqual(sync);
    expect(exampleBody(scrape('universal', 'async'))).toEqual({ ...sync, callback_url: 'string', storage: { type: 'string', url: 'string' } });
  });
  test('batch input is a one-element array; nested arrays of objects; numbers', () => {
    expect(exampleBody(scrape('mkt1/product', 'batch'))).toEqual({
      query: ['string'], autoselect_variant: 'bool', check_empty_geo: 'bool', currency: 'string', domain: 'string', locale: 'string', safe_search: 'bool',
      output: ['string'], json: { prompt: 'string', schema: {} }, location: 'string', device: 'string', run_js: 'bool',
      callback_url: 'string', storage: { type: 'string', url: 'string' },
    });
    expect(exampleBody(scrape('se1/search'))).toMatchObject({ limit_per_page: [{ page: 'int', limit: 'int' }], filter: 'int' });
    expect(exampleBody(scrape('se1/travel/hotels'))).toMatchObject({ hotel_classes: ['int'], adults: 'int' });
    expect(exampleBody(scrape('bigbox1/search'))).toMatchObject({ max_price: 'number', start_page: 'int' });
  });
  test('video download', () => {
    expect(exampleBody(scrape('media/video/download', 'async'))).toEqual({
      query: 'string', audio_format: 'string', audio_language: 'string', start_at: 'string', end_at: 'string', video_format: 'string', video_quality: 'string',
      output: 'string', location: 'string', device: 'string', run_js: 'bool', callback_url: 'string', storage: { type: 'string', url: 'string' },
    });
  });
});

describe('compiled validators and OpenAPI', () => {
  test('warming compiles the validators a slice at a time, between turns of the event loop', async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const n = await warmValidators(40);
    clearInterval(ticker);
    expect(n).toBe(allEndpoints().length);
    expect(turns).toBeGreaterThan(0);
  });

  test('compileAll compiles one validator per endpoint', () => {
    expect(compileAll()).toBe(allEndpoints().length);
    // search, map and crawl besides the scrape paths.
    expect(allEndpoints().length).toBe(scrapePaths().length + 3);
  });

  test('the OpenAPI document lists every path and its schemas compile', () => {
    const doc = openApiDocument() as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
      components: { schemas: Record<string, object>; securitySchemes: object };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearerAuth', 'basicAuth']);
    const fixed = ['/v1/search', '/v1/map', '/v1/async/crawl', '/v1/async/crawl/{id}', '/v1/async/scrape/{request_id}', '/v1/scrapers', '/v1/{endpoint}', '/v1/openapi.json', '/healthz', '/readyz', '/metrics'];
    const operations = ['/v1/status', '/v1/status/jobs/{job_id}', '/v1/feed', '/console', '/mcp', '/v1/queries', '/v1/queries/batch', '/v1/queries/{id}', '/v1/queries/{id}/results', '/v2/stats'];
    expect(Object.keys(doc.paths).sort()).toEqual([...fixed, ...operations, ...scrapePaths()].sort());
    for (const p of scrapePaths()) expect(Object.keys(doc.paths[p]!)).toEqual(['post']);
    expect(doc.paths['/v1/async/scrape/batch/se1/search']!.post!.requestBody!.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/se1_search.batch',
    });
    const opIds = Object.values(doc.paths).flatMap((item) => Object.entries(item).filter(([k]) => k !== 'servers').map(([, op]) => op.operationId));
    expect(new Set(opIds).size).toBe(opIds.length);

    // Every component is valid JSON Schema 2020-12 and compiles with references resolved.
    const ajv = addGleanerVocabulary(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'https://gleaner.test/openapi', components: doc.components });
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(ajv.validateSchema(schema), name).toBe(true);
      expect(typeof ajv.getSchema(`https://gleaner.test/openapi#/components/schemas/${name}`), name).toBe('function');
    }
    const problemOk = ajv.getSchema('https://gleaner.test/openapi#/components/schemas/Problem')!;
    const problem = buildProblem('VALIDATION_ERROR', { errors: [{ pointer: '#/query', detail: 'is required' }] });
    expect(problemOk(JSON.parse(JSON.stringify(problem)))).toBe(true);
  });
});
