/**
 * One service per data directory. A second `gleaner serve` on the same folder would recover
 * (and run again) the jobs the first one is running, so the service takes a lock file,
 * `<dataDir>/gleaner.lock`, before it opens the store, and refuses to start while a live
 * process holds it. The offline CLI (`gleaner keys ...`) takes no lock: it writes through
 * LMDB's own multi-process locking and keeps working while the service runs.
 *
 * The file holds the holder's pid and its start time (`/proc/<pid>/stat` field 22, clock ticks
 * since boot). A lock is live while a process with that pid exists *and* started at that time:
 * a lock left by a `kill -9` is stale once its process is gone, even when the pid has been
 * reused since (a reboot, a container restart where the new service is pid 1 again). Without
 * `/proc` the pid alone is checked.
 *
 * Concurrency hazard: taking over a stale lock is unlink + exclusive create. Two services that
 * start within the same instant over the same stale lock could both pass the unlink; the one
 * whose create loses sees EEXIST and re-reads the file, which now names a live process.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'gleaner.lock';

interface LockRecord {
  pid: number;
  /** Start time of the process in clock ticks since boot, or null where /proc is missing. */
  started: number | null;
}

/** Start time of a process (`/proc/<pid>/stat` field 22), or null when it cannot be read. */
function startTime(pid: number | 'self'): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const value = Number(fields[19]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names is still the one that wrote it. */
function isLive(record: LockRecord): boolean {
  if (!Number.isInteger(record.pid) || record.pid <= 0 || !exists(record.pid)) return false;
  if (record.started === null) return true;
  const now = startTime(record.pid);
  return now === null || now === record.started;
}

function readLock(path: string): LockRecord | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockRecord>;
    return { pid: Number(parsed.pid), started: typeof parsed.started === 'number' ? parsed.started : null };
  } catch {
    // Unreadable or half written (a crash between create and write): treated as stale.
    return undefined;
  }
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the data directory ${dataDir} is in use by another gleaner service (pid ${pid}); stop it first, or give this one another GLEANER_DATA_DIR`);
  }
}

export interface InstanceLock {
  /** Removes the lock file if it is still this process's. Idempotent. */
  release(): void;
}

/** Takes the data directory's lock or throws DataDirInUseError; the folder must exist. */
export function lockDataDir(dataDir: string): InstanceLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: LockRecord = { pid: process.pid, started: startTime('self') };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(path);
      if (holder && isLive(holder)) throw new DataDirInUseError(dataDir, holder.pid);
      try {
        unlinkSync(path); // stale: its process is gone
      } catch (unlinkErr) {
        if ((unlinkErr as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkErr;
      }
      continue;
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      process.off('exit', release);
      const holder = readLock(path);
      if (holder && holder.pid === mine.pid && holder.started === mine.started) {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }
    };
    // A crash that still runs exit handlers (an uncaught exception) leaves no lock behind.
    process.on('exit', release);
    return { release };
  }
  const holder = readLock(path);
  throw new DataDirInUseError(dataDir, holder?.pid ?? 0);
}
