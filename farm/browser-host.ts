/**
 * Pool side: the node's one Chromium, started as a Playwright browser server (in a child
 * process of its own, see browser-server.ts) on the first task that renders; workers `connect` to its
 * WebSocket endpoint. A browser that exits (crash, kill) is forgotten and the next task
 * launches a new one; one without a rendering task for `idleMs` is closed (the next launches one).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { GleanerError } from '../core/errors.js';
import type { ServerProcessCommand, ServerProcessData, ServerProcessEvent } from './browser-server.js';
import { chromiumArgs, resolveExecutable } from './chromium-args.js';
import { desktopUserAgent } from './identity/profile.js';
import type { BrowserRef } from './messages.js';

export interface BrowserHostOptions {
  executablePath: string | undefined;
  hosts: Readonly<Record<string, string>>;
  guarded: boolean;
  /** Added to the browser's environment (browser/trust.ts). */
  env?: Record<string, string> | undefined;
  logger: Logger | undefined;
  /** Close the browser after this long (ms) without a rendering task; 0 = never. */
  idleMs: number;
  /** Whether rendering tasks are in flight. */
  busy: () => boolean;
}

interface Live {
  child: ChildProcess;
  ref: BrowserRef;
  closed: Promise<void>;
}

export class BrowserHost {
  private live: Live | undefined;
  private launching: Promise<Live> | undefined;
  private stopped = false;
  private lastUse = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  launches = 0;

  constructor(private readonly opts: BrowserHostOptions) {}

  current(): BrowserRef | undefined {
    return this.live?.ref;
  }

  /** The running browser, launching one if there is none (concurrent callers share a launch). */
  async ensure(): Promise<BrowserRef> {
    if (this.stopped) throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    this.used();
    if (this.live) return this.live.ref;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return (await this.launching).ref;
  }

  private async launch(): Promise<Live> {
    const executablePath = resolveExecutable(this.opts.executablePath);
    const fromSource = import.meta.url.endsWith('.ts');
    const data: ServerProcessData = {
      executablePath,
      args: chromiumArgs({ executablePath, hosts: this.opts.hosts, guarded: this.opts.guarded, userAgent: desktopUserAgent() }),
      env: this.opts.env,
    };
    const entry = fileURLToPath(new URL(fromSource ? './browser-server.ts' : './browser-server.js', import.meta.url));
    const child = fork(entry, [JSON.stringify(data)], {
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const first = new Promise<ServerProcessEvent>((resolve) => {
      child.on('message', (e: ServerProcessEvent) => {
        if (e.type === 'closed') markClosed();
        else resolve(e);
      });
      child.once('error', (err) => resolve({ type: 'failed', message: err.message }));
      child.once('exit', () => {
        resolve({ type: 'failed', message: 'the browser process exited' });
        markClosed();
      });
    });
    const event = await first;
    if (event.type !== 'launched') {
      this.opts.logger?.error({ err: event.type === 'failed' ? event.message : event.type }, 'browser launch failed');
      child.kill('SIGKILL');
      throw new GleanerError('BROWSER_CRASHED', 'The browser could not be started.');
    }
    this.launches++;
    const live: Live = { child, ref: { wsEndpoint: event.wsEndpoint, pid: event.pid }, closed };
    void closed.then(() => {
      // An idle close forgot it already (and said so).
      if (this.live !== live) return;
      this.live = undefined;
      if (!this.stopped) this.opts.logger?.warn({ pid: live.ref.pid }, 'browser exited');
    });
    this.opts.logger?.info({ pid: live.ref.pid, executablePath }, 'browser started');
    if (this.stopped) {
      await this.stop(live, 'close');
      throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    }
    this.live = live;
    return live;
  }

  /** A rendering task started or ended: the idle period counts from the last one. */
  used(): void {
    this.lastUse = Date.now();
    this.armIdle(this.opts.idleMs);
  }

  private armIdle(wait: number): void {
    if (this.opts.idleMs <= 0 || this.idleTimer || this.stopped) return;
    this.idleTimer = setTimeout(() => this.checkIdle(), wait);
    this.idleTimer.unref();
  }

  private checkIdle(): void {
    this.idleTimer = undefined;
    const live = this.live;
    if (!live || this.stopped) return;
    const now = Date.now();
    if (this.opts.busy()) this.lastUse = now;
    const quiet = now - this.lastUse;
    if (quiet < this.opts.idleMs) return this.armIdle(this.opts.idleMs - quiet);
    // Forgotten first: a task arriving while it closes launches a new one.
    this.live = undefined;
    this.opts.logger?.info({ pid: live.ref.pid, idle_ms: quiet }, 'browser closed after an idle period');
    void this.stop(live, 'close');
  }

  /**
   * A worker lost the browser at `wsEndpoint`. If that is still the current one, wait briefly
   * for its exit to be seen, else kill it, so the retry gets a fresh browser.
   */
  async reportLost(wsEndpoint: string): Promise<void> {
    const live = this.live;
    if (!live || live.ref.wsEndpoint !== wsEndpoint) return;
    const exited = await Promise.race([live.closed.then(() => true), delay(2000).then(() => false)]);
    if (!exited) await this.stop(live, 'kill');
  }

  /** Waits up to `ms` for the browser at `wsEndpoint`, if still current, to be seen exiting. */
  async awaitExit(wsEndpoint: string, ms: number): Promise<void> {
    const live = this.live;
    if (!live || live.ref.wsEndpoint !== wsEndpoint) return;
    await Promise.race([live.closed, delay(ms)]);
  }

  /** Graceful: close the browser (workers' contexts go with it). */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    await this.launching?.catch(() => undefined);
    const live = this.live;
    this.live = undefined;
    if (live) await this.stop(live, 'close');
  }

  async kill(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    await this.launching?.catch(() => undefined);
    const live = this.live;
    this.live = undefined;
    if (live) await this.stop(live, 'kill');
  }

  /** Asks the server process to close or kill the browser; kills both by pid if that stalls. */
  private async stop(live: Live, how: ServerProcessCommand): Promise<void> {
    if (live.child.connected) live.child.send(how);
    const done = await Promise.race([live.closed.then(() => true), delay(how === 'close' ? 5000 : 2000).then(() => false)]);
    if (!done && live.ref.pid) {
      try {
        process.kill(live.ref.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.race([live.closed, delay(2000)]);
    if (live.child.exitCode === null && live.child.signalCode === null) live.child.kill('SIGKILL');
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
