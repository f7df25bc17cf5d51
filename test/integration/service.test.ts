/**
 * `gleaner install-service` (gateway/service.ts): the unit by content, by `systemd-analyze
 * verify` when the machine has it, and then Gleaner started the way the unit starts it — the
 * unit's command line, its environment file, a state directory as working directory and HOME,
 * systemd's CACHE_DIRECTORY and STATE_DIRECTORY — reloaded with SIGHUP (ExecReload) and
 * stopped with SIGTERM (KillSignal). No systemd is needed for that part.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { environmentFile, installService, serviceUnit } from '../../gateway/service.js';
import { EXECUTABLE, executableUnavailable, gleanerCommand, startGleaner } from '../helpers/executable.js';

const root = mkdtempSync(join(tmpdir(), 'gleaner-service-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const noAnalyze = analyze.status === 0 ? undefined : 'systemd-analyze is not installed';
const noExecutable = executableUnavailable();

function unitLines(unit: string): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (const line of unit.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) lines.set(m[1], [...(lines.get(m[1]) ?? []), m[2]]);
  }
  return lines;
}

describe('the unit', () => {
  test('--dry-run prints the unit and the environment file and writes nothing', () => {
    const out: string[] = [];
    expect(installService(['--dry-run', '--exec', '/usr/local/bin/gleaner'], (l) => out.push(l))).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('# /etc/systemd/system/gleaner.service');
    expect(text).toContain(serviceUnit({ exec: ['/usr/local/bin/gleaner'], user: 'gleaner', envFile: '/etc/gleaner/gleaner.env' }));
    expect(text).toContain(environmentFile());
  });

  test('hardening, a dedicated user, state and cache directories, reload and drain', () => {
    const u = unitLines(serviceUnit({ exec: ['/usr/local/bin/gleaner'], user: 'gleaner', envFile: '/etc/gleaner/gleaner.env' }));
    const expected: Record<string, string> = {
      User: 'gleaner',
      Group: 'gleaner',
      ExecStart: '/usr/local/bin/gleaner serve',
      ExecReload: '/bin/kill -HUP $MAINPID',
      KillSignal: 'SIGTERM',
      EnvironmentFile: '/etc/gleaner/gleaner.env',
      StateDirectory: 'gleaner',
      CacheDirectory: 'gleaner',
      WorkingDirectory: '/var/lib/gleaner',
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      CapabilityBoundingSet: '',
      WantedBy: 'multi-user.target',
    };
    for (const [key, value] of Object.entries(expected)) expect([key, u.get(key)]).toEqual([key, [value]]);
    expect(u.has('MemoryDenyWriteExecute')).toBe(false); // V8 needs W+X pages
    expect(Number(u.get('TimeoutStopSec')![0])).toBeGreaterThan(150); // the sync drain
  });

  test('--root writes the unit and the environment file, and keeps an existing environment file', () => {
    const out: string[] = [];
    installService(['--root', root, '--exec', '/usr/local/bin/gleaner'], (l) => out.push(l));
    expect(readFileSync(join(root, 'etc/systemd/system/gleaner.service'), 'utf8')).toBe(serviceUnit({ exec: ['/usr/local/bin/gleaner'], user: 'gleaner', envFile: '/etc/gleaner/gleaner.env' }));
    const envPath = join(root, 'etc/gleaner/gleaner.env');
    expect(statSync(envPath).mode & 0o777).toBe(0o640);
    writeFileSync(envPath, 'GLEANER_PORT=9999\n');
    const again: string[] = [];
    installService(['--root', root, '--exec', '/usr/local/bin/gleaner'], (l) => again.push(l));
    expect(readFileSync(envPath, 'utf8')).toBe('GLEANER_PORT=9999\n');
    expect(again).toContain(`kept ${envPath} (it exists; your settings stay)`);
  });

  test.skipIf(noAnalyze !== undefined)(`systemd-analyze verify accepts the unit${noAnalyze ? ` — skipped: ${noAnalyze}` : ''}`, () => {
    const dir = join(root, 'verify');
    mkdirSync(dir, { recursive: true });
    const envFile = join(dir, 'gleaner.env');
    writeFileSync(envFile, environmentFile());
    // ExecStart must name an existing executable for verify: the built one, else node.
    const exec = noExecutable ? [process.execPath, '/dev/null'] : [EXECUTABLE];
    writeFileSync(join(dir, 'gleaner.service'), serviceUnit({ exec, user: 'gleaner', envFile }));
    const r = spawnSync('systemd-analyze', ['verify', join(dir, 'gleaner.service')], { encoding: 'utf8' });
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('hostile paths and --exec values (issue 24 item 9)', () => {
  // Each is a real, executable file: systemd-analyze verify finds it only if the unit's
  // quoting gives back exactly this path.
  const HOSTILE = ['dir with space', '100%n %i', 'dollar $HOME ${USER}', 'semi;colon', 'not ascii é', '-dash @at +plus !bang :colon'];

  function hostileExecutable(name: string): string {
    const dir = join(root, 'hostile', name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'gleaner bin');
    writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    return file;
  }

  test('ExecStart escapes %, $, quotes and backslashes and quotes words with spaces (by content)', () => {
    const u = unitLines(serviceUnit({ exec: ['/opt/my gleaner/100%/$X', '/a;b "q" \\b $Y', ''], user: 'gleaner', envFile: '/etc/gleaner/100%.env' }));
    // `$` is expanded in arguments only, not in the executable's path.
    expect(u.get('ExecStart')).toEqual(['"/opt/my gleaner/100%%/$X" "/a;b \\"q\\" \\\\b $$Y" "" serve']);
    expect(u.get('EnvironmentFile')).toEqual(['/etc/gleaner/100%%.env']);
  });

  test('control characters and relative paths are refused before anything is written', () => {
    const dir = join(root, 'refused');
    for (const exec of ['/usr/bin/gleaner\nExecStartPre=/bin/sh -c "touch /tmp/pwned"', '/usr/bin/glea\rner', '/usr/bin/\tgleaner', '/usr/bin/x\u0000y', 'gleaner', '-/usr/bin/gleaner', '/opt/q"uote', "/opt/it's", '/opt/back\\slash']) {
      expect(() => installService(['--root', dir, `--exec=${exec}`], () => undefined), JSON.stringify(exec)).toThrow(/control characters|must be an absolute path|holds a quote or a backslash/);
    }
    expect(() => installService(['--root', dir, '--user', 'gleaner\nUser=root'], () => undefined)).toThrow('not a valid system user name');
    expect(spawnSync('ls', [dir]).status).not.toBe(0); // nothing written
  });

  test.skipIf(noAnalyze !== undefined)(`systemd-analyze verify finds each hostile executable through the unit's quoting${noAnalyze ? ` — skipped: ${noAnalyze}` : ''}`, () => {
    const envFile = join(root, 'hostile', 'gleaner.env');
    mkdirSync(join(root, 'hostile'), { recursive: true });
    writeFileSync(envFile, environmentFile());
    for (const name of HOSTILE) {
      const exec = hostileExecutable(name);
      const out: string[] = [];
      installService(['--dry-run', '--exec', exec], (l) => out.push(l));
      const unit = out[1].replace(/^EnvironmentFile=.*$/m, `EnvironmentFile=${envFile}`);
      const file = join(root, 'hostile', `unit-${HOSTILE.indexOf(name)}.service`);
      writeFileSync(file, unit);
      const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      expect([name, r.stderr.trim(), r.status]).toEqual([name, '', 0]);
    }
    // A path that does not exist is reported: the check above is not vacuous.
    const missing = join(root, 'hostile', 'missing.service');
    writeFileSync(missing, serviceUnit({ exec: [join(root, 'hostile', 'dir with space', 'no such')], user: 'gleaner', envFile }));
    expect(spawnSync('systemd-analyze', ['verify', missing], { encoding: 'utf8' }).stderr).toMatch(/no such/i);
  });
});

/** KEY=VALUE lines of an environment file (comments and blanks skipped), as systemd reads them. */
function readEnvFile(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

test(`started as the unit starts it: environment file, state directory, reload, drain (${noExecutable ? `node bin/gleaner.js — the executable: ${noExecutable}` : 'the executable'})`, async () => {
  const state = join(root, 'var/lib/gleaner');
  const cache = join(root, 'var/cache/gleaner');
  mkdirSync(state, { recursive: true, mode: 0o700 });
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const targets = join(root, 'targets.json');
  writeFileSync(targets, JSON.stringify({ se1: { baseUrl: 'http://127.0.0.1:9/se1' } }));
  const unitEnv = readEnvFile(environmentFile());
  // The installed file with its paths moved under the test's root, and free ports.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...unitEnv,
    GLEANER_DATA_DIR: unitEnv.GLEANER_DATA_DIR.replace('/var/lib/gleaner', state),
    GLEANER_PORT: '0',
    GLEANER_REALTIME_PORT: '0',
    GLEANER_DATA_PORT: '0',
    GLEANER_WORKERS: '1',
    GLEANER_TARGETS: targets,
    GLEANER_BOOTSTRAP_API_KEY: 'service-test-key-0123456789',
    // What systemd sets for StateDirectory=, CacheDirectory= and Environment=HOME=.
    STATE_DIRECTORY: state,
    CACHE_DIRECTORY: cache,
    HOME: state,
  };
  const g = startGleaner(gleanerCommand(!noExecutable), ['serve'], { cwd: state, env });
  try {
    const ready = await g.waitFor((l) => l.msg === 'gleaner ready');
    expect(ready.dataDir).toBe(join(state, 'data'));
    const readyz = await fetch(`http://127.0.0.1:${ready.port}/readyz`);
    expect(readyz.status).toBe(200);
    if (!noExecutable) expect(readFileSync(join(cache, readdirOne(cache), '.complete'), 'utf8')).toMatch(/^[0-9a-f]{12}\n$/);

    writeFileSync(targets, JSON.stringify({ se1: { baseUrl: 'http://127.0.0.1:9/se1' }, se2: { baseUrl: 'http://127.0.0.1:9/se2' } }));
    g.child.kill('SIGHUP');
    const reloaded = await g.waitFor((l) => l.msg === 'configuration reloaded; previous workers draining');
    expect(reloaded.targets).toBe(2);
    expect((await fetch(`http://127.0.0.1:${ready.port}/healthz`)).status).toBe(200);

    g.child.kill('SIGTERM');
    expect(await g.exited).toBe(0);
    expect(g.logs().some((l) => l.msg === 'gleaner stopped')).toBe(true);
  } finally {
    if (g.child.exitCode === null) g.child.kill('SIGKILL');
  }
}, 90_000);

function readdirOne(dir: string): string {
  const entries = spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return entries[0];
}
