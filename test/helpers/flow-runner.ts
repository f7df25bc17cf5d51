/**
 * The farm's flow executor (farm/worker/flow.ts) run in the test's own process, with a worker
 * environment of its own (no worker thread): family tests run planner → the real executor →
 * the simulator → the parser, and see each step's effect. Browsers start only for `runJs`.
 */
import { randomUUID } from 'node:crypto';
import { defaultChromium, loadConfig } from '../../core/config.js';
import type { Flow } from '../../core/targets/flow.js';
import { chromeVersion, chromiumArgs } from '../../farm/chromium-args.js';
import { DEFAULT_LIMITS, type TaskMessage } from '../../farm/messages.js';
import { ProxyRotation } from '../../farm/net/proxies.js';
import { createStatsBuffer } from '../../farm/stats.js';
import { TaskAbort } from '../../farm/worker/abort.js';
import { TaskBudget } from '../../farm/worker/budget.js';
import { createEnv, type WorkerEnv } from '../../farm/worker/env.js';
import { runFlow, type FlowRun } from '../../farm/worker/flow.js';
import { task } from './farm.js';

export interface FlowRunner {
  env: WorkerEnv;
  run(flow: Flow, opts?: { runJs?: boolean; timeoutMs?: number }): Promise<FlowRun>;
  close(): Promise<void>;
}

export function createFlowRunner(): FlowRunner {
  const executablePath = defaultChromium();
  const env = createEnv({
    config: loadConfig({}, { allowPrivate: true }),
    limits: { ...DEFAULT_LIMITS, retryBaseMs: 10 },
    hosts: {},
    stats: createStatsBuffer(),
    cancelChannel: `flow-runner-${randomUUID()}`,
    browserLaunch: { executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false }), version: chromeVersion(executablePath) },
    pages: 4,
    browserIdleMs: 0,
  });
  return {
    env,
    run(flow, opts = {}) {
      const msg = { seq: 1, task: task({}, { timeoutMs: opts.timeoutMs }), browser: undefined } as unknown as TaskMessage;
      const budget = new TaskBudget(env.setup.config.taskMaxBytes, env.setup.config.maxResponseBytes);
      const ctx = { msg, env, device: 'desktop' as const, country: undefined, runJs: opts.runJs === true, screenshot: false, abort: new TaskAbort(), budget, canRender: true, escalated: false };
      return runFlow(flow, ctx, new ProxyRotation([]));
    },
    async close() {
      await env.contexts.closeAll();
      await env.local.close();
      env.cancels.close();
    },
  };
}

let shared: FlowRunner | undefined;

/** One runner per test file (vitest gives each file its own module graph); close it in afterAll. */
export function flowRunner(): FlowRunner {
  return (shared ??= createFlowRunner());
}

export async function closeFlowRunner(): Promise<void> {
  const r = shared;
  shared = undefined;
  await r?.close();
}
