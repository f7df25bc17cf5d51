/**
 * Worker side, `browserMode: 'per-worker'`: this thread's own Chromium, launched with
 * `chromium.launch` (pipe transport, Playwright's server side in this thread) on the thread's
 * first rendering task, with the same command line as the shared browser. It skips the shared
 * mode's hop (worker client → WebSocket → browser-server process → Chromium): measured ~20 %
 * less CPU per rendered page at two contexts per worker (the default then), for one Chromium per
 * worker (more memory).
 *
 * A browser that goes away (crash, kill) is forgotten; the task that saw it fails with
 * BROWSER_CRASHED, the pool retries it once, and the next task here launches a new one.
 * A browser without a rendering task for `idle.ms` is closed (the next task launches one).
 * Only render threads ever call `get()` (farm/threads.ts), so only they run a browser.
 * Its pid (for stats, the memory gate and kills from the pool) is found in /proc by a marker
 * switch on its command line: Playwright does not expose the pid of a launched browser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'patchright-core';
import { GleanerError } from '../../core/errors.js';
import type { BrowserLaunch } from '../messages.js';
import { profileDirOf, removeProfile } from '../chromium-args.js';
import { F_BROWSER_PID, F_LAUNCHES, type StatsSlot } from '../stats.js';
import { loadPlaywright } from './connection.js';

export interface IdlePolicy {
  /** Close the browser after this long (ms) without use; 0 = never. */
  ms: number;
  /** Whether pages are rendering now (then the browser is in use). */
  busy: () => boolean;
}

export class LocalBrowser {
  private browser: Promise<Browser> | undefined;
  private pid: number | undefined;
  private profile: string | undefined;
  private lastUse = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A launch in progress is use: it may take longer than the idle period on a loaded machine. */
  private launching = false;

  constructor(
    private readonly launch: BrowserLaunch,
    private readonly slot: StatsSlot,
    /** Runs when a launched browser goes away (crash, kill, close). */
    private readonly onLost: (browser: Browser) => void,
    private readonly idle: IdlePolicy = { ms: 0, busy: () => false },
  ) {}

  get currentPid(): number | undefined {
    return this.pid;
  }

  get(): Promise<Browser> {
    this.lastUse = Date.now();
    this.browser ??= this.start();
    this.armIdle();
    return this.browser;
  }

  private armIdle(wait = this.idle.ms): void {
    if (this.idle.ms <= 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => this.checkIdle(), wait);
    this.idleTimer.unref();
  }

  /** Closes the browser once it has been unused for `idle.ms`; rendering pages count as use. */
  private checkIdle(): void {
    this.idleTimer = undefined;
    const pending = this.browser;
    if (!pending) return;
    const now = Date.now();
    if (this.launching || this.idle.busy()) this.lastUse = now;
    const quiet = now - this.lastUse;
    if (quiet < this.idle.ms) return this.armIdle(this.idle.ms - quiet);
    // Forget it first: a task arriving while it closes launches a new one instead of getting
    // a browser that is going away.
    const { pid, profile } = this;
    this.browser = undefined;
    this.pid = undefined;
    this.profile = undefined;
    this.slot.set(F_BROWSER_PID, 0);
    void pending.then(
      async (browser) => {
        const closed = await Promise.race([browser.close().then(() => true, () => true), delay(IDLE_CLOSE_MS).then(() => false)]);
        if (!closed && pid) {
          kill(pid);
          removeProfile(profile);
        }
      },
      () => undefined,
    );
  }

  private async start(): Promise<Browser> {
    const marker = `--gleaner-farm-browser=${randomUUID()}`;
    let browser: Browser;
    this.launching = true;
    try {
      const { chromium } = await loadPlaywright();
      browser = await chromium.launch({
        executablePath: this.launch.executablePath,
        args: [...this.launch.args, marker],
        ...(this.launch.env ? { env: { ...process.env, ...this.launch.env } } : {}),
        headless: true,
        // The farm's process decides about signals; with a pipe the browser exits when we do.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch {
      this.browser = undefined;
      throw new GleanerError('BROWSER_CRASHED', 'The browser could not be started.');
    } finally {
      this.launching = false;
    }
    this.lastUse = Date.now();
    this.pid = findByMarker(marker);
    this.profile = profileDirOf(this.pid);
    this.slot.set(F_BROWSER_PID, this.pid ?? 0);
    this.slot.add(F_LAUNCHES, 1);
    const mine = this.browser;
    browser.once('disconnected', () => {
      if (this.browser === mine) {
        this.browser = undefined;
        this.pid = undefined;
        this.slot.set(F_BROWSER_PID, 0);
      }
      this.onLost(browser);
    });
    return browser;
  }

  /** Resolves when `browser` has disconnected, or after `ms`. */
  async settle(browser: Browser, ms: number): Promise<void> {
    if (!browser.isConnected()) return;
    await Promise.race([new Promise<void>((r) => browser.once('disconnected', () => r())), delay(ms)]);
  }

  /**
   * Graceful close (Playwright removes its temporary profile); kills after `ms`. Resolves
   * whether there was a browser (launched or launching).
   */
  async close(ms = 5000): Promise<boolean> {
    const pending = this.browser;
    if (!pending) return false;
    const pid = this.pid;
    const browser = await pending.catch(() => undefined);
    if (!browser) return true;
    const profile = this.profile;
    const closed = await Promise.race([browser.close().then(() => true, () => true), delay(ms).then(() => false)]);
    if (!closed && pid) {
      kill(pid);
      removeProfile(profile);
    }
    return true;
  }

  /** Kills the browser now and waits (briefly) for Playwright to see it go; as `close`. */
  async kill(): Promise<boolean> {
    const pending = this.browser;
    const pid = this.pid;
    if (!pending || !pid) return this.close(1000);
    const browser = await pending.catch(() => undefined);
    const gone = browser?.isConnected() ? new Promise<void>((r) => browser.once('disconnected', () => r())) : Promise.resolve();
    const profile = this.profile;
    kill(pid);
    await Promise.race([gone, delay(2000)]);
    // The pool stops this thread next, before Playwright's own clean-up would run.
    removeProfile(profile);
    return true;
  }
}

/**
 * How long an idle browser's graceful close may take before it is killed. The thread that
 * launched a browser must outlive its close (pool-threads.ts sizes the render thread's idle time by
 * it): only that thread's event loop reaps the browser process, and a browser that exits after
 * its thread ended stays a zombie for the life of the service.
 */
export const IDLE_CLOSE_MS = 5000;

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The pid of this process's child whose command line carries `marker` (Linux /proc), if any. */
function findByMarker(marker: string): number | undefined {
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      let kids: string[];
      try {
        kids = readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        continue;
      }
      for (const kid of kids) {
        try {
          if (readFileSync(`/proc/${kid}/cmdline`, 'utf8').includes(marker)) return Number(kid);
        } catch {
          // exited
        }
      }
    }
  } catch {
    // no /proc: the pid stays unknown (stats and the memory gate then count this process only)
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
