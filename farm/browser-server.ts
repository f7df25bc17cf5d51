/**
 * The browser server's own process. Playwright's server side (protocol dispatch between the
 * workers' connections and Chromium) is busy work — measured ~90 ms of event-loop time per
 * page — so it runs here, not on the main thread that serves HTTP; a child process (not a
 * thread) also keeps a fault in it away from the gateway. One process per browser: it
 * launches the server, reports `{wsEndpoint, pid}` over IPC, and exits when the browser is
 * gone or when its parent goes away.
 */
import { chromium, type BrowserServer } from 'patchright-core';
import { profileDirOf, removeProfile } from './chromium-args.js';

export interface ServerProcessData {
  executablePath: string | undefined;
  args: string[];
  env?: Record<string, string> | undefined;
}

export type ServerProcessEvent =
  | { type: 'launched'; wsEndpoint: string; pid: number | undefined }
  | { type: 'failed'; message: string }
  | { type: 'closed' };

/** Commands from the host: graceful close, or kill now. */
export type ServerProcessCommand = 'close' | 'kill';

if (!process.send) throw new Error('browser-server.ts runs as a child process with IPC (see browser-host.ts)');
const data = JSON.parse(process.argv[2] ?? '{}') as ServerProcessData;
const send = (e: ServerProcessEvent) => {
  if (process.connected) process.send?.(e);
};
let server: BrowserServer | undefined;
/** Playwright's temporary profile of the browser: removed here before exiting (see chromium-args.ts). */
let profile: string | undefined;
const exit = () =>
  setTimeout(() => {
    removeProfile(profile);
    process.exit(0);
  }, 50);
process.on('message', (cmd: ServerProcessCommand) => {
  if (!server) return;
  void (cmd === 'kill' ? server.kill() : server.close()).catch(() => undefined);
});
// The farm's process is gone: take the browser down with us.
process.on('disconnect', () =>
  void (server ? server.kill() : Promise.resolve()).finally(() => {
    removeProfile(profile);
    process.exit(0);
  }),
);

try {
  server = await chromium.launchServer({
    executablePath: data.executablePath,
    headless: true,
    args: data.args,
    ...(data.env ? { env: { ...process.env, ...data.env } } : {}),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  profile = profileDirOf(server.process()?.pid);
  server.once('close', () => {
    // Before 'closed': the host may kill this process as soon as it hears it.
    removeProfile(profile);
    send({ type: 'closed' });
    exit();
  });
  send({ type: 'launched', wsEndpoint: server.wsEndpoint(), pid: server.process()?.pid });
} catch (err) {
  send({ type: 'failed', message: err instanceof Error ? err.message.split('\n')[0] : String(err) });
  exit();
}
