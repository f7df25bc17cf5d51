/**
 * What a terminated worker thread leaves of its media downloads (farm/media/scratch.ts): its
 * temp folders, and the ffmpeg working in them. The pool removes both when the thread is gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { removeThreadScratch } from '../../farm/media/scratch.js';
import { settledWithin } from '../helpers/deadline.js';

test("a gone thread's folders are removed and the children working in them killed; other threads' stay", async () => {
  const gone = 987_001;
  const kept = 987_002;
  const dir = mkdtempSync(join(tmpdir(), `gleaner-media-${process.pid}-t${gone}-`));
  const other = mkdtempSync(join(tmpdir(), `gleaner-media-${process.pid}-t${kept}-`));
  writeFileSync(join(dir, 'in-0-muxed'), 'x');
  // Stands in for an ffmpeg reading the folder: a child whose command line names it.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', join(dir, 'in-0-muxed')], { stdio: 'ignore' });
  const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise((resolve) => child.on('spawn', resolve));

  removeThreadScratch(gone);

  expect(await settledWithin(exited, 'the child working in the folder to be killed')).toBe('SIGKILL');
  expect(existsSync(dir)).toBe(false);
  expect(existsSync(other)).toBe(true);
  removeThreadScratch(kept);
  expect(readdirSync(tmpdir()).filter((n) => n.startsWith(`gleaner-media-${process.pid}-`))).toEqual([]);
});
