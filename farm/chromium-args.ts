/**
 * Chromium command line of the node's browser: Playwright's defaults (it adds them itself) plus
 * ours, passed as `args` so none of Playwright's are dropped.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { DEFAULT_LOCALE } from './identity/profile-data.js';

/** Quiet start: no background fetches, updates, sync or first-run work. */
export const EXTRA_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/**
 * patchright-core 1.63's own `--disable-features` list (the farm drives the browser with
 * patchright-core, see browser/identity.ts). Chromium keeps only the LAST `--disable-features`
 * switch, so when we add features for full Chromium we must repeat the library's; a unit test
 * reads the list out of the installed library and fails when an upgrade changes it.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'BlockOriginHeaderModificationOnRedirect',
  'Translate',
  'AutoDeElevate',
  'OptimizationHints',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Full Chromium (not the headless shell):
 * - starts omnibox WebUI popups nobody sees;
 * - with `RenderDocument`, gives every cross-document navigation a new (speculative) frame host,
 *   created when the navigation starts and torn down when it ends. A fetch tab's navigation
 *   never commits (browser/nav-fetch.ts), so each paid for a frame host it never used: ~4 of the
 *   browser process's ~15 CPU-ms per plain page (a trace of its main thread, bench/README
 *   "The browser's share"). Nothing a site can see depends on it: the requests, their order
 *   and the documents' APIs are the same; Chrome shipped without it until 2024.
 */
export const FULL_CHROMIUM_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'RenderDocument'] as const;

/**
 * patchright-core 1.63's own `--enable-features` list (unless `PLAYWRIGHT_LEGACY_SCREENSHOT` is
 * set). As with `--disable-features`, Chromium keeps only the last switch, so ours repeats it;
 * a unit test reads it out of the installed library.
 */
export const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface'] as const;

/**
 * The GPU service and the network service run as threads of the browser process instead of
 * processes of their own (bench/README "In-process GPU and network services"). Out of process
 * each keeps its own heap, allocator and Mojo plumbing (~41 MB PSS for the GPU process, which
 * only composites in software here, ~49 MB for the network service), and every request and
 * response of the fetch path crossed one more process boundary. In process the browser grows
 * by ~40 MB: ~27 MB less for a fetching browser, and ~10 % less CPU per plain page through it.
 * Nothing a site sees changes: the network stack, its TLS ClientHello and h2 frames are the
 * same code (fingerprint.test.ts: 10 of 10), WebGL names the same SwiftShader renderer, and
 * detection.test.ts passes as before. The cost: a crash of either service takes the browser
 * down with it instead of restarting the service, which the farm handles as any browser crash.
 */
export const IN_PROCESS_SERVICES = { switches: ['--in-process-gpu'], features: ['NetworkServiceInProcess2'] } as const;

export interface ArgsOptions {
  executablePath: string | undefined;
  /** Trusted host name → address, mapped inside the browser too. */
  hosts: Readonly<Record<string, string>>;
  /** Private addresses refused: the guard proxy is in use. */
  guarded: boolean;
  /**
   * The browser-wide user agent (the desktop profile's, without "HeadlessChrome"): what service
   * and shared workers report, which no per-page override reaches. Pages get their session's
   * full override (browser/identity.ts).
   */
  userAgent?: string;
  /** `IN_PROCESS_SERVICES` (default true); false only for the benches' raw Playwright baseline. */
  inProcessServices?: boolean;
}

export function isHeadlessShell(executablePath: string | undefined): boolean {
  return executablePath === undefined || /headless[-_]shell/.test(executablePath);
}

export function chromiumArgs(opts: ArgsOptions): string[] {
  // The browser's own languages are the default profile's whatever the host's locale says, so
  // that sessions speaking them need no Accept-Language override (browser/identity.ts).
  const args: string[] = [...EXTRA_ARGS, `--lang=${DEFAULT_LOCALE.languages[0]}`];
  if (!isHeadlessShell(opts.executablePath)) {
    args.push(`--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...FULL_CHROMIUM_DISABLED_FEATURES].join(',')}`);
  }
  if (opts.inProcessServices !== false) {
    const library = process.env.PLAYWRIGHT_LEGACY_SCREENSHOT ? [] : PLAYWRIGHT_ENABLED_FEATURES;
    args.push(...IN_PROCESS_SERVICES.switches, `--enable-features=${[...library, ...IN_PROCESS_SERVICES.features].join(',')}`);
  }
  if (opts.userAgent) args.push(`--user-agent=${opts.userAgent}`);
  const rules = Object.entries(opts.hosts).map(([name, address]) => `MAP ${name} ${address.includes(':') ? `[${address}]` : address}`);
  if (rules.length > 0) args.push(`--host-resolver-rules=${rules.join(',')}`);
  // WebRTC could reach private addresses over UDP, around the guard proxy.
  if (opts.guarded) args.push('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
  return args;
}

/**
 * Debian's `/usr/bin/chromium-headless-shell` is a two-line shell wrapper that runs the binary
 * WITHOUT `exec`: the pid Playwright sees is the shell's, and a crash or kill of the real
 * browser would go unnoticed. A tiny wrapper of the form `/path/binary "$@"` is resolved to
 * its binary; anything else is used as given.
 */
export function resolveExecutable(path: string | undefined): string | undefined {
  if (!path) return path;
  try {
    if (statSync(path).size > 512) return path;
    const fd = openSync(path, 'r');
    const buf = Buffer.alloc(512);
    const n = readSync(fd, buf, 0, 512, 0);
    closeSync(fd);
    const text = buf.subarray(0, n).toString('utf8');
    if (!text.startsWith('#!')) return path;
    const lines = text.split('\n').slice(1).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    const m = lines.length === 1 ? /^(?:exec\s+)?(\/[^\s"']+)\s+"\$@"$/.exec(lines[0]) : null;
    if (m && statSync(m[1]).isFile()) return m[1];
  } catch {
    // unreadable: let Playwright report it
  }
  return path;
}

/**
 * The temporary profile folder Playwright gave a running browser (its `--user-data-dir`), read
 * from /proc while the browser lives. Playwright removes it when it sees the browser exit, but
 * not when its own process or thread is stopped first (a killed browser at farm shutdown):
 * the farm then removes it itself (`removeProfile`).
 */
export function profileDirOf(pid: number | undefined): string | undefined {
  if (!pid) return undefined;
  try {
    const dir = /--user-data-dir=([^\0 ]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
    return dir && basename(dir).startsWith('playwright_chromiumdev_profile-') ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a profile folder found by `profileDirOf` (only Playwright's temporary ones). */
export function removeProfile(dir: string | undefined): void {
  if (!dir || !basename(dir).startsWith('playwright_chromiumdev_profile-')) return;
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // best effort
  }
}

const versions = new Map<string, string | undefined>();

/**
 * The browser's version (`156.0.8078.79`) from `<binary> --version` (Chromium and the headless
 * shell print `Chromium 156.0.8078.79`), once per binary and process (~0.15 s); undefined when
 * there is no binary or it says nothing readable.
 */
export function chromeVersion(executablePath: string | undefined): string | undefined {
  if (!executablePath) return undefined;
  if (!versions.has(executablePath)) {
    let version: string | undefined;
    try {
      const out = execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
      version = /(\d+\.\d+\.\d+\.\d+)/.exec(out)?.[1];
    } catch {
      version = undefined;
    }
    versions.set(executablePath, version);
  }
  return versions.get(executablePath);
}
