/**
 * Runs Gleaner as a separate process, the way an operator does: the single executable
 * (`dist/gleaner-linux-<arch>`, from `npm run dist`) when it is there and built from this
 * commit, else `node bin/gleaner.js` (compiled by `npm test`'s build). Output is collected;
 * `waitFor` resolves on the first log line matching a predicate.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXECUTABLE = join(REPO, 'dist', `gleaner-${process.platform}-${process.arch}`);

/** Why the executable cannot be tested here, or undefined when it can. */
export function executableUnavailable(): string | undefined {
  if (!existsSync(EXECUTABLE)) return `${EXECUTABLE} is not built (npm run dist)`;
  let built: string;
  try {
    built = /commit ([0-9a-f]+|unknown)/.exec(execFileSync(EXECUTABLE, ['--version'], { encoding: 'utf8', env: { ...process.env, GLEANER_CACHE_DIR: join(REPO, 'dist', 'cache') } }))?.[1] ?? '?';
  } catch (err) {
    return `${EXECUTABLE} --version failed: ${(err as Error).message}`;
  }
  let head = 'unknown';
  try {
    head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
  } catch {
    // not a checkout: trust the file
  }
  if (head !== 'unknown' && built !== head) return `${EXECUTABLE} was built from commit ${built}, not HEAD ${head}: run npm run dist`;
  return undefined;
}

/** The command line of the CLI: the executable when `useExecutable`, else node with bin/gleaner.js. */
export function gleanerCommand(useExecutable: boolean): [string, string[]] {
  return useExecutable ? [EXECUTABLE, []] : [process.execPath, [join(REPO, 'bin', 'gleaner.js')]];
}

export interface GleanerProcess {
  child: ChildProcess;
  output(): string;
  /** Parsed JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  waitFor(match: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export function startGleaner(cmd: [string, string[]], args: string[], opts: { cwd: string; env: Record<string, string> }): GleanerProcess {
  const child = spawn(cmd[0], [...cmd[1], ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const logs = () =>
    out.split('\n').flatMap((line) => {
      try {
        return line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  return {
    child,
    output: () => out,
    logs,
    exited,
    waitFor(match, ms = 30_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const hit = logs().find(match);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            done(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`no matching log line in ${ms} ms; output:\n${out.slice(-3000)}`));
        }, ms);
        waiters.add(check);
        void exited.then(() => setTimeout(() => { if (waiters.has(check)) { waiters.delete(check); clearTimeout(timer); fail(new Error(`gleaner exited; output:\n${out.slice(-3000)}`)); } }, 50));
        check();
      });
    },
  };
}

/** Runs one CLI command to completion. */
export function runGleaner(cmd: [string, string[]], args: string[], opts: { cwd: string; env: Record<string, string> }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(cmd[0], [...cmd[1], ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('exit', (status) => done({ status, stdout, stderr }));
  });
}
