/**
 * Child processes for the benches: services (a server that says it is ready, then runs until
 * stopped) and rows (one contender measured in a fresh process, which sends back its result).
 * Both are `node --import tsx <script>` forks with an IPC channel; stdout is discarded for
 * services (the gateway logs every request there) so the parent never pays to read it.
 *
 * Every child is tracked and killed (by its own pid) if this process exits or is interrupted.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '..');

const live = new Set<ChildProcess>();
let hooked = false;

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      for (const c of live) c.kill('SIGKILL');
      process.exit(130);
    });
  }
}

function spawnBench(script: string, args: string[], env: Record<string, string>, quiet: boolean): ChildProcess {
  const child = fork(resolve(ROOT, script), args, {
    // A plain .mjs service (serve-dist.mjs) runs without tsx, as a deployed node does.
    // BENCH_EXEC_ARGV adds node flags to every contender (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
    execArgv: [...(script.endsWith('.mjs') ? [] : ['--import', 'tsx']), ...(process.env.BENCH_EXEC_ARGV?.split(' ').filter(Boolean) ?? [])],
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', quiet && !process.env.BENCH_VERBOSE ? 'ignore' : 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  track(child);
  return child;
}

export interface Service<T> {
  pid: number;
  info: T;
  /** Sends the child a request (see `answerAsks`) and resolves with its answer. */
  ask<R>(body: unknown, timeoutMs?: number): Promise<R>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/** Starts a service script; resolves with the payload of its `{type: 'ready'}` message. */
export async function startService<T>(script: string, args: string[] = [], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Service<T>> {
  const child = spawnBench(script, args, env, true);
  const info = await new Promise<T>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: not ready after ${timeoutMs} ms`)), timeoutMs);
    child.on('message', (m: { type?: string; info?: T; message?: string }) => {
      if (m?.type === 'ready') (clearTimeout(timer), resolveReady(m.info as T));
      if (m?.type === 'error') (clearTimeout(timer), reject(new Error(`${script}: ${m.message}`)));
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${script} exited (${code}) before it was ready`))));
  }).catch(async (err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  let asks = 0;
  return {
    pid: child.pid!,
    info,
    ask<R>(body: unknown, timeoutMs = 600_000): Promise<R> {
      const id = ++asks;
      return new Promise<R>((resolveAsk, reject) => {
        const timer = setTimeout(() => (child.off('message', onMessage), reject(new Error(`${script}: no answer after ${timeoutMs} ms`))), timeoutMs);
        const onMessage = (m: { type?: string; id?: number; value?: R; message?: string }) => {
          if (m?.type !== 'answer' || m.id !== id) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          if (m.message !== undefined) reject(new Error(`${script}: ${m.message}`));
          else resolveAsk(m.value as R);
        };
        child.on('message', onMessage);
        child.send({ type: 'ask', id, body });
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited(child);
      clearTimeout(t);
    },
  };
}

/** Runs a row script to completion and returns the payload of its `{type: 'result'}` message. */
export async function runChild<T>(script: string, args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<T> {
  const child = spawnBench(script, args, env, false);
  let result: T | undefined;
  let failure: string | undefined;
  child.on('message', (m: { type?: string; value?: T; message?: string }) => {
    if (m?.type === 'result') result = m.value;
    if (m?.type === 'error') failure = m.message;
  });
  const timer = setTimeout(() => {
    failure = `timed out after ${timeoutMs} ms`;
    child.kill('SIGKILL');
  }, timeoutMs);
  await exited(child);
  clearTimeout(timer);
  if (result === undefined) throw new Error(`${script} ${args.join(' ')}: ${failure ?? `exited (${child.exitCode ?? child.signalCode}) without a result`}`);
  return result;
}

/** In a child: send the parent a message (a no-op when run standalone). */
export function tell(message: { type: 'ready'; info: unknown } | { type: 'result'; value: unknown } | { type: 'error'; message: string }): Promise<void> {
  if (!process.send) return Promise.resolve();
  return new Promise((r) => process.send!(message, undefined, undefined, () => r()));
}

/** In a service child: answer the parent's `ask`s with `handle` (one at a time, in order). */
export function answerAsks(handle: (body: unknown) => Promise<unknown>): void {
  let chain = Promise.resolve();
  process.on('message', (m: { type?: string; id?: number; body?: unknown }) => {
    if (m?.type !== 'ask') return;
    chain = chain.then(async () => {
      try {
        const value = await handle(m.body);
        process.send?.({ type: 'answer', id: m.id, value });
      } catch (err) {
        process.send?.({ type: 'answer', id: m.id, message: (err as Error).message ?? String(err) });
      }
    });
  });
}

/** In a service child: stop on SIGTERM or when the parent goes away. */
export function onStop(stop: () => Promise<void>): void {
  let stopping = false;
  const go = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', go);
  process.once('SIGINT', go);
  process.once('disconnect', go);
}

/** Is this module the script node was started with? */
export function isMain(meta: ImportMeta): boolean {
  return !!process.argv[1] && resolve(process.argv[1]) === fileURLToPath(meta.url);
}

/** Imports a Crawlee peer module, turning "not installed" into a plain message. */
export async function importPeer<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`Crawlee is not installed here (run: npm install --prefix bench): ${(err as Error).message.split('\n')[0]}`);
    }
    throw err;
  }
}
