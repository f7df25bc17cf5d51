/**
 * The external programs the farm runs: Chromium (rendering, screenshots, chat flows) and
 * ffmpeg (the video download route). Each is probed once at start by running it with its
 * version flag, so `/readyz`, `gleaner doctor` and a request that needs a missing one can say
 * which binary was tried, what went wrong and how to install one — instead of failing later
 * with "the browser could not be started".
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { checkFfmpeg } from './media/ffmpeg.js';

export interface BinaryStatus {
  ok: boolean;
  /** The binary tried (absolute path or a bare name looked up on PATH), or undefined when none was found. */
  path: string | undefined;
  /** First line of its version output when usable. */
  version?: string;
  /** Why it is not usable (present when `ok` is false). */
  reason?: string;
  /** How to get one (present when `ok` is false). */
  fix?: string;
}

export const CHROMIUM_FIX = 'install Debian\'s headless shell (`apt-get install -y chromium-headless-shell`) or point GLEANER_CHROMIUM at a Chromium binary';
export const FFMPEG_FIX = 'install ffmpeg (`apt-get install -y ffmpeg`) or point GLEANER_FFMPEG at an ffmpeg binary';

const PROBE_TIMEOUT_MS = 10_000;

function versionOf(path: string, args: string[]): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(path, args, { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const detail = code === 'ENOENT' ? 'not found' : code === 'EACCES' ? 'not executable' : (stderr.trim().split('\n').pop() || err.message);
        resolve({ ok: false, reason: `${path} ${args.join(' ')} failed: ${detail}` });
      } else {
        resolve({ ok: true, version: (stdout || stderr).trim().split('\n')[0] });
      }
    });
  });
}

/** Whether a file exists and this process may execute it; the reason when not. */
function executable(path: string): string | undefined {
  if (!existsSync(path)) return `${path} does not exist`;
  if (!statSync(path).isFile()) return `${path} is not a file`;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return `${path} is not executable by this user`;
  }
  return undefined;
}

/** A bare program name on PATH, as the shell would find it. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Playwright's own downloaded Chromium, which it uses when no executable is configured. */
function playwrightOwnChromium(): string | undefined {
  const root = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  try {
    const build = readdirSync(root).find((d) => d.startsWith('chromium'));
    return build ? join(root, build) : undefined;
  } catch {
    return undefined;
  }
}

/** Probes the browser the farm will launch (`config.chromium`: GLEANER_CHROMIUM or the defaults). */
export async function probeBrowser(configured: string | undefined): Promise<BinaryStatus> {
  if (!configured) {
    const own = playwrightOwnChromium();
    if (own) return { ok: true, path: undefined, version: `Playwright's own Chromium (${own})` };
    return {
      ok: false,
      path: undefined,
      reason: 'no Chromium found: GLEANER_CHROMIUM is unset and neither /usr/bin/chromium-headless-shell nor /usr/bin/chromium exists',
      fix: CHROMIUM_FIX,
    };
  }
  const problem = executable(configured);
  if (problem) return { ok: false, path: configured, reason: problem, fix: CHROMIUM_FIX };
  const v = await versionOf(configured, ['--version']);
  return v.ok ? { ok: true, path: configured, version: v.version } : { ok: false, path: configured, reason: v.reason, fix: CHROMIUM_FIX };
}

/** Probes ffmpeg and ffprobe (farm/media/ffmpeg.ts, the one place that finds them): GLEANER_FFMPEG when set, else PATH. */
export async function probeFfmpeg(configured: string | undefined): Promise<BinaryStatus> {
  const s = await checkFfmpeg(configured, true);
  return s.ok ? { ok: true, path: s.ffmpeg, version: s.version ?? undefined } : { ok: false, path: s.ffmpeg, reason: s.reason ?? 'ffmpeg is not usable', fix: FFMPEG_FIX };
}

/** The problem detail of a request that needs a binary that is not usable. */
export function missingBinaryDetail(what: string, status: BinaryStatus): string {
  return `This request needs ${what}, which is not usable here: ${status.reason ?? 'unknown reason'}. To fix: ${status.fix ?? ''}.`;
}

let ffmpegStatus: BinaryStatus | undefined;

/**
 * Whether ffmpeg is usable (the video download route asks before it starts a download). Probed
 * once per process (again after `refresh`), so asking costs nothing after the first time.
 */
export async function ffmpegUsable(configured: string | undefined, refresh = false): Promise<BinaryStatus> {
  if (!ffmpegStatus || refresh) ffmpegStatus = await probeFfmpeg(configured);
  return ffmpegStatus;
}
