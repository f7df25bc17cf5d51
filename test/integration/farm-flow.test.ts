/**
 * The flow executor (farm/worker/flow.ts) on real sockets against the simulator's flow site:
 * a token read from one step and sent as a header of the next, cookies carried across steps
 * and into the browser, variables in a JSON body, sessions reused and dropped, follow-up pages,
 * optional steps, and `check` verdicts with their last resort. The executor runs in this
 * process with a worker environment of its own (test/helpers/flow-runner.ts), so each step is
 * observable.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FetchStep, Flow } from '../../core/targets/flow.js';
import { failure } from '../helpers/farm.js';
import { createFlowRunner, type FlowRunner } from '../helpers/flow-runner.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let runner: FlowRunner;

beforeAll(async () => {
  sim = await startSimulator();
  runner = createFlowRunner();
});

afterAll(async () => {
  await runner?.close();
  await sim?.close();
});

const run = (flow: Flow, runJs = false) => runner.run(flow, { runJs });
const text = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];

/** The handshake: start (cookie + token) → apply (token header, JSON body) → page. */
function handshake(place: string, extra: Partial<Flow> = {}): Flow {
  return {
    page: 1,
    steps: [
      { kind: 'fetch', name: 'start', url: `${sim.origin}/flow/start`, setup: true, read: { token: { from: 'body', pattern: /"token":"([^"]+)"/ }, sid: { from: 'cookie', name: 'sid' } } },
      {
        kind: 'fetch',
        name: 'apply',
        method: 'POST',
        url: `${sim.origin}/flow/apply?for={{sid}}`,
        headers: { 'x-token': '{{token}}', 'content-type': 'application/json' },
        body: `{"place":"{{place}}"}`,
        setup: true,
        keep: true,
      },
      { kind: 'fetch', name: 'page', url: `${sim.origin}/flow/page`, headers: { cookie: 'lang=de' } },
    ],
    vars: { place },
    ...extra,
  };
}

describe('flow executor', () => {
  test('a token and cookies from one step reach the next; the page is fetched in that session', async () => {
    const out = await run(handshake('10 "quoted" 115'));
    expect(text(out.page.body, 'place')).toBe('10 "quoted" 115');
    expect(text(out.page.body, 'lang')).toBe('de');
    expect(out.parts.apply).toEqual([`{"ok":1,"echo":${JSON.stringify('{"place":"10 \\"quoted\\" 115"}')}}`]);
    expect(out.status).toBe(200);
  });

  test('the page step renders in the browser with the session cookies (run_js)', async () => {
    const out = await run(handshake('20095'), true);
    expect([out.page.runJs, text(out.page.body, 'place')]).toEqual([true, '20095']);
  });

  test('a session is reused by later flows with its key, and dropped when the check fails', async () => {
    const session = { key: 'place:30001', ttlMs: 60_000 };
    const first = await run(handshake('30001', { session }));
    const sid = text(first.page.body, 'sid');
    const second = await run(handshake('30001', { session }));
    expect(text(second.page.body, 'sid')).toBe(sid);
    const starts = sim.hits.get('/flow/start') ?? 0;
    // A check that rejects the page drops the session: the next attempt handshakes again.
    let calls = 0;
    const check: Flow['check'] = () => (++calls === 1 ? { ok: false, retry: true, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'not applied' } : { ok: true });
    const third = await run(handshake('30001', { session, check }));
    expect([calls, sim.hits.get('/flow/start'), text(third.page.body, 'sid') === sid]).toEqual([2, starts + 1, false]);
  });

  test('a check that keeps failing ends with its own problem, or returns the last page as a last resort', async () => {
    const said = (lastResort?: 'return') => () => ({ ok: false as const, retry: true, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES' as const, message: 'wanted 00000, shown none', data: { wanted: '00000' }, lastResort });
    expect(await failure(run(handshake('00000', { check: said() })))).toEqual({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'wanted 00000, shown none' });
    const last = await run(handshake('00000', { check: said('return') }));
    expect(text(last.page.body, 'place')).toBe('none');
    expect(await failure(run(handshake('00000', { check: () => ({ ok: false, retry: false, code: 'VALIDATION_ERROR', message: 'final' }) })))).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'final',
    });
  });

  test('follow-ups gather continuation pages while the upstream offers one, within max', async () => {
    const flow: Flow = {
      page: 1,
      steps: [
        {
          kind: 'fetch',
          name: 'list',
          url: `${sim.origin}/flow/list`,
          more: {
            max: 10,
            next: (body) => {
              const next = (JSON.parse(body) as { next?: string }).next;
              return next ? { url: `${sim.origin}/flow/list?after=${next}` } : undefined;
            },
          },
        },
      ],
    };
    const out = await run(flow);
    expect([out.page.body, out.parts.list]).toEqual(['{"next":"2","items":[1,2]}', ['{"next":"4","items":[3,4]}', '{"items":[5,6]}']]);
    const first = flow.steps[0] as FetchStep;
    const capped = await run({ ...flow, steps: [{ ...first, more: { ...first.more!, max: 1 } }] });
    expect(capped.parts.list).toHaveLength(1);
  });

  test('a step may build its URL from the variables, run only when asked, and see what follow-ups gathered', async () => {
    const out = await run({
      page: 1,
      steps: [
        { kind: 'fetch', name: 'start', url: `${sim.origin}/flow/start`, read: { sid: { from: 'cookie', name: 'sid' } } },
        { kind: 'fetch', name: 'skipped', url: `${sim.origin}/flow/down`, when: (vars) => vars.sid === undefined },
        {
          kind: 'fetch',
          name: 'list',
          url: (vars) => `${sim.origin}/flow/list?after=${vars.sid === undefined ? 'x' : '0'}`,
          more: { max: 10, next: (_body, count, _vars, gathered) => (gathered.length === count && count < 1 ? { url: `${sim.origin}/flow/list?after=2` } : undefined) },
        },
      ],
    });
    expect([out.page.body, out.parts.list, out.parts.skipped]).toEqual(['{"next":"2","items":[1,2]}', ['{"next":"4","items":[3,4]}'], undefined]);
    expect(sim.hits.get('/flow/down')).toBeUndefined();
    expect(await failure(run({ page: 1, steps: [{ kind: 'fetch', name: 'page', url: (vars) => vars.missing as string }] }))).toEqual({
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'Every attempt to fetch the target failed (last: Step "page" could not build its URL from what earlier steps found.).',
    });
  });

  test('an optional step may fail; a required one fails the attempt; a missing variable is named', async () => {
    const page = { kind: 'fetch' as const, name: 'page', url: `${sim.origin}/flow/page` };
    const ok = await run({ page: 1, steps: [{ kind: 'fetch', name: 'warm', url: `${sim.origin}/flow/down`, optional: true }, page] });
    expect(text(ok.page.body, 'place')).toBe('none');
    expect(await failure(run({ page: 1, steps: [{ kind: 'fetch', name: 'warm', url: `${sim.origin}/flow/down` }, page] }))).toEqual({
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'Every attempt to fetch the target failed (last: Step "warm" answered HTTP 503.).',
    });
    expect(await failure(run({ page: 1, steps: [{ ...page, url: `${sim.origin}/flow/page?t={{token}}` }] }))).toEqual({
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'Every attempt to fetch the target failed (last: Step "page" needs {{token}}, which no earlier step found.).',
    });
  });
});
