/**
 * The raw baseline of the per-family bench, as a service child asked for one row at a time:
 * an undici keep-alive loop that fetches the same pages from the fixture site, builds a bare
 * htmlparser2 `parseDocument` of each and JSON-encodes a small answer (its URL, size, title
 * and element count): the least a program that turns these pages into JSON does. Its process
 * is metered alone (measure.ts: CPU of this process, peak RSS and PSS).
 */
import { Agent, request } from 'undici';
import { parseDocument } from 'htmlparser2';
import type { AnyNode } from 'domhandler';
import { answerAsks, isMain, onStop, tell } from '../child.js';
import { measure, type RunStats } from '../farm/measure.js';

export interface RawAsk {
  name: string;
  /** Page URLs on the fixture site; request i fetches urls[i % urls.length]. */
  urls: string[];
  total: number;
  concurrency: number;
  /** Warm-up requests before metering. */
  warm: number;
  simPid?: number;
}

/** Title text and element count, in one walk. */
function summary(nodes: AnyNode[], out: { title: string; elements: number }): void {
  for (const n of nodes) {
    if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
    out.elements++;
    if (n.name === 'title' && out.title === '') out.title = n.children.map((c) => (c.type === 'text' ? c.data : '')).join('');
    summary(n.children, out);
  }
}

export async function rawRow(ask: RawAsk, agent: Agent): Promise<RunStats> {
  const once = async (url: string) => {
    const res = await request(url, { dispatcher: agent });
    const html = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`fixture site answered ${res.statusCode} for ${url}`);
    const out = { title: '', elements: 0 };
    summary(parseDocument(html).children, out);
    return JSON.stringify({ url, bytes: html.length, title: out.title.trim(), elements: out.elements });
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: ask.concurrency }, async () => {
      for (let i = next++; i < ask.warm; i = next++) await once(ask.urls[i % ask.urls.length]!);
    }),
  );
  return measure(ask.name, ask.total, ask.concurrency, (i) => once(ask.urls[i % ask.urls.length]!).then(() => undefined), process.pid, ask.simPid);
}

if (isMain(import.meta)) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  answerAsks((body) => rawRow(body as RawAsk, agent));
  onStop(() => agent.close());
  await tell({ type: 'ready', info: { pid: process.pid } });
}
