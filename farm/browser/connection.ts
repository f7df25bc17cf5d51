/**
 * Worker side: this thread's connection to the node's browser server. One connection at a
 * time; a task naming a new endpoint (the browser was relaunched) replaces it.
 */
import type { Browser } from 'patchright-core';
import { GleanerError } from '../../core/errors.js';
import type { BrowserRef } from '../messages.js';

export class BrowserLink {
  private endpoint: string | undefined;
  private browser: Promise<Browser> | undefined;

  /** `onLost` runs when a connected browser goes away (crash, kill, relaunch). */
  constructor(private readonly onLost: (browser: Browser) => void) {}

  get(ref: BrowserRef): Promise<Browser> {
    if (this.browser && this.endpoint === ref.wsEndpoint) return this.browser;
    const old = this.browser;
    this.endpoint = ref.wsEndpoint;
    const connecting = loadPlaywright().then((pw) => pw.chromium.connect(ref.wsEndpoint, { timeout: 30_000 })).then(
      (browser) => {
        browser.once('disconnected', () => {
          if (this.browser === connecting) {
            this.browser = undefined;
            this.endpoint = undefined;
          }
          this.onLost(browser);
        });
        return browser;
      },
      () => {
        if (this.browser === connecting) {
          this.browser = undefined;
          this.endpoint = undefined;
        }
        throw new GleanerError('BROWSER_CRASHED', 'The browser could not be reached.', { wsEndpoint: ref.wsEndpoint });
      },
    );
    this.browser = connecting;
    if (old) void old.then((b) => b.close()).catch(() => undefined);
    return connecting;
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    this.endpoint = undefined;
    if (b) await b.then((x) => x.close()).catch(() => undefined);
  }
}

let playwright: Promise<typeof import('patchright-core')> | undefined;

/**
 * playwright-core is loaded on this thread's first rendering task, not at worker start: a
 * thread that only fetches plain HTTP never pays its load time and memory.
 */
export function loadPlaywright(): Promise<typeof import('patchright-core')> {
  playwright ??= import('patchright-core');
  return playwright;
}
