/**
 * `gleaner install-service [--dry-run] [--user NAME] [--exec PATH] [--root DIR]`: installs
 * Gleaner as a systemd service — a dedicated system user, a hardened unit whose state lives in
 * systemd's StateDirectory (/var/lib/gleaner) and whose executable's private files live in its
 * CacheDirectory (/var/cache/gleaner), and an environment file in /etc/gleaner/ — and prints
 * what it did. `--dry-run` prints the unit and the environment file and writes nothing;
 * `--root DIR` writes under DIR instead of / (images, tests) and touches no user or systemd.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const UNIT_PATH = '/etc/systemd/system/gleaner.service';
export const ENV_PATH = '/etc/gleaner/gleaner.env';
export const INSTALLED_EXEC = '/usr/local/bin/gleaner';

export interface UnitOptions {
  /** The service's command line up to (not including) `serve`, one word per item (argv). */
  exec: readonly string[];
  user: string;
  envFile: string;
}

/**
 * A value for a unit file line (systemd.unit(5), systemd.syntax(7)): control characters (a
 * newline would start a new line, a new setting) are refused; `%` starts a specifier, so it is
 * doubled.
 */
export function unitValue(text: string, what: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(text)) throw new Error(`${what} ${JSON.stringify(text)}: control characters (a newline, a tab, ...) cannot be written into a unit file`);
  return text.replace(/%/g, '%%');
}

/**
 * One word of an Exec*= command line (systemd.service(5) "Command lines"): `%` → `%%`
 * (specifiers are expanded in every word), `$` → `$$` in arguments (environment variables are
 * expanded there, not in the executable's path: `program`), and a word holding a space, a
 * quote, a backslash or a `;` is double-quoted with C escapes for `\` and `"`. Control
 * characters are refused.
 */
