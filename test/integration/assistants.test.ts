/**
 * The assistants llm1, llm2, llm3 through the API against the simulator's three chat pages:
 * submit async jobs, collect them, and compare with the simulator's own answers. Covers the
 * exact question reaching the page, `search` changing what llm1 is asked, Markdown keeping
 * lists, code and links, the stream read where there is one, each failure mode with its own
 * problem, the failure counter in /metrics, and batches under the per-assistant cap.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { until } from '../helpers/wait.js';
import { llm1Answer, llm2Answer, llm3Answer, slugOf } from '../sites/assistant-answers.js';
import { ASKED, SIGNED_IN_COOKIE } from '../sites/assistants.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let gw: TestGateway;
let profileDir: string;

beforeAll(async () => {
  sim = await startSimulator();
  // Shorter waits than the shipped data, through the same replacement keys GLEANER_ASSISTANTS carries.
  const assistant = { selectorMs: 3000, challengeClearsMs: 1500 };
  // llm2 has a signed-in profile (a Playwright storage state with the simulator's session cookie).
  profileDir = mkdtempSync(join(tmpdir(), 'gleaner-profile-'));
  const [name, value] = SIGNED_IN_COOKIE.split('=');
  const storageState = join(profileDir, 'llm2.json');
  writeFileSync(storageState, JSON.stringify({ cookies: [{ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }], origins: [] }));
  const targets: Record<string, TargetConfig> = Object.fromEntries(['llm1', 'llm2', 'llm3'].map((t) => [t, { baseUrl: `${sim.origin}/${t}`, assistant }]));
  targets.llm2 = { ...targets.llm2!, storageState };
  gw = await startGateway({
    targets,
    // The never-ending answer ends at the job's deadline (room for a cold browser on a loaded machine).
    jobTimeoutMs: 20_000,
    assistantConcurrency: 2,
  });
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await sim?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

async function ask(route: string, body: Record<string, unknown>): Promise<any> {
  const a = await postJson(gw, `/v1/async/scrape/${route}`, { output: ['json'], ...body });
  expect(a.status).toBe(202);
  return waitDone(a.body.metadata.request_id);
}

async function waitDone(id: string): Promise<any> {
  return until(async () => {
    const a = await call(`${gw.url}/v1/async/scrape/${id}`, { headers: gw.auth });
    return a.body?.status !== 'pending' && a.body;
  }, `job ${id} to finish`, 60_000, 100);
}

const askedOf = (assistant: string, question: string) => ASKED.filter((a) => a.assistant === assistant && a.question === question);

describe('answers', () => {
  test('llm1: the answer read from the event stream, Markdown from the page, search toggled on', async () => {
    const question = 'How do I print "hello" & <exit>? ünïcode';
    const done = await ask('llm1', { query: question, search: true });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    const expected = llm1Answer(question, true);
    const json = done.results[0].json;
    expect(json.response_text).toBe(expected.markdown);
    expect(json.model).toBe('sim-4o-search');
    expect(json.prompt).toBe(question);
    expect(json.citations).toEqual(expected.citations);
    const slug = slugOf(question);
    expect(json.markdown_text).toContain(`- First, read the [guide](https://docs.example.org/${slug}).`);
    expect(json.markdown_text).toContain('```js\nconsole.log("' + slug + '");\n```');
    expect(json.links).toEqual([{ url: `https://docs.example.org/${slug}`, text: 'guide' }]);
    expect(done.results[0].metadata.parse_status).toBe('parsed');
    expect(askedOf('llm1', question)).toEqual([{ assistant: 'llm1', question, search: true }]);
  }, 60_000);

  test('the answer is filled whatever output says; HTML comes alongside only when asked', async () => {
    const question = 'What does output change?';
    const submitted = await postJson(gw, '/v1/async/scrape/llm1', { query: question, search: false });
    expect([submitted.status, submitted.body.params.output]).toEqual([202, ['json']]);
    const plain = await waitDone(submitted.body.metadata.request_id);
    expect([plain.status, plain.results[0].json.response_text, plain.results[0].html]).toEqual(['done', llm1Answer(question, false).markdown, null]);
    const withHtml = await ask('llm2', { query: question, output: ['html'] });
    expect([withHtml.results[0].json.model, typeof withHtml.results[0].html, withHtml.results[0].markdown]).toEqual([llm2Answer(question).model, 'string', null]);
  }, 60_000);

  test('llm1: search false leaves the toggle off, and the page is asked without browsing', async () => {
    const question = 'what is a monad';
    const done = await ask('llm1', { query: question, search: false });
    expect(askedOf('llm1', question)).toEqual([{ assistant: 'llm1', question, search: false }]);
    expect(done.results[0].json.response_text).toBe(llm1Answer(question, false).markdown);
    expect(done.results[0].json.model).toBe('sim-4o');
    expect(done.results[0].json.citations).toEqual([]);
  }, 60_000);

  test('llm2: rendered word by word with no stream; the send button back ends it', async () => {
    const question = 'list two steps\nand a command';
    const done = await ask('llm2', { query: question });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    expect(askedOf('llm2', question)).toHaveLength(1);
    const slug = slugOf(question);
    const json = done.results[0].json;
    expect(json.model).toBe('2.5 Sim');
    expect(json.response_text).toContain(`Here is a short answer on ${slug}.`);
    expect(json.markdown_text).toContain(`1. Open the [help page](https://help.example.com/${slug}).`);
    expect(json.markdown_text).toContain(`\`\`\`sh\necho ${slug}\n\`\`\``);
    expect(json.citations).toEqual(llm2Answer(question).citations);
  }, 60_000);

  test('llm3: a result page with the answer, sources and related questions', async () => {
    const question = 'is the sky blue';
    const done = await ask('llm3', { query: question });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    expect(askedOf('llm3', question)).toHaveLength(1);
    const expected = llm3Answer(question);
    const json = done.results[0].json;
    expect(json.answer_results).toEqual([
      `The short answer about ${slugOf(question)} is yes [1].`,
      { list: [['It is well documented [2].', 'It is widely used.']] },
      { table: [{ table_columns: [['Option', 'Cost']], table_rows: [[['Basic'], ['Free']], [['Pro'], ['10']]] }] },
    ]);
    expect(json.related_queries).toEqual(expected.related);
    expect(json.additional_results.sources_results).toEqual(expected.sources);
    expect(json.model).toBe('turbo');
    expect(json.answer_results_md).toContain(`- It is [widely used](https://source-one.example.org/${slugOf(question)}).`);
    expect(json.url).toContain('/llm3/search/new?q=');
  }, 60_000);
});

describe('failure modes', () => {
  const failing = (title: string, detail: RegExp) => ({ status: 'faulted', error: { title, status: expect.any(Number), detail: expect.stringMatching(detail) } });

  test.each([
    ['llm1', 'login', /^llm1: login wall: /, 1],
    ['llm3', 'login', /^llm3: login wall: /, 1],
    ['llm1', 'challenge', /^llm1: bot challenge: .*did not clear/, 3],
    ['llm3', 'challenge', /^llm3: bot challenge: /, 3],
    ['llm2', 'rate-limit', /^llm2: rate limited: /, 3],
    ['llm3', 'rate-limit', /^llm3: rate limited: /, 3],
    ['llm1', 'changed', /^llm1: page changed: the answer .* is missing/, 1],
    ['llm2', 'changed', /^llm2: page changed: /, 1],
  ])('%s %s: REQUEST_FAILED_AFTER_MANY_RETRIES with its detail', async (assistant, mode, detail, attempts) => {
    const question = `trouble ${mode} [sim:${mode}]`;
    const done = await ask(assistant, { query: question });
    expect(done).toMatchObject(failing('REQUEST_FAILED_AFTER_MANY_RETRIES', detail));
    // Retried on another attempt only where that can help (not a login wall or a changed page).
    expect(askedOf(assistant, question).length).toBe(attempts);
  }, 90_000);

  test('a page slow to start answering is waited for, not taken for a changed page', async () => {
    const question = 'take your time [sim:slow]';
    const done = await ask('llm1', { query: question });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    expect(done.results[0].json.response_text).toBe(llm1Answer(question, undefined).markdown);
  }, 60_000);

  test('a signed-in profile (storageState) passes the login wall', async () => {
    const done = await ask('llm2', { query: 'members only [sim:login]' });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    expect(done.results[0].json.response_text).toContain('Here is a short answer');
  }, 60_000);

  test('a challenge that clears by itself is waited out', async () => {
    const question = 'patience [sim:challenge-clears]';
    const done = await ask('llm2', { query: question });
    expect([done.status, done.error]).toEqual(['done', undefined]);
    expect(done.results[0].json.response_text).toContain('Here is a short answer');
  }, 60_000);

  test('an answer that never completes ends at the deadline with its own detail', async () => {
    const done = await ask('llm1', { query: 'go on forever [sim:endless]' });
    expect(done).toMatchObject(failing('REQUEST_FAILED_SCRAPE_TIMEOUT', /^llm1: answer incomplete: /));
  }, 90_000);

  test('failures are counted per assistant and kind in /metrics', async () => {
    // A job reads as finished once its record is committed; the counter moves when the runner
    // announces it, a moment later (under load, later still): wait for the lines, with a deadline.
    const lines = [
      'gleaner_assistant_failures_total{assistant="llm1",kind="login"} 1',
      'gleaner_assistant_failures_total{assistant="llm2",kind="selector"} 1',
      'gleaner_assistant_failures_total{assistant="llm3",kind="rate_limit"} 1',
      'gleaner_assistant_failures_total{assistant="llm1",kind="incomplete"} 1',
    ];
    const text = await until(async () => {
      const m = await call(`${gw.url}/metrics`, { headers: gw.auth });
      expect(m.status).toBe(200);
      return lines.every((line) => m.text.includes(line)) && m.text;
    }, `the failure counters ${lines.join(', ')}`, 10_000);
    expect(text.split('\n').filter((l) => l.startsWith('gleaner_assistant_failures_total{'))).toEqual(expect.arrayContaining(lines));
  });
});

describe('batch', () => {
  test('each question its own job, all answered under the per-assistant cap', async () => {
    const questions = ['batch one', 'batch two', 'batch three', 'batch four', 'batch five'];
    const a = await postJson(gw, '/v1/async/scrape/batch/llm2', { query: questions, output: ['json'] });
    expect(a.status).toBe(202);
    const ids: string[] = a.body.data.map((q: any) => q.metadata.request_id);
    const done = await Promise.all(ids.map(waitDone));
    expect(done.map((d) => d.status)).toEqual(questions.map(() => 'done'));
    for (const q of questions) expect(askedOf('llm2', q)).toHaveLength(1);
  }, 120_000);
});
