/**
 * Binding a uWS app to an address, for every listener of the service (Web API with its job
 * feed, Job API realtime, Job API push-pull): one place that knows how uWS reports a failed
 * bind and how a bound port is read back (port 0 in tests).
 */
import uWS from 'uWebSockets.js';
import type { TemplatedApp } from 'uWebSockets.js';

export interface Listener {
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** Stops accepting connections; open connections finish what they are doing. */
  close(): void;
}

export function listen(app: TemplatedApp, host: string, port: number): Promise<Listener> {
  return new Promise((resolve, reject) =>
    app.listen(host, port, (token) => {
      if (!token) return reject(new Error(`cannot listen on ${host}:${port}`));
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
