/**
 * The real service as a child process (`gleaner serve` through tsx), for tests that kill it:
 * resolves once it logs "gleaner ready", with the Web API's base URL. The caller kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServedProcess {
  child: ChildProcess;
  base: string;
  /** Everything it printed so far. */
  out(): string;
}

/** Starts `gleaner serve` on port 0 with `env` over the test defaults (private addresses allowed). */
export function serveProcess(env: Record<string, string>, startMs = 90_000): Promise<ServedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'], {
    cwd: root,
    env: { ...process.env, GLEANER_PORT: '0', GLEANER_REALTIME_PORT: '0', GLEANER_DATA_PORT: '0', GLEANER_ALLOW_PRIVATE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start:\n${out}`)), startMs);
    child.once('exit', (code) => (clearTimeout(timer), fail(new Error(`exited (${code}) before it was ready:\n${out}`))));
    child.stdout!.on('data', () => {
      const m = /"port":(\d+).*"msg":"gleaner ready"/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        ok({ child, base: `http://127.0.0.1:${m[1]}`, out: () => out });
      }
    });
  });
}
