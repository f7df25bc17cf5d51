/**
 * Worker side of a flow's media step (core/targets/flow.ts `MediaStep`): asks the step which
 * streams the page offers, fetches each with ranged requests on the attempt's proxy into a
 * temp folder (farm/net/ranged.ts), cuts and remuxes them into one file with ffmpeg, and reads
 * the file's duration with ffprobe. The file is the caller's: it uploads it and removes `dir`.
 *
 * Temp files: one folder per run, removed here on every failure (refusal, network, cap, ffmpeg,
 * abort) and by the caller after the upload, or by the pool if the thread is terminated
 * (media/scratch.ts); the fetched streams are removed as soon as the remux has read them, so a
 * download holds at most its streams plus the output on disk.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GleanerError } from '../../core/errors.js';
import type { MediaChoice, MediaStep, Vars } from '../../core/targets/flow.js';
import { mediaHeaders } from '../identity/headers.js';
import type { BrowserProfile } from '../identity/profile.js';
import { probeDuration, remux, requireFfmpeg, type RemuxInput } from '../media/ffmpeg.js';
import { scratchDir } from '../media/scratch.js';
import type { ProxyEntry } from '../net/proxies.js';
import { fetchToFile } from '../net/ranged.js';
import type { FlowContext } from './flow.js';

/** A downloaded, cut and remuxed file in its own temp folder. */
export interface MediaFile {
  /** The temp folder holding `path`; remove it when done. */
  dir: string;
  path: string;
  container: string;
  /** File size in bytes. */
  size: number;
  /** Duration in seconds, as ffprobe reads the file. */
  duration: number;
  /** The chosen formats, for the result JSON. */
  facts: Readonly<Record<string, unknown>>;
  requestBytes: number;
  /** Bytes of the streams fetched. */
  fetchedBytes: number;
}

export interface MediaRunContext {
  ctx: FlowContext;
  /** The attempt's identity: a stream is fetched as the page was. */
  profile: BrowserProfile;
  proxy: ProxyEntry | null;
}

export async function runMediaStep(step: MediaStep, page: string, vars: Readonly<Vars>, at: MediaRunContext): Promise<MediaFile> {
  const { env, abort } = at.ctx;
  const config = env.setup.config;
  const tools = await requireFfmpeg(config.ffmpeg);
  const choice = choose(step, page, vars);
  if (!choice.ok) throw new GleanerError(choice.code, choice.message, choice.data);
  const declared = choice.sources.reduce((n, s) => n + (s.size ?? 0), 0);
  if (declared > config.mediaMaxBytes) {
    throw new GleanerError('RESPONSE_TOO_LARGE', `The media is larger than ${config.mediaMaxBytes} bytes (GLEANER_MEDIA_MAX_BYTES).`, { maxBytes: config.mediaMaxBytes });
  }
  const signal = abort.signal;
  // Named by this thread: a thread terminated mid-download has its folder removed by the pool.
  const dir = await scratchDir();
  try {
    const inputs: RemuxInput[] = [];
    let fetchedBytes = 0;
    let requestBytes = 0;
    // One after the other: the second stream's cap is what the first left of the budget.
    for (const [i, source] of choice.sources.entries()) {
      const path = join(dir, `in-${i}-${source.role}`);
      const got = await fetchToFile(
        { url: source.url, headers: mediaHeaders(at.profile, step.headers), proxy: at.proxy, path, maxBytes: config.mediaMaxBytes - fetchedBytes, signal },
        env.transports,
        env.policy,
      );
      fetchedBytes += got.size;
      requestBytes += got.requestBytes;
      inputs.push({ path, take: source.role === 'muxed' ? (step.output === 'audio' ? 'audio' : 'both') : source.role });
    }
    const output = join(dir, `out.${choice.container}`);
    await remux(tools, { inputs, output, container: choice.container, start: step.range.start, end: step.range.end, signal });
    await Promise.all(inputs.map((input) => rm(input.path, { force: true })));
    const [{ size }, duration] = await Promise.all([stat(output), probeDuration(tools, output, choice.container, signal)]);
    if (size === 0 || duration <= 0) {
      throw new GleanerError('MEDIA_NOT_DOWNLOADABLE', 'The requested range holds no media (start_at is past the end of the video?).', { reason: 'empty_range' });
    }
    return { dir, path: output, container: choice.container, size, duration, facts: choice.facts, requestBytes, fetchedBytes };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The step's choice; a hook that throws is a bug in the family, reported as one. */
function choose(step: MediaStep, page: string, vars: Readonly<Vars>): MediaChoice {
  try {
    return step.choose(page, vars);
  } catch {
    return { ok: false, code: 'INTERNAL_ERROR', message: `Media step "${step.name}" could not read the page.` };
  }
}
