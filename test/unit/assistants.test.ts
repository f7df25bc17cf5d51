/**
 * The assistants' core pieces without a browser: the chat flow planned from the shipped data
 * (and from replacement keys), the start-up check of a GLEANER_ASSISTANTS file, the config
 * carrying it to the planner, the event-stream reader, and the parsers on captured values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { routeById } from '../../core/registry/index.js';
import { checkAssistants, checkTargets, parsePage, planFlows } from '../../core/targets/index.js';
import type { BrowserStep } from '../../core/targets/browser-step.js';
import { readEventStream } from '../../core/targets/assistants/stream.js';

const SIM = 'http://127.0.0.1:9';
const targets = { llm1: { baseUrl: `${SIM}/llm1` }, llm2: { baseUrl: `${SIM}/llm2` }, llm3: { baseUrl: `${SIM}/llm3`, storageState: '/srv/llm3.json' } };
const stepOf = (id: string, params: Record<string, unknown>, t: Record<string, any> = targets) => {
  const flows = planFlows(routeById(id)!, params, t);
  expect(flows).toHaveLength(1);
  return { flow: flows[0]!, step: flows[0]!.steps[0] as BrowserStep };
};

describe('plan', () => {
  it('llm1: open, type the question, set the search toggle, send, complete; stream and captures declared', () => {
    const { flow, step } = stepOf('llm1', { query: 'hi & bye', search: true });
    expect(flow.vars).toEqual({ query: 'hi & bye', search: 'true' });
    expect(step).toMatchObject({ kind: 'browser', url: `${SIM}/llm1/`, stream: '/backend-anon/f/conversation', selectorMs: 10000 });
    expect(step.actions.map((a) => [a.do, 'selector' in a ? a.selector : a.completion.answer, a.when?.equals ?? null])).toEqual([
      ['type', '#prompt-textarea', null],
      ['click', 'button[data-testid="search-toggle"][aria-pressed="false"]', 'true'],
      ['click', 'button[data-testid="search-toggle"][aria-pressed="true"]', 'false'],
      ['click', 'button[data-testid="send-button"]', null],
      ['complete', '[data-message-author-role="assistant"] .markdown', null],
    ]);
    expect(step.capture?.model).toEqual({ selector: '[data-message-author-role="assistant"]', value: '@data-message-model-slug' });
    expect(step.failures?.find((f) => f.kind === 'challenge')).toEqual({ kind: 'challenge', selector: '#challenge-form', clearsWithinMs: 3000 });
  });

  it('an omitted search leaves the page default; llm3 carries its storage state', () => {
    expect(stepOf('llm1', { query: 'x' }).step.actions.filter((a) => a.when)).toEqual([]);
    expect(stepOf('llm3', { query: 'x' }).step.storageState).toBe('/srv/llm3.json');
  });

  it('replacement keys replace the shipped ones', () => {
    const t = { ...targets, llm2: { baseUrl: `${SIM}/llm2`, assistant: { answer: '.answer-v2', selectorMs: 500 } } };
    const { step } = stepOf('llm2', { query: 'x' }, t);
    expect(step.selectorMs).toBe(500);
    expect(step.capture?.answer_html).toEqual({ selector: '.answer-v2', value: 'html' });
  });

  it('each failure kind has its code, retry and detail', () => {
    const { step } = stepOf('llm1', { query: 'x' });
    const v = (k: Parameters<BrowserStep['failed']>[0]) => {
      const r = step.failed(k, 'seen');
      return [r.code, r.retry, r.message.split(':').slice(0, 2).join(':')];
    };
    expect([v('login'), v('challenge'), v('rate_limit'), v('selector'), v('incomplete')]).toEqual([
      ['REQUEST_FAILED_AFTER_MANY_RETRIES', false, 'llm1: login wall'],
      ['REQUEST_FAILED_AFTER_MANY_RETRIES', true, 'llm1: bot challenge'],
      ['REQUEST_FAILED_AFTER_MANY_RETRIES', true, 'llm1: rate limited'],
      ['REQUEST_FAILED_AFTER_MANY_RETRIES', false, 'llm1: page changed'],
      ['REQUEST_FAILED_SCRAPE_TIMEOUT', false, 'llm1: answer incomplete'],
    ]);
    expect(step.failed('selector', 'x').data).toEqual({ assistant: 'llm1', failure: 'selector' });
  });
});

describe('GLEANER_ASSISTANTS', () => {
  it('a good file passes; each problem names the file, the assistant and the key', () => {
    expect(checkAssistants({ llm1: { answer: '.a', stableMs: 100 } }, 'a.json')).toEqual([]);
    expect(checkAssistants({ llm4: {}, llm1: { answer: 'div[', stableMs: -1, colour: 'red', done: [] }, llm3: { failures: { captcha: '#c' } } }, 'a.json')).toEqual([
      'a.json: "llm4" is not an assistant (llm1, llm2, llm3)',
      'a.json: llm1: unknown key "colour"',
      'a.json: llm1: done must list at least one signal ({"visible": sel} or {"gone": sel})',
      expect.stringMatching(/^a\.json: llm1: answer is not a valid CSS selector/),
      'a.json: llm1: stableMs must be a whole number of milliseconds (0 to 600000)',
      'a.json: llm3: failures.captcha: the kinds are login, challenge and rate_limit',
    ]);
    expect(checkAssistants([], 'a.json')).toEqual(['a.json: must be a JSON object of assistants ({"llm1": {...}})']);
  });

  it('the config carries each entry to its target, where the targets check sees it too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-assist-'));
    try {
      writeFileSync(join(dir, 't.json'), JSON.stringify(targets));
      writeFileSync(join(dir, 'a.json'), JSON.stringify({ llm2: { selectorMs: 'soon' } }));
      const config = loadConfig({ GLEANER_TARGETS: join(dir, 't.json'), GLEANER_ASSISTANTS: join(dir, 'a.json'), GLEANER_ASSISTANT_CONCURRENCY: '3' });
      expect(config.targets.llm2).toEqual({ baseUrl: `${SIM}/llm2`, assistant: { selectorMs: 'soon' } });
      expect(config.assistantConcurrency).toBe(3);
      expect(checkAssistants(config.assistants, 'a.json')).toEqual(['a.json: llm2: selectorMs must be a whole number of milliseconds (0 to 600000)']);
      expect(checkTargets(config.targets, 't.json').errors).toEqual([
        't.json: target "llm2": assistant data: selectorMs must be a whole number of milliseconds (0 to 600000)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the shipped data is valid', () => {
    expect(checkTargets(targets, 't.json').errors).toEqual([]);
  });
});

describe('event stream', () => {
  it('seed, explicit and bare appends, patch lists, replace, [DONE]', () => {
    const ev = (v: unknown) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`;
    const body =
      ev({ p: '', o: 'add', v: { message: { content: { parts: [''] }, metadata: { model_slug: 'm-1' } } } }) +
      ev({ p: '/message/content/parts/0', o: 'append', v: 'Hel' }) +
      ev({ v: 'lo' }) +
      'event: delta\n' +
      ev({ p: '', o: 'patch', v: [{ p: '/message/content/parts/0', o: 'append', v: ', world' }, { p: '/message/metadata/model_slug', o: 'replace', v: 'm-2' }] }) +
      ev('not json') +
      ev('[DONE]');
    expect(readEventStream(body)).toEqual({ text: 'Hello, world', model: 'm-2', done: true });
    expect(readEventStream(ev({ message: { content: { parts: ['whole'] } } }))).toEqual({ text: 'whole', model: undefined, done: false });
    expect(readEventStream('')).toEqual({ text: '', model: undefined, done: false });
  });
});

describe('parsers', () => {
  const input = (id: string, capture: unknown, stream?: string) =>
    parsePage(id, { html: '<html></html>', url: 'https://chat.example/c/1', page: 1, params: { query: 'q?' }, parts: { capture: [JSON.stringify(capture)], ...(stream ? { stream: [stream] } : {}) } })!;

  it('llm2 from the page: text, Markdown with list, code and link, citations resolved, links once', () => {
    const html = '<p>Intro <a href="/docs">docs</a></p><ul><li>one</li><li>two <a href="/docs">again</a></li></ul><pre><code class="language-py">print(1)</code></pre>';
    const out = input('llm2', { answer_html: html, answer_text: 'Intro docs\none\ntwo again', model: ' M ', citations: [{ url: '/src', title: ' S ', text: null }, { url: null }] });
    expect(out.status).toBe('parsed');
    expect(out.json).toEqual({
      prompt: 'q?',
      response_text: 'Intro docs\none\ntwo again',
      markdown_text: 'Intro [docs](https://chat.example/docs)\n\n- one\n- two [again](https://chat.example/docs)\n\n```py\nprint(1)\n```',
      model: 'M',
      citations: [{ url: 'https://chat.example/src', title: 'S', text: '' }],
      links: [{ url: 'https://chat.example/docs', text: 'docs' }],
    });
  });

  it('llm1 prefers the stream; nothing found is unrecognised, never a throw', () => {
    const stream = 'data: {"p":"/message/content/parts/0","o":"append","v":"streamed"}\n\ndata: [DONE]\n\n';
    expect(input('llm1', { answer_text: 'rendered' }, stream).json).toMatchObject({ response_text: 'streamed', markdown_text: 'streamed' });
    expect(input('llm1', 'garbage').status).toBe('unrecognised');
    expect(parsePage('llm3', { html: '', url: 'x', page: 1, params: {}, parts: { capture: ['{not json'] } })?.status).toBe('unrecognised');
  });
});