export function execWord(word: string, what = 'command word', program = false): string {
  const specifiers = unitValue(word, what);
  const plain = program ? specifiers : specifiers.replace(/\$/g, '$$$$');
  if (plain !== '' && !/[\s"'\\;]/.test(plain)) return plain;
  return `"${plain.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The ExecStart= value: the command's words escaped, then `serve`. The first word must be an
 * absolute path, and systemd refuses quotes and backslashes in it ("Executable name contains
 * special characters"), so those are refused here, with the reason, instead of at start.
 */
export function execStart(exec: readonly string[]): string {
  const [program] = exec;
  if (!program || !program.startsWith('/')) throw new Error(`the command ${JSON.stringify(program ?? '')} must be an absolute path`);
  if (/["'\\]/.test(program)) throw new Error(`the command ${JSON.stringify(program)}: systemd does not run an executable whose path holds a quote or a backslash; move or link it`);
  return [...exec, 'serve'].map((w, i) => execWord(w, i === 0 ? 'command' : 'argument', i === 0)).join(' ');
}

/** The unit file. Every hardening line is one systemd applies by itself; `systemd-analyze security` scores it. */
export function serviceUnit(o: UnitOptions): string {
  if (!USER_NAME.test(o.user)) throw new Error(`--user ${o.user}: not a valid system user name`);
  return `# Written by \`gleaner install-service\`. Reload: systemctl daemon-reload.
[Unit]
Description=Gleaner web data extraction service
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
EnvironmentFile=${unitValue(o.envFile, 'environment file')}
ExecStart=${execStart(o.exec)}
# SIGHUP re-reads the targets, proxies and storage files without dropping requests.
ExecReload=/bin/kill -HUP $MAINPID
# SIGTERM drains: in-flight requests (up to GLEANER_SYNC_TIMEOUT_MS, 150 s) and running jobs.
KillSignal=SIGTERM
TimeoutStopSec=180
Restart=on-failure
RestartSec=2
# /var/lib/gleaner: the store (GLEANER_DATA_DIR) and the browser's scratch files (HOME).
StateDirectory=gleaner
StateDirectoryMode=0700
# /var/cache/gleaner: the executable's native addons and worker scripts, written on first start.
CacheDirectory=gleaner
CacheDirectoryMode=0700
WorkingDirectory=/var/lib/gleaner
Environment=HOME=/var/lib/gleaner
UMask=0077
LimitNOFILE=65536

NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictSUIDSGID=yes
RestrictRealtime=yes
RestrictNamespaces=yes
LockPersonality=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
SystemCallArchitectures=native
# Ports above 1023 need no capability; for 80/443 add CAP_NET_BIND_SERVICE to both lines.
CapabilityBoundingSet=
AmbientCapabilities=
# No MemoryDenyWriteExecute: V8 (Node and Chromium) compiles JavaScript to machine code.

[Install]
WantedBy=multi-user.target
`;
}

/** The environment file: the contract's variables with the service's defaults, the rest commented. */
export function environmentFile(): string {
  return `# Gleaner's environment (written by \`gleaner install-service\`; kept on reinstall).
# After editing: systemctl restart gleaner. The targets, proxies and storage FILES can change
# without a restart: systemctl reload gleaner.
GLEANER_HOST=127.0.0.1
GLEANER_PORT=8080
GLEANER_REALTIME_PORT=8081
GLEANER_DATA_PORT=8082
GLEANER_DATA_DIR=/var/lib/gleaner/data
GLEANER_LOG_LEVEL=info
# GLEANER_TARGETS=/etc/gleaner/targets.json
# GLEANER_PROXIES=/etc/gleaner/proxies.json
# GLEANER_STORAGE=/etc/gleaner/storage.json
# GLEANER_SOURCE_ALIASES=/etc/gleaner/aliases.json
# GLEANER_BOOTSTRAP_API_KEY=<16 to 256 printable characters>
# GLEANER_BOOTSTRAP_USER=<user>:<password>
# GLEANER_METRICS_TOKEN=<16 to 256 printable characters: Prometheus's Bearer token for /metrics>
# GLEANER_CHROMIUM=/usr/bin/chromium-headless-shell
# GLEANER_FFMPEG=/usr/bin/ffmpeg
# GLEANER_WORKERS=<cores>
# GLEANER_PUBLIC_URL=https://gleaner.example.internal
`;
}

function isSea(): boolean {
  return (globalThis as { __gleanerCacheDir?: string }).__gleanerCacheDir !== undefined;
}

/** The command that runs this very Gleaner: the executable itself, or node and bin/gleaner.js. */
function currentCommand(): string[] {
  if (isSea()) return [process.execPath];
  const bin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'gleaner.js');
  return [process.execPath, existsSync(bin) ? bin : resolve(process.argv[1] ?? 'bin/gleaner.js')];
}

const USER_NAME = /^[a-z_][a-z0-9_-]{0,31}$/;

/** A command line for a POSIX shell, to print (words with anything but safe characters single-quoted). */
function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function run(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Returns the exit code; `out` receives the report lines. */
export function installService(args: string[], out: (line: string) => void): number {
  const { values } = parseArgs({
    args,
    options: { 'dry-run': { type: 'boolean' }, user: { type: 'string' }, exec: { type: 'string' }, root: { type: 'string' } },
  });
  const user = values.user ?? 'gleaner';
  if (!USER_NAME.test(user)) throw new Error(`--user ${user}: not a valid system user name`);
  // The executable is copied to /usr/local/bin so the unit does not depend on a download folder.
  const copyFrom = !values.exec && isSea() && process.execPath !== INSTALLED_EXEC ? process.execPath : undefined;
  // --exec names one executable (its path may hold spaces, quotes, `%`, `$`: escaped in the unit).
  const exec = values.exec !== undefined ? [values.exec] : isSea() ? [INSTALLED_EXEC] : currentCommand();
  // Checked (absolute, no control characters) before anything is written.
  const unit = serviceUnit({ exec, user, envFile: ENV_PATH });
  if (values['dry-run']) {
    out(`# ${UNIT_PATH}`);
    out(unit);
    out(`# ${ENV_PATH} (written only if absent)`);
    out(environmentFile());
    return 0;
  }
  const root = values.root ? resolve(values.root) : '/';
  if (root === '/' && process.getuid?.() !== 0) throw new Error('install-service writes to /etc and creates a system user: run it as root (or see --dry-run)');
  const at = (path: string) => join(root, path);
  if (copyFrom) {
    mkdirSync(dirname(at(INSTALLED_EXEC)), { recursive: true });
    copyFileSync(copyFrom, at(INSTALLED_EXEC));
    chmodSync(at(INSTALLED_EXEC), 0o755);
    out(`copied ${copyFrom} to ${at(INSTALLED_EXEC)}`);
  }
  if (root === '/') {
    if (run('id', ['-u', user])) out(`system user ${user} exists`);
    else if (run('useradd', ['--system', '--home-dir', '/var/lib/gleaner', '--no-create-home', '--shell', '/usr/sbin/nologin', user])) out(`created system user ${user}`);
    else throw new Error(`could not create the system user ${user} (useradd failed)`);
  }
  mkdirSync(dirname(at(UNIT_PATH)), { recursive: true });
  writeFileSync(at(UNIT_PATH), unit, { mode: 0o644 });
  out(`wrote ${at(UNIT_PATH)}`);
  mkdirSync(dirname(at(ENV_PATH)), { recursive: true, mode: 0o750 });
  if (existsSync(at(ENV_PATH))) {
    out(`kept ${at(ENV_PATH)} (it exists; your settings stay)`);
  } else {
    // 0640 root:<user>: the file may hold the bootstrap key.
    writeFileSync(at(ENV_PATH), environmentFile(), { mode: 0o640 });
    if (root === '/') run('chgrp', [user, ENV_PATH]);
    out(`wrote ${at(ENV_PATH)}`);
  }
  if (root === '/' && existsSync('/run/systemd/system')) {
    out(run('systemctl', ['daemon-reload']) ? 'ran systemctl daemon-reload' : 'systemctl daemon-reload failed: run it yourself');
  }
  out(`next: edit ${ENV_PATH}, then: systemctl enable --now gleaner; journalctl -u gleaner (first credentials are printed there once)`);
  out(`offline commands run as the service user: sudo -u ${user} GLEANER_DATA_DIR=/var/lib/gleaner/data ${shellLine(exec)} keys list`);
  return 0;
}
