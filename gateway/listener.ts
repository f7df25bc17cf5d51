/**
 * Binding a uWS app to an address, for every listener of the service (Web API with its job
 * feed, Job API realtime, Job API push-pull): one place that knows how uWS reports a failed
 * bind and how a bound port is read back (port 0 in tests).
 *
 * uWS (uSockets) listens with SO_REUSEPORT by default, so a second service on a taken port
 * would bind too and the kernel would split connections between the two. Every listener here
 * asks for LIBUS_LISTEN_EXCLUSIVE_PORT instead: the bind fails while anything else holds the
 * port. uWS reports only that it failed, so the reason (EADDRINUSE, EACCES, ...) is read back
 * by trying the same bind with node:net, after the fact; uWS's answer is the one that counts.
 */
import { createServer } from 'node:net';
import uWS from 'uWebSockets.js';
import type { TemplatedApp } from 'uWebSockets.js';

export interface Listener {
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** Stops accepting connections; open connections finish what they are doing. */
  close(): void;
}

export class ListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    what: string,
  ) {
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use (another gleaner service, or another program: `ss -ltnp` shows which)'
        : code === 'EACCES'
          ? 'permission denied (ports below 1024 need CAP_NET_BIND_SERVICE)'
          : code === 'EADDRNOTAVAIL'
            ? 'the address is not one of this machine\'s'
            : (code ?? 'the bind failed');
    super(`cannot listen on ${host}:${port} (${what}): ${why}`);
  }
}

/** Why a bind of host:port fails, as node:net sees it (undefined: it would succeed now). */
function bindError(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'unknown'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/**
 * uWS.js 20.30 takes `listen(host, port, options, cb)` and exports the option's value, but its
 * typings declare neither (a test pins the behaviour: a second bind of the port fails).
 */
type ListenWithOptions = (host: string, port: number, options: number, cb: (token: uWS.us_listen_socket | false) => void) => TemplatedApp;
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

/** Listens on host:port, exclusively; `what` names the listener in the error (`Web API`, ...). */
export function listen(app: TemplatedApp, host: string, port: number, what = 'listener'): Promise<Listener> {
  const listenWith = app.listen.bind(app) as unknown as ListenWithOptions;
  return new Promise((resolve, reject) =>
    listenWith(host, port, EXCLUSIVE_PORT, (token) => {
      if (!token) {
        void bindError(host, port).then((code) => reject(new ListenError(host, port, code, what)));
        return;
      }
      let open = true;
      resolve({
        port: uWS.us_socket_local_port(token as unknown as uWS.us_socket),
        close: () => {
          // Closing a listen socket twice crashes uWS.
          if (open) uWS.us_listen_socket_close(token);
          open = false;
        },
      });
    }),
  );
}
