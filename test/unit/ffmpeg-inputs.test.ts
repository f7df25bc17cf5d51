/**
 * ffmpeg opens the temp files and nothing else (issue 24 item 10): a fetched "video" that is
 * an HLS or concat playlist naming http:// and file:// URLs is refused before ffmpeg runs, or
 * (when its first bytes pass for MP4) read as MP4 with `-protocol_whitelist file`, so no URL
 * it names is ever opened. Real ffmpeg and ffprobe, a local HTTP server counting requests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkFfmpeg, probeDuration, remux, sniffFormat, type FfmpegStatus } from '../../farm/media/ffmpeg.js';

let dir: string;
let server: Server;
let origin: string;
let hits: string[];
let tools: FfmpegStatus;
const signal = new AbortController().signal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-ffmpeg-inputs-'));
  hits = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'video/mp2t' }).end(Buffer.alloc(188, 0x47));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tools = await checkFfmpeg();
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const hls = () => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${origin}/seg0.ts\n#EXTINF:2.0,\nfile:///etc/hostname\n#EXT-X-ENDLIST\n`;
const concat = () => `ffconcat version 1.0\nfile '${origin}/part.mp4'\nfile '/etc/hostname'\n`;

describe('hostile streams', () => {
  test.each([
    ['an HLS playlist', () => hls()],
    ['a concat script', () => concat()],
  ])('%s as the fetched video: refused, nothing it names is opened', async (_name, content) => {
    const input = file(`in-${_name.length}-muxed`, content());
    expect(await sniffFormat(input)).toBeNull();
    const err = await remux(tools, { inputs: [{ path: input, take: 'both' }], output: join(dir, 'out.mp4'), container: 'mp4', start: 0, end: undefined, signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'MEDIA_NOT_DOWNLOADABLE', message: 'A fetched stream is not an MP4 or WebM file.' });
    expect(hits).toEqual([]);
  });

  test('a playlist behind an MP4 box header is read as MP4 from the file alone: ffmpeg fails, no URL is opened', async () => {
    const box = Buffer.from([0, 0, 0, 16, ...Buffer.from('ftypisom'), 0, 0, 2, 0]);
    const input = file('in-0-disguised', Buffer.concat([box, Buffer.from(hls())]));
    expect(await sniffFormat(input)).toBe('mov');
    const err = await remux(tools, { inputs: [{ path: input, take: 'both' }], output: join(dir, 'out2.mp4'), container: 'mp4', start: 0, end: undefined, signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'MEDIA_NOT_DOWNLOADABLE', data: { reason: 'unreadable' } });
    expect(hits).toEqual([]);
  });

  test('ffprobe reads the written file as its container only', async () => {
    const err = await probeDuration(tools, file('out.mkv', hls()), 'mkv', signal).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'MEDIA_NOT_DOWNLOADABLE' });
    expect(hits).toEqual([]);
  });
});

test('an HLS playlist naming a file on the server (an MPEG-TS this test made) does not copy it into the download', async () => {
  // Left to probe, ffmpeg reads such a playlist and remuxes the named local file into the
  // output, which the download then uploads for the caller.
  const secret = join(dir, 'secret.ts');
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=32x32:rate=5', '-c:v', 'libx264', '-f', 'mpegts', secret]);
  const input = file('in-0-video', `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n${secret}\n#EXTINF:1.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`);
  const output = join(dir, 'leak.mp4');
  const err = await remux(tools, { inputs: [{ path: input, take: 'video' }], output, container: 'mp4', start: 0, end: undefined, signal }).catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 'MEDIA_NOT_DOWNLOADABLE' });
  expect(existsSync(output)).toBe(false);
});

describe('real media still passes', () => {
  test('an MP4 is recognised, remuxed to Matroska and probed', async () => {
    const src = join(dir, 'src.mp4');
    execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=64x64:rate=10', '-c:v', 'libx264', '-f', 'mp4', src]);
    expect(await sniffFormat(src)).toBe('mov');
    const out = join(dir, 'cut.mkv');
    await remux(tools, { inputs: [{ path: src, take: 'video' }], output: out, container: 'mkv', start: 0, end: undefined, signal });
    expect(await sniffFormat(out)).toBe('matroska');
    expect(await probeDuration(tools, out, 'mkv', signal)).toBeCloseTo(2, 0);
  });
});
