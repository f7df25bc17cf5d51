/**
 * ffmpeg and ffprobe for media downloads: where they are, whether they run and why not, and
 * the two jobs the farm gives them — cut and remux the fetched streams into one file, and read
 * a file's duration. `GLEANER_FFMPEG` names the ffmpeg binary (ffprobe is looked for beside it,
 * else on PATH); without it both come from PATH.
 *
 * The start-up check (`checkFfmpeg`) runs `-version` on both once per process and path and
 * caches the answer: the gateway refuses downloads with FFMPEG_NOT_AVAILABLE and shows it in
 * /readyz, `gleaner doctor` prints it, and each worker asks before its first download.
 *
 * Cuts are stream copies (no re-encode): a cut starts on the key frame at or before `start`,
 * so a video may begin up to one key-frame interval early; audio cuts are frame-exact.
 *
 * Hostile input: the fetched streams are the upstream's bytes. Left to probe, ffmpeg picks its
 * demuxer by content, and an HLS or concat playlist in place of a video makes it open the URLs
 * and files the playlist names. So every input is first recognised here by its magic bytes (an
 * MP4-family box, or a Matroska/WebM EBML header; anything else is refused before ffmpeg runs),
 * then opened with that demuxer named (`-f`) and `-protocol_whitelist file`, and so is the
 * file ffprobe reads: ffmpeg opens the temp files and nothing else.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { GleanerError } from '../../core/errors.js';

export const FFMPEG_INSTALL_HINT = 'install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set GLEANER_FFMPEG to the ffmpeg binary';

export interface FfmpegStatus {
  /** Both binaries ran and printed a version. */
  ok: boolean;
  ffmpeg: string;
  ffprobe: string;
  /** `5.1.6-0+deb12u1`, or null when ffmpeg did not run. */
  version: string | null;
  /** Why not, with what to install; null when ok. */
  reason: string | null;
}

/** How long `-version` may take before the binary counts as not usable. */
const PROBE_TIMEOUT_MS = 10_000;
/** Stderr kept from a failed ffmpeg run for the error message. */
const STDERR_KEEP = 2000;

/** ffmpeg and ffprobe paths for a configured ffmpeg (a path or a bare name), or PATH lookups. */
export function ffmpegPaths(configured: string | undefined): { ffmpeg: string; ffprobe: string } {
  if (!configured) return { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
  if (!configured.includes('/')) return { ffmpeg: configured, ffprobe: 'ffprobe' };
  // `ffmpeg-6` beside `ffprobe-6` (versioned builds), else `ffprobe` beside it, else PATH.
  const dir = dirname(configured);
  const named = join(dir, basename(configured).replace('ffmpeg', 'ffprobe'));
  const plain = join(dir, 'ffprobe');
  return { ffmpeg: configured, ffprobe: existsSync(named) ? named : existsSync(plain) ? plain : 'ffprobe' };
}

function versionOf(bin: string): Promise<{ version: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile(bin, ['-hide_banner', '-version'], { timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve({ error: `${bin} was not found${bin.includes('/') ? '' : ' on PATH'}` });
        if (code === 'EACCES') return resolve({ error: `${bin} is not executable` });
        if ((err as { killed?: boolean }).killed) return resolve({ error: `${bin} -version did not answer within ${PROBE_TIMEOUT_MS} ms` });
        return resolve({ error: `${bin} -version failed (${typeof code === 'number' ? `exit ${code}` : (code ?? err.message)})` });
      }
      const m = /version\s+(\S+)/.exec(String(stdout));
      resolve(m ? { version: m[1] as string } : { error: `${bin} -version printed no version` });
    });
  });
}

async function probe(configured: string | undefined): Promise<FfmpegStatus> {
  const paths = ffmpegPaths(configured);
  const [ff, fp] = await Promise.all([versionOf(paths.ffmpeg), versionOf(paths.ffprobe)]);
  const problems = [ff, fp].flatMap((r) => ('error' in r ? [r.error] : []));
  return {
    ok: problems.length === 0,
    ...paths,
    version: 'version' in ff ? ff.version : null,
    reason: problems.length === 0 ? null : `${problems.join('; ')}: ${FFMPEG_INSTALL_HINT}`,
  };
}

const checked = new Map<string, Promise<FfmpegStatus>>();

/**
 * Whether ffmpeg and ffprobe run, for `GLEANER_FFMPEG` (`configured`, undefined: PATH).
 * Checked once per process and path; `fresh` checks again (after an install, `gleaner doctor`).
 * Never rejects.
 */
export function checkFfmpeg(configured?: string, fresh = false): Promise<FfmpegStatus> {
  const key = configured ?? '';
  let status = checked.get(key);
  if (!status || fresh) {
    status = probe(configured);
    checked.set(key, status);
  }
  return status;
}

/** The checked tools, or FFMPEG_NOT_AVAILABLE naming what is missing and what to install. */
export async function requireFfmpeg(configured: string | undefined): Promise<FfmpegStatus> {
  const status = await checkFfmpeg(configured);
  if (!status.ok) throw new GleanerError('FFMPEG_NOT_AVAILABLE', `Media downloads need ffmpeg and ffprobe: ${status.reason}.`, { reason: status.reason });
  return status;
}

