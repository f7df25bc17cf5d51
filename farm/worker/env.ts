/**
 * Everything one worker thread owns, created once per thread on its first task: the plain path's transports,
 * the browser connection, the context pool, the SSRF guard proxies, the stats row.
 */
import { threadId } from 'node:worker_threads';
import type { Browser } from 'patchright-core';
import { BrowserLink } from '../browser/connection.js';
import { LocalBrowser } from '../browser/local.js';
import { MarkdownHelper } from './markdown-helper.js';
import { useChromeVersion } from '../devices.js';
import { ContextPool } from '../browser/contexts.js';
import { MemoryGate } from '../browser/memory.js';
import type { WorkerSetup } from '../messages.js';
import { Transports } from '../net/transports.js';
import { useCaFile } from '../net/trust.js';
import { GuardProxy } from '../net/guard-proxy.js';
import type { ProxyEntry } from '../net/proxies.js';
import type { NetPolicy } from '../net/ssrf.js';
import { BEAT_MS, claimSlot, type StatsSlot } from '../stats.js';
import { CancelBoard } from './cancels.js';
import { Sessions } from './sessions.js';

export class Guards {
  private readonly byUpstream = new Map<string, Promise<GuardProxy>>();
  constructor(private readonly policy: NetPolicy) {}

  get(upstream: ProxyEntry | null): Promise<GuardProxy> {
    const key = upstream?.url ?? 'direct';
    let guard = this.byUpstream.get(key);
    if (!guard) {
      guard = GuardProxy.start(this.policy, upstream);
      guard.catch(() => this.byUpstream.delete(key));
      this.byUpstream.set(key, guard);
    }
    return guard;
  }

  async close(): Promise<void> {
    const all = [...this.byUpstream.values()];
    this.byUpstream.clear();
    await Promise.allSettled(all.map(async (g) => (await g).close()));
  }
}

export interface WorkerEnv {
  setup: WorkerSetup;
  policy: NetPolicy;
  /** The plain path's clients (Chrome's TLS and HTTP/2). */
  transports: Transports;
  /** Shared mode: the connection to the node's browser server. */
  link: BrowserLink;
  /** Per-worker mode: this thread's own browser. */
  local: LocalBrowser;
  contexts: ContextPool;
  guards: Guards;
  slot: StatsSlot;
  cancels: CancelBoard;
  /** Flow sessions (cookies and variables of setup steps) reused per key and proxy. */
  sessions: Sessions;
  /** Render threads: Markdown of pages fetched without rendering, on a helper thread (markdown-helper.ts). */
  markdown: MarkdownHelper | undefined;
}

export function createEnv(setup: WorkerSetup): WorkerEnv {
  useChromeVersion(setup.browserLaunch.version);
  useCaFile(setup.config.caFile);
  const policy: NetPolicy = { allowPrivate: setup.config.allowPrivate, hosts: lowerKeys(setup.hosts) };
  const slot = claimSlot(setup.stats, threadId);
  // The event loop's beat: the pool reads a thread with tasks and an old beat as stuck (stats.ts).
  setInterval(() => slot.beat(), BEAT_MS).unref();
  const contexts = new ContextPool(setup.limits, setup.pages, slot, new MemoryGate(setup.limits.maxRssBytes));
  const dropBrowser = (browser: Browser) => contexts.dropBrowser(browser);
  const link = new BrowserLink(dropBrowser);
  const local = new LocalBrowser(setup.browserLaunch, slot, dropBrowser, { ms: setup.browserIdleMs, busy: () => contexts.busy });
  const markdown = setup.pages > 0 ? new MarkdownHelper(setup.browserIdleMs) : undefined;
  const cancels = new CancelBoard(setup.cancelChannel, (how) => {
    void markdown?.close();
    return how === 'kill' ? local.kill() : local.close();
  });
  return { setup, policy, transports: new Transports(policy), link, local, contexts, guards: new Guards(policy), slot, cancels, sessions: new Sessions(), markdown };
}

function lowerKeys(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
}
