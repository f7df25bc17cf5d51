/**
 * The video simulator's one real media file: a 10-second test pattern with a 440 Hz tone,
 * made by Debian's ffmpeg on first use and cached in the temp folder (one muxed mp4, and its
 * video-only (360p copy, 240p re-encoded) and audio-only streams as the adaptive formats), served
 * with HTTP range support
 * (`Range:` header and the platform's own `&range=a-b` parameter). Without ffmpeg the page
 * lists no formats and the media paths answer 501.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface MediaFile {
  itag: number;
  mime: string;
  path: string;
  size: number;
  durationMs: number;
  bitrate: number;
  adaptive: boolean;
  audio: boolean;
  width?: number;
  height?: number;
}

export const MEDIA_SECONDS = 10;
const DIR = join(tmpdir(), 'gleaner-video-sim-v1');

const X264 = ['-c:v', 'libx264', '-profile:v', 'baseline', '-preset', 'veryfast', '-crf', '35', '-g', '25', '-pix_fmt', 'yuv420p'];

/** The muxed file, then streams made from it: copies, and a 240p video-only one (only adaptive: a download of it merges). */
const SPECS = [
  { itag: 18, file: 'muxed.mp4', mime: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', adaptive: false, audio: true, width: 640, height: 360, args: [] as string[] },
  { itag: 134, file: 'video.mp4', mime: 'video/mp4; codecs="avc1.42001E"', adaptive: true, audio: false, width: 640, height: 360, args: ['-an', '-c', 'copy'] },
  { itag: 133, file: 'video-240.mp4', mime: 'video/mp4; codecs="avc1.42C015"', adaptive: true, audio: false, width: 426, height: 240, args: ['-an', '-vf', 'scale=426:240', ...X264] },
  { itag: 140, file: 'audio.m4a', mime: 'audio/mp4; codecs="mp4a.40.2"', adaptive: true, audio: true, width: 0, height: 0, args: ['-vn', '-c', 'copy'] },
];

async function make(): Promise<MediaFile[]> {
  mkdirSync(DIR, { recursive: true });
  const muxed = join(DIR, 'muxed.mp4');
  // Written under a temporary name and renamed: simulators of parallel test files may race here.
  const once = async (target: string, args: string[]) => {
    if (existsSync(target) && statSync(target).size > 0) return;
    const part = `${target}.${process.pid}.part${target.slice(target.lastIndexOf('.'))}`;
    await run('ffmpeg', ['-v', 'error', '-y', ...args, '-fflags', '+bitexact', part], { timeout: 60_000 });
    renameSync(part, target);
  };
  await once(muxed, [
    '-f', 'lavfi', '-i', `testsrc=size=640x360:rate=25:duration=${MEDIA_SECONDS}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${MEDIA_SECONDS}`,
    ...X264,
    '-c:a', 'aac', '-b:a', '64k', '-ac', '1', '-movflags', '+faststart', '-shortest',
  ]);
  const out: MediaFile[] = [];
  for (const s of SPECS) {
    const path = join(DIR, s.file);
    if (s.args.length > 0) await once(path, ['-i', muxed, ...s.args, '-movflags', '+faststart']);
    const size = statSync(path).size;
    out.push({
      itag: s.itag, mime: s.mime, path, size, durationMs: MEDIA_SECONDS * 1000, bitrate: Math.round((size * 8) / MEDIA_SECONDS),
      adaptive: s.adaptive, audio: s.audio, ...(s.height ? { width: s.width, height: s.height } : {}),
    });
  }
  return out;
}

let made: Promise<MediaFile[]> | undefined;

/** The media files, made once per process (an empty list when ffmpeg is not installed). */
export function mediaFiles(): Promise<MediaFile[]> {
  made ??= make().catch(() => []);
  return made;
}

/** Serves `file` whole (200) or the requested byte range (206); 416 for a range past the end. */
export function serveRange(res: ServerResponse, file: MediaFile, range: string | null): true {
  const m = range ? /^(?:bytes=)?(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) {
    res.writeHead(200, { 'content-type': file.mime.split(';')[0] as string, 'content-length': file.size, 'accept-ranges': 'bytes' });
    createReadStream(file.path).pipe(res);
    return true;
  }
  let start = m[1] === '' ? Math.max(0, file.size - Number(m[2])) : Number(m[1]);
  let end = m[1] === '' || m[2] === '' ? file.size - 1 : Math.min(Number(m[2]), file.size - 1);
  if (start >= file.size || start > end) {
    res.writeHead(416, { 'content-range': `bytes */${file.size}` });
    res.end();
    return true;
  }
  start = Math.max(0, start);
  end = Math.max(start, end);
  res.writeHead(206, {
    'content-type': file.mime.split(';')[0] as string,
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${file.size}`,
    'accept-ranges': 'bytes',
  });
  createReadStream(file.path, { start, end }).pipe(res);
  return true;
}