/** ffmpeg muxer names of the containers a download writes. */
const MUXERS: Readonly<Record<string, string>> = { mp4: 'mp4', m4a: 'mp4', webm: 'webm', mkv: 'matroska', '3gp': '3gp' };

/** ffmpeg demuxers an input may be read with: the MP4 family, and Matroska/WebM. */
export type InputFormat = 'mov' | 'matroska';

/** The demuxer of a file this module wrote, by its container. */
function demuxerOf(container: string): InputFormat {
  return MUXERS[container] === 'webm' || MUXERS[container] === 'matroska' ? 'matroska' : 'mov';
}

/** Top-level box types an MP4-family file starts with. */
const MP4_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'styp', 'sidx']);

/** The demuxer for a fetched file by its first bytes, or null: not a container a download reads. */
export async function sniffFormat(path: string): Promise<InputFormat | null> {
  const head = Buffer.alloc(12);
  const file = await open(path, 'r');
  let n: number;
  try {
    ({ bytesRead: n } = await file.read(head, 0, head.length, 0));
  } finally {
    await file.close();
  }
  if (n >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (n >= 8 && MP4_BOXES.has(head.toString('latin1', 4, 8))) return 'mov';
  return null;
}

export interface RemuxInput {
  path: string;
  /** What is taken from it: the video track, the audio track, or both (a muxed file). */
  take: 'video' | 'audio' | 'both';
  /** Its demuxer (`sniffFormat`); `remux` finds it when absent. */
  format?: InputFormat;
}

export interface RemuxJob {
  inputs: readonly RemuxInput[];
  output: string;
  container: string;
  /** Seconds; 0 for the beginning. */
  start: number;
  /** Seconds; undefined runs to the end. */
  end: number | undefined;
  signal: AbortSignal;
}

/** The ffmpeg command line of a job (exported for tests: what is cut and mapped). */
export function remuxArgs(job: RemuxJob): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];
  for (const input of job.inputs) {
    if (!input.format) throw new GleanerError('INTERNAL_ERROR', 'An ffmpeg input has no recognised format.');
    // Read as the container it was recognised as, from the file itself and nothing else.
    args.push('-protocol_whitelist', 'file', '-f', input.format);
    // Input options: each input seeks on its own, so video and audio are cut at the same time.
    if (job.start > 0) args.push('-ss', String(job.start));
    if (job.end !== undefined) args.push('-to', String(job.end));
    args.push('-i', input.path);
  }
  job.inputs.forEach((input, i) => {
    if (input.take !== 'audio') args.push('-map', `${i}:v:0`);
    if (input.take !== 'video') args.push('-map', `${i}:a:0${input.take === 'both' ? '?' : ''}`);
  });
  args.push('-c', 'copy', '-avoid_negative_ts', 'make_zero');
  const muxer = MUXERS[job.container] ?? 'matroska';
  if (muxer === 'mp4') args.push('-movflags', '+faststart');
  args.push('-protocol_whitelist', 'file', '-f', muxer, job.output);
  return args;
}

/**
 * Runs ffmpeg (cut and remux); MEDIA_NOT_DOWNLOADABLE when an input is not an MP4-family or
 * Matroska/WebM file (ffmpeg is not run), or with ffmpeg's last words when it fails.
 */
export async function remux(tools: FfmpegStatus, job: RemuxJob): Promise<void> {
  const inputs: RemuxInput[] = [];
  for (const input of job.inputs) {
    const format = input.format ?? (await sniffFormat(input.path));
    if (!format) throw new GleanerError('MEDIA_NOT_DOWNLOADABLE', 'A fetched stream is not an MP4 or WebM file.', { reason: 'unreadable' });
    inputs.push({ ...input, format });
  }
  const { code, stderr } = await run(tools.ffmpeg, remuxArgs({ ...job, inputs }), job.signal);
  if (code !== 0) {
    throw new GleanerError('MEDIA_NOT_DOWNLOADABLE', `ffmpeg could not cut and remux the streams: ${lastLine(stderr) || `exit ${code}`}.`, { reason: 'unreadable' });
  }
}

/** The duration in seconds of a file this module wrote as `container` (container duration, as ffprobe reports it). */
export async function probeDuration(tools: FfmpegStatus, path: string, container: string, signal: AbortSignal): Promise<number> {
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-f', demuxerOf(container), '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', path];
  const { code, stdout, stderr } = await run(tools.ffprobe, args, signal);
  const seconds = Number(stdout.trim());
  if (code !== 0 || !Number.isFinite(seconds)) {
    throw new GleanerError('MEDIA_NOT_DOWNLOADABLE', `ffprobe could not read the file written: ${lastLine(stderr) || `exit ${code}`}.`, { reason: 'unreadable' });
  }
  return seconds;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim().slice(0, 300) ?? '';
}

/**
 * One child process, killed when `signal` aborts (the task's deadline or cancel): the abort
 * reason is thrown, not ffmpeg's complaint about being killed.
 */
function run(bin: string, args: string[], signal: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 64 * 1024) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEEP);
    });
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? signal.reason : new GleanerError('FFMPEG_NOT_AVAILABLE', `${bin} could not be started (${(err as NodeJS.ErrnoException).code ?? err.message}): ${FFMPEG_INSTALL_HINT}.`));
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
