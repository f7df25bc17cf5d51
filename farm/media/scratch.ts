/**
 * Temp folders of media downloads, named by the process and the worker thread that made them,
 * so that what a thread leaves behind can be found when it is gone. A worker removes its
 * folders itself (media-step.ts, media-delivery.ts); a thread terminated in the middle of a
 * download (it overran a deadline, or ran out of memory) cannot, and its ffmpeg keeps running
 * on the files: the pool calls `removeThreadScratch` when the thread has exited, which kills
 * the ffmpeg and ffprobe children working in its folders and removes them.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

function prefixOf(thread: number): string {
  return `gleaner-media-${process.pid}-t${thread}-`;
}

/** A new temp folder for one download of this thread. */
export function scratchDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), prefixOf(threadId)));
}

/** Kills the children of this process working in `thread`'s folders and removes the folders. Never throws. */
export function removeThreadScratch(thread: number): void {
  const prefix = prefixOf(thread);
  let dirs: string[];
  try {
    dirs = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
  } catch {
    return;
  }
  if (dirs.length === 0) return;
  for (const pid of childrenNaming(join(tmpdir(), prefix))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs) rmSync(join(tmpdir(), dir), { recursive: true, force: true });
}

/** Pids of this process's children whose command line names `text` (Linux /proc; none elsewhere). */
function childrenNaming(text: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) out.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}
