/**
 * The bare baseline: uWebSockets.js with one hello route and nothing else (no router, auth,
 * logging or validation). `GET /hello` answers a short text; `POST /hello` reads the whole body
 * first (as the gateway must) and answers a short JSON.
 *   node --import tsx bench/hello.ts   (standalone: prints the URL)
 */
import uWS from 'uWebSockets.js';
import { isMain, onStop, tell } from './child.js';

export interface Hello {
  url: string;
  close(): void;
}

export function startHello(host = '127.0.0.1', port = 0): Promise<Hello> {
  const app = uWS.App();
  app.get('/hello', (res) => {
    res.cork(() => res.writeHeader('content-type', 'text/plain').end('Hello, world'));
  });
  app.post('/hello', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((_chunk, last) => {
      // The chunk's memory is reused by uWS after this call; the body is not kept, so no copy.
      if (!last || aborted) return;
      res.cork(() => res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end('{"hello":"world"}'));
    });
  });
  return new Promise((resolve, reject) =>
    app.listen(host, port, (token) => {
      if (!token) return reject(new Error(`hello: cannot listen on ${host}:${port}`));
      const bound = uWS.us_socket_local_port(token as unknown as uWS.us_socket);
      resolve({ url: `http://${host}:${bound}`, close: () => uWS.us_listen_socket_close(token) });
    }),
  );
}

if (isMain(import.meta)) {
  const hello = await startHello();
  onStop(async () => hello.close());
  if (process.send) await tell({ type: 'ready', info: { url: hello.url } });
  else console.log(`hello listening on ${hello.url}`);
}
