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
  /** The service's command line up to (not including) `serve`. */
  exec: string;
  user: string;
  envFile: string;
}

/** The unit file. Every hardening line is one systemd applies by itself; `systemd-analyze security` scores it. */
export function serviceUnit(o: UnitOptions): string {
  return `# Written by \`gleaner install-service\`. Reload: systemctl daemon-reload.
[Unit]
Description=Gleaner web data extraction service
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
EnvironmentFile=${o.envFile}
ExecStart=${o.exec} serve
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
function currentCommand(): string {
  if (isSea()) return process.execPath;
  const bin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'gleaner.js');
  return `${process.execPath} ${existsSync(bin) ? bin : resolve(process.argv[1] ?? 'bin/gleaner.js')}`;
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
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(user)) throw new Error(`--user ${user}: not a valid system user name`);
  // The executable is copied to /usr/local/bin so the unit does not depend on a download folder.
  const copyFrom = !values.exec && isSea() && process.execPath !== INSTALLED_EXEC ? process.execPath : undefined;
  const exec = values.exec ?? (isSea() ? INSTALLED_EXEC : currentCommand());
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
  out(`offline commands run as the service user: sudo -u ${user} GLEANER_DATA_DIR=/var/lib/gleaner/data ${exec} keys list`);
  return 0;
}
