/**
 * The LLM extractor against a real local chat-completions server (test/helpers/llm-server.ts):
 * what it sends (Markdown, schema, model, key), structured output and its JSON-mode fallback,
 * the one repair re-ask, 429 retries, deadlines, chunking, and keys kept out of errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmConfig } from '../../core/config.js';
import { GleanerError } from '../../core/errors.js';
import { tidyMarkdown } from '../../core/extraction/chunk.js';
import { checkExtractionConfig, extractJson } from '../../core/extraction/index.js';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import { type LlmServer, REJECT_RESPONSE_FORMAT, startLlmServer } from '../helpers/llm-server.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const URL_ = 'https://shop.example/p/aero-3000';
const HTML = '<html><body><h1>Aero 3000</h1><p>Price: 1.299,00 €</p></body></html>';
const MARKDOWN = '# Aero 3000\n\nPrice: 1.299,00 €\n\nIn stock.';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, in_stock: { type: 'boolean' } },
  required: ['name', 'price'],
};
const SYSTEM =
  'You extract data from web pages. Reply with JSON only: no prose, no code fences. ' +
  'Use only facts the page states; where it says nothing, use null.';

let llm: LlmServer;
let config: LlmConfig;

beforeEach(async () => {
  llm = await startLlmServer();
  config = { url: llm.url, key: KEY, model: 'test-model-1' };
});

afterEach(async () => {
  await llm.close();
});

function userText(lines: string[], markdown = MARKDOWN): string {
  return [`Page URL: ${URL_}`, '', ...lines, '', 'Page content (Markdown):', '<<<', markdown, '>>>'].join('\n');
}

async function failure(p: Promise<unknown>): Promise<GleanerError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GleanerError);
    return err as GleanerError;
  }
  throw new Error('expected a failure');
}

describe('LLM extraction', () => {
  it('sends Markdown, schema (response_format), model and key; returns the validated answer', async () => {
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 1299, in_stock: true } });
    const result = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config });
    expect(result).toEqual({ json: { name: 'Aero 3000', price: 1299, in_stock: true }, source: 'llm', unfilled: [], chunks: 1, truncated: false });
    expect(llm.requests.length).toBe(1);
    const req = llm.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: 'test-model-1',
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: userText(['Fill the requested JSON structure from the page.']) },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'extraction', schema: SCHEMA, strict: false } },
    });
  });

  it('converts the HTML to Markdown when none is given', async () => {
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    const result = await extractJson({ html: HTML, url: URL_ }, { schema: SCHEMA }, { llm: config });
    expect(result).toEqual({ json: { name: 'Aero 3000', price: 1299 }, source: 'llm', unfilled: ['/in_stock'], chunks: 1, truncated: false });
    const md = tidyMarkdown(htmlToMarkdown(HTML, URL_));
    expect(llm.requests[0]!.body.messages[1]!.content).toBe(userText(['Fill the requested JSON structure from the page.'], md));
  });

  it('json.prompt asks in JSON mode and returns the parsed answer', async () => {
    llm.enqueue({ kind: 'text', content: '```json\n{"summary": "An espresso machine", "euros": 1299}\n```' });
    const result = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { prompt: 'Summarise the product and its price in euros.' }, { llm: config });
    expect(result).toEqual({ json: { summary: 'An espresso machine', euros: 1299 }, source: 'llm', chunks: 1, truncated: false });
    expect(llm.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
    expect(llm.requests[0]!.body.messages[1]!.content).toBe(
      userText(['Task:', 'Summarise the product and its price in euros.', '', 'Return the result as one JSON object.']),
    );
  });

  it('repairs an invalid answer with one re-ask carrying the validation errors', async () => {
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 'cheap' } }, { kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    const result = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config });
    expect(result.json).toEqual({ name: 'Aero 3000', price: 1299 });
    expect(llm.requests.length).toBe(2);
    expect(llm.requests[1]!.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: '{"name":"Aero 3000","price":"cheap"}' },
      { role: 'user', content: 'Your answer is invalid: /price must be number. Reply again with corrected JSON only.' },
    ]);
  });

  it('fails with EXTRACTION_FAILED naming the problem when the repair is invalid too', async () => {
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 'cheap' } }, { kind: 'json', value: { name: 'Aero 3000' } });
    const err = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config }));
    expect(err.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: "The language model's answer is still invalid after one repair attempt: / must have required property 'price'.",
      data: { reason: 'invalid_answer', problem: "/ must have required property 'price'" },
    });
  });

  it('retries a 429 after its Retry-After', async () => {
    llm.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached' } } });
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    const result = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config });
    expect(result.json).toEqual({ name: 'Aero 3000', price: 1299 });
    expect(llm.requests.length).toBe(2);
    expect(llm.requests[1]!.raw).toBe(llm.requests[0]!.raw);
  });

  it('honours a 503 Retry-After too (the shared retry helper), not a 500 one', async () => {
    llm.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '120' }, body: { error: { message: 'overloaded' } } });
    const late = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, timeoutMs: 5000 }));
    expect(late.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model endpoint asked to retry in 120 s (HTTP 503), past the extraction deadline.',
      data: { reason: 'upstream', status: 503 },
    });
    expect(llm.requests.length).toBe(1);
    // A 500's Retry-After is not a promise: the backoff (0.5 s) applies.
    llm.enqueue({ kind: 'status', status: 500, headers: { 'retry-after': '120' } }, { kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    const ok = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, timeoutMs: 5000 });
    expect([ok.json, llm.requests.length]).toEqual([{ name: 'Aero 3000', price: 1299 }, 3]);
  });

  it('gives up on 429 when Retry-After passes the deadline, and after the bounded retries', async () => {
    llm.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const late = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, timeoutMs: 5000 }));
    expect(late.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model endpoint asked to retry in 120 s (HTTP 429), past the extraction deadline.',
      data: { reason: 'rate_limited', status: 429 },
    });
    llm.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { kind: 'status', status: 429, headers: { 'retry-after': '0' } });
    const bounded = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, maxRetries: 1 }));
    expect(bounded.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model endpoint kept answering 429 (rate limited) after 2 attempts.',
      data: { reason: 'rate_limited', status: 429 },
    });
  });

  it('turns a hang past the deadline into EXTRACTION_FAILED', async () => {
    llm.enqueue({ kind: 'hang' });
    const err = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, timeoutMs: 300 }));
    expect(err.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model did not answer within the extraction deadline (300 ms).',
      data: { reason: 'timeout' },
    });
  });

  it('turns 5xx (after retries) and a non-JSON body into EXTRACTION_FAILED', async () => {
    llm.enqueue({ kind: 'status', status: 502, body: { error: { message: 'bad gateway' } } }, { kind: 'status', status: 503, body: { error: { message: 'overloaded' } } });
    const e5 = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config, maxRetries: 1 }));
    expect(e5.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model endpoint failed with HTTP 503 after 2 attempts: overloaded',
      data: { reason: 'upstream', status: 503 },
    });
    llm.enqueue({ kind: 'raw', status: 200, body: '<html>proxy login</html>' });
    const bad = await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config }));
    expect(bad.toWire()).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The language model endpoint answered with a body that is not JSON.',
      data: { reason: 'malformed' },
    });
  });

  it('falls back to JSON mode with the schema in the prompt when response_format is rejected', async () => {
    llm.enqueue(REJECT_RESPONSE_FORMAT, { kind: 'json', value: { name: 'Aero 3000', price: 1299, in_stock: true } });
    const result = await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config });
    expect(result.json).toEqual({ name: 'Aero 3000', price: 1299, in_stock: true });
    expect(llm.requests.length).toBe(2);
    expect(llm.requests[1]!.body.response_format).toEqual({ type: 'json_object' });
    expect(llm.requests[1]!.body.messages[1]!.content).toBe(
      userText(['Return JSON that validates against this JSON Schema:', JSON.stringify(SCHEMA)]),
    );
    // The endpoint's answer is remembered: the next extraction starts in JSON mode.
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    await extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: config });
    expect(llm.requests[2]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('chunks a long page and merges the answers (arrays unioned, first non-null scalar)', async () => {
    const para = (c: string) => c.repeat(2000);
    const markdown = [para('a'), para('b'), para('c')].join('\n\n');
    const schema = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, price: { type: 'number' } }, required: ['name'] };
    llm.enqueue({ kind: 'json', value: { name: 'First', tags: ['x', 'y'], price: null } }, { kind: 'json', value: { name: 'Second', tags: ['y', 'z'], price: 5 } });
    const result = await extractJson({ html: HTML, url: URL_, markdown }, { schema }, { llm: config, maxInputTokens: 1000, maxChunks: 2 });
    expect(result).toEqual({ json: { name: 'First', tags: ['x', 'y', 'z'], price: 5 }, source: 'llm', unfilled: [], chunks: 2, truncated: true });
    expect(llm.requests.map((r) => r.body.messages[1]!.content.split('\n')[1])).toEqual([
      'This is part 1 of 3 of the page: answer from this part only, null for what it does not say.',
      'This is part 2 of 3 of the page: answer from this part only, null for what it does not say.',
    ]);
    expect(llm.requests[0]!.body.response_format!.json_schema!.schema).toEqual({
      type: 'object',
      properties: { name: { type: ['string', 'null'] }, tags: { type: ['array', 'null'], items: { type: ['string', 'null'] } }, price: { type: ['number', 'null'] } },
    });
  });
});

describe('configuration checks', () => {
  it('refuses json.prompt without a model, up front and at extraction', async () => {
    expect(() => checkExtractionConfig({ prompt: 'Get the price' }, undefined)).toThrow(GleanerError);
    const err = await failure(extractJson({ html: HTML, url: URL_ }, { prompt: 'Get the price' }, { llm: undefined }));
    expect(err.toWire()).toEqual({
      code: 'LLM_NOT_CONFIGURED',
      message: 'Extraction by prompt needs a language model: set GLEANER_LLM_URL (and GLEANER_LLM_MODEL, GLEANER_LLM_KEY as the endpoint requires).',
    });
  });

  it('refuses both or neither of prompt and schema, and a schema ajv cannot compile', () => {
    const wire = (f: () => void): unknown => {
      try {
        f();
      } catch (err) {
        return (err as GleanerError).toWire();
      }
      return undefined;
    };
    expect(wire(() => checkExtractionConfig({ prompt: 'x', schema: SCHEMA }, config))).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'json takes either prompt or schema, not both.',
      data: { errors: [{ pointer: '#/json', detail: 'json takes either prompt or schema, not both.' }] },
    });
    expect(wire(() => checkExtractionConfig({ schema: { type: 'object', properties: { a: { type: 'nope' } } } }, undefined))).toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { errors: [{ pointer: '#/json/schema' }] },
    });
    expect(wire(() => checkExtractionConfig({ schema: SCHEMA }, undefined))).toBe(undefined);
  });
});

describe('secrets', () => {
  it('never puts the key in an error, whatever the endpoint echoes', async () => {
    const errors: GleanerError[] = [];
    const run = async (cfg: LlmConfig, opts: { timeoutMs?: number; maxRetries?: number } = {}) =>
      errors.push(await failure(extractJson({ html: HTML, url: URL_, markdown: MARKDOWN }, { schema: SCHEMA }, { llm: cfg, ...opts })));
    llm.enqueue({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.` } } });
    await run(config);
    llm.enqueue({ kind: 'status', status: 500, body: `internal error for Bearer ${KEY}` });
    await run(config, { maxRetries: 0 });
    llm.enqueue({ kind: 'json', value: { name: KEY, price: KEY } }, { kind: 'json', value: { name: KEY, price: `${KEY}!` } });
    await run(config);
    llm.enqueue({ kind: 'hang' });
    await run(config, { timeoutMs: 200 });
    llm.enqueue({ kind: 'status', status: 404, body: { error: { message: `no route ${llm.url}?api-key=${KEY}` } } });
    await run({ ...config, url: `${llm.url}?api-key=${KEY}` });
    await run({ url: 'http://127.0.0.1:1/v1', key: KEY, model: 'm' }, { maxRetries: 0 });
    expect(errors.map((e) => e.code)).toEqual(Array(6).fill('EXTRACTION_FAILED'));
    expect(errors[0]!.message).toBe('The language model endpoint refused the request (HTTP 401): Incorrect API key provided: [redacted].');
    for (const e of errors) {
      const text = JSON.stringify({ message: e.message, data: e.data, wire: e.toWire(), stack: e.stack });
      expect(text.includes(KEY)).toBe(false);
      expect(text.includes(KEY.slice(0, 8)) || text.includes(KEY.slice(-8))).toBe(false);
    }
  });
});
