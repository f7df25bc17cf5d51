/**
 * The flow executor (farm/worker/flow.ts) on real sockets against the simulator's flow site:
 * a token read from one step and sent as a header of the next, cookies carried across steps
 * and into the browser, variables in a JSON body, sessions reused and dropped, follow-up pages,
 * optional steps, and `check` verdicts with their last resort. The executor runs in this
 * process with a worker environment of its own (no worker thread), so each step is observable.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defaultChromium, loadConfig } from '../../core/config.js';
import type { FetchStep, Flow } from '../../core/targets/flow.js';
import { chromiumArgs } from '../../farm/chromium-args.js';
import { DEFAULT_LIMITS, type TaskMessage } from '../../farm/messages.js';
import { ProxyRotation } from '../../farm/net/proxies.js';
import { createStatsBuffer } from '../../farm/stats.js';
import { TaskAbort } from '../../farm/worker/abort.js';
import { createEnv, type WorkerEnv } from '../../farm/worker/env.js';
import { runFlow, type FlowContext } from '../../farm/worker/flow.js';
import { DEVICES } from '../../farm/devices.js';
import { failure, task } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let env: WorkerEnv;

beforeAll(async () => {
  sim = await startSimulator();
  const executablePath = defaultChromium();
  env = createEnv({
    config: loadConfig({}, { allowPrivate: true }),
    limits: { ...DEFAULT_LIMITS, retryBaseMs: 10 },
    hosts: {},
    stats: createStatsBuffer(),
    cancelChannel: `flow-test-${randomUUID()}`,
    browserLaunch: { executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false }) },
  });
});

afterAll(async () => {
  await env?.contexts.closeAll();
  await env?.local.close();
  env?.cancels.close();
  await sim?.close();
});

function ctx(runJs = false): FlowContext {
  const msg = { seq: 1, task: task({}), browser: undefined } as unknown as TaskMessage;
  return { msg, env, device: DEVICES.desktop, runJs, screenshot: false, abort: new TaskAbort() };
}

const run = (flow: Flow, runJs = false) => runFlow(flow, ctx(runJs), new ProxyRotation([]));
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
