/**
 * The floor under the plain https path (issue #26 item 4): what full Chromium itself spends to
 * fetch a page the way `farm/browser/nav-fetch.ts` does — a tab navigates, the main-frame
 * document response is paused (CDP `Fetch`, response stage), its body read as a stream, the
 * navigation failed before commit — driven over a raw DevTools WebSocket with no library, so
 * the node side costs next to nothing and what is left is the browser's. The browser runs with
 * the farm's own command line (Playwright's switches and `farm/chromium-args.ts`, read off a
 * browser Playwright launched), over `--remote-debugging-port` instead of the pipe.
 *
 *   node --import tsx bench/farm/cdp-floor.ts [--pages 600] [--warm 100] [--concurrency 8] [--kb 87] [--enable RenderDocument] [--domains Network.enable,Page.enable] [--extra '--switch-a;--switch-b --switch-c']
 *
 * `--enable F,G`: rows with those features taken off the farm's `--disable-features` list
 * (each row a fresh browser), beside the farm's own line. Per row: pages/s, CPU-ms/page of the
 * browser's process tree, and the browser process's main thread alone (`CrBrowserMain`,
 * where navigations are handled).
 *
 * `--extra 'A;B C'`: one row per `;`-separated set of switches appended to the farm's command
 * line (a fresh browser each).
 *
 * `--domains M,N`: one more row whose tabs also send those commands (each without parameters,
 * `Page.setLifecycleEventsEnabled` with `enabled`) before the first fetch: what a domain the
 * library turns on for its own page model costs the browser per page (`library` is the set
 * patchright-core's page session enables: Page, Log, lifecycle events, Network).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { arg, argString, measure, printTable, type RunStats } from './measure.js';
import { article } from './plain-client.js';

const BROWSER = process.env.GLEANER_CHROMIUM || '/usr/lib/chromium/chromium';

/** The farm's browser command line, as Playwright launches it (read from /proc, then closed). */
async function farmCommandLine(): Promise<string[]> {
  const { chromium } = await import('patchright-core');
  const { chromiumArgs } = await import('../../farm/chromium-args.js');
  const server = await chromium.launchServer({ executablePath: BROWSER, args: chromiumArgs({ executablePath: BROWSER, hosts: {}, guarded: false }) });
  try {
    const argv = readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv.slice(1).filter((a) => !/^--(user-data-dir|remote-debugging-pipe|no-startup-window)/.test(a) && !a.startsWith('about:'));
  } finally {
    await server.close();
  }
}

/** A minimal CDP client: commands by id, events by session. */
class Cdp {
  private id = 0;
  private readonly waiting = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  readonly paused = new Map<string, (params: { requestId: string }) => void>();
  constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; sessionId?: string; params?: { requestId: string } };
      if (m.id !== undefined) {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.error) w?.reject(new Error(m.error.message));
        else w?.resolve(m.result ?? {});
      } else if (m.method === 'Fetch.requestPaused' && m.sessionId) this.paused.get(m.sessionId)?.(m.params!);
    });
  }
  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: Record<string, unknown>) => void, reject }));
  }
}

/** One fetch as nav-fetch.ts makes it: navigate, take the paused response's body, fail the navigation. */
async function fetchOnce(cdp: Cdp, sessionId: string, url: string): Promise<number> {
  const paused = new Promise<{ requestId: string }>((resolve) => cdp.paused.set(sessionId, resolve));
  const navigated = cdp.send('Page.navigate', { url }, sessionId);
  const { requestId } = await paused;
  const { stream } = await cdp.send<{ stream: string }>('Fetch.takeResponseBodyAsStream', { requestId }, sessionId);
  let size = 0;
  for (;;) {
    const part = await cdp.send<{ data: string; eof: boolean }>('IO.read', { handle: stream, size: 1 << 20 }, sessionId);
    size += part.data.length;
    if (part.eof) break;
  }
  await cdp.send('IO.close', { handle: stream }, sessionId);
  await cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }, sessionId);
  await navigated;
  return size;
}

