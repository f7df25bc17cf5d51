/**
 * The target simulator as a bench service: its own process, so that serving the pages costs
 * no contender CPU and shares no event loop with any of them.
 *   node --import tsx bench/sim.ts [--article-kb 87]   (standalone: prints the origin)
 *
 * `--article-kb N` also serves `/article?…`: one synthetic news article of about N KB
 * (bench/pages/synthetic.ts, written here, no captured page), the same bytes for every query, so
 * the static rows can be measured on an article-sized page instead of the 0.4 KB `/static`.
 */
import { createServer } from 'node:http';
import { startSimulator } from '../test/sites/server.js';
import { onStop, tell } from './child.js';
import { arg } from './farm/measure.js';
import { articlePage } from './pages/synthetic.js';

const sim = await startSimulator();
const articleKb = arg('article-kb', 0);
let articleOrigin: string | undefined;
let stopArticle = async (): Promise<void> => {};
if (articleKb > 0) {
  // A server of its own: the simulator's router logs every request (unbounded on a long run).
  const body = Buffer.from(articlePage(articleKb * 1000, 1));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  articleOrigin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  stopArticle = () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
}
onStop(async () => (await sim.close(), await stopArticle()));
if (process.send) await tell({ type: 'ready', info: { origin: sim.origin, articleOrigin } });
else console.log(`simulator listening on ${sim.origin}${articleOrigin ? `, article (${articleKb} KB) on ${articleOrigin}` : ''}`);