/** CPU ticks (10 ms) of the browser process's main thread. */
function mainThreadTicks(pid: number): number {
  let ticks = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'chromium') continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks;
}

const LIBRARY_DOMAINS = ['Page.enable', 'Log.enable', 'Page.setLifecycleEventsEnabled', 'Network.enable'];

async function row(label: string, args: string[], origin: string, pages: number, warm: number, concurrency: number, domains: readonly string[] = []): Promise<RunStats & { browserMainMsPerPage: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-floor-'));
  const child = spawn(BROWSER, [...args, `--user-data-dir=${dir}`, '--remote-debugging-port=0', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('the browser did not print its DevTools endpoint within 30 s')), 30_000);
      child.stderr!.on('data', (d: Buffer) => {
        text += String(d);
        const m = /DevTools listening on (ws:\S+)/.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const ws = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 << 20 });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const cdp = new Cdp(ws);
    const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: true });
    const sessions: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      for (const method of domains) await cdp.send(method, method === 'Page.setLifecycleEventsEnabled' ? { enabled: true } : {}, sessionId);
      await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] }, sessionId);
      sessions.push(sessionId);
    }
    // The measured pages are taken by whichever tab is free, as the farm's fetch tabs are.
    const free = [...sessions];
    const waiters: ((s: string) => void)[] = [];
    const lease = async <T>(fn: (s: string) => Promise<T>): Promise<T> => {
      const s = free.pop() ?? (await new Promise<string>((r) => waiters.push(r)));
      try {
        return await fn(s);
      } finally {
        const next = waiters.shift();
        if (next) next(s);
        else free.push(s);
      }
    };
    await Promise.all(Array.from({ length: warm }, (_, i) => lease((s) => fetchOnce(cdp, s, `${origin}/w${i}`))));
    const main0 = mainThreadTicks(child.pid!);
    const stats = await measure(label, pages, concurrency, async (i) => {
      if ((await lease((s) => fetchOnce(cdp, s, `${origin}/p${i}`))) < 1000) throw new Error('short body');
    });
    const browserMainMsPerPage = Math.round(((mainThreadTicks(child.pid!) - main0) * 10 * 100) / pages) / 100;
    ws.close();
    return { ...stats, browserMainMsPerPage };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = arg('kb', 87);
const body = article(kb, 1);
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const farmArgs = await farmCommandLine();
const rows: RunStats[] = [];
const pages = arg('pages', 600);
const warm = arg('warm', 100);
const concurrency = arg('concurrency', 8);
rows.push(await row('raw CDP, the farm command line', farmArgs, origin, pages, warm, concurrency));
for (const feature of argString('enable').split(',').filter(Boolean)) {
  // Chromium keeps the last --disable-features switch: take the feature out of that one.
  const last = farmArgs.map((a) => a.startsWith('--disable-features=')).lastIndexOf(true);
  const args = farmArgs.map((a, i) => (i === last ? a.split(/[=,]/).filter((f, j) => j === 0 || f !== feature).join(',').replace(',', '=') : a));
  rows.push(await row(`raw CDP, farm command line with ${feature}`, args, origin, pages, warm, concurrency));
}
// `--extra 'A B;C'`: one row per `;`-separated set of switches added to the farm's command line.
for (const set of argString('extra').split(';').map((x) => x.trim()).filter(Boolean)) {
  rows.push(await row(`raw CDP, farm command line + ${set}`, [...farmArgs, ...set.split(/\s+/)], origin, pages, warm, concurrency));
}
const domains = argString('domains').split(',').filter(Boolean).flatMap((d) => (d === 'library' ? LIBRARY_DOMAINS : [d]));
if (domains.length) rows.push(await row(`raw CDP, the farm command line, tabs with ${domains.join(' ')}`, farmArgs, origin, pages, warm, concurrency, domains));
server.close();
printTable(rows);
