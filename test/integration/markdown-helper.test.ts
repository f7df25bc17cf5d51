/**
 * A render thread's Markdown helper (farm/worker/markdown-helper.ts), on real threads: what it
 * returns is the inline conversion byte for byte; it ends when idle and starts again; a helper
 * that dies (out of memory on a large page) costs the page nothing (inline fallback); a task's
 * abort ends the wait. Then the farm: a plain page fetched through the browser's network stack
 * (on the render thread) comes back with exactly the Markdown of the page served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { MarkdownHelper, MIN_OFFLOAD_CHARS } from '../../farm/worker/markdown-helper.js';
import { task } from '../helpers/farm.js';

const BASE = 'https://site.test/a/b.html';
const never = new AbortController().signal;

/** An article of about `kb` KB: headings, links, lists, a table per section. */
function article(kb: number, seed: number): string {
  let html = `<!doctype html><html><head><title>A ${seed}</title></head><body><main><h1>Article ${seed}</h1>`;
  for (let s = 0; html.length < kb * 1024; s++) {
    html += `<h2>Section ${s}</h2><p>Text ${s} of ${seed} with <a href="../x/${s}">a link</a> and <em>emphasis</em> * _ [x].</p>`;
    html += `<ul><li>One ${s}</li><li>Two <strong>${s}</strong></li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>${s}</td><td>${seed}</td></tr></table>`;
  }
  return `${html}</main></body></html>`;
}

async function until(check: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error('not within time');
}

test('pages converted on the helper thread equal the inline conversion; the thread ends when idle and starts again', async () => {
  const helper = new MarkdownHelper(300);
  const pages = [article(20, 1), article(90, 2), article(400, 3)];
  const got = await Promise.all(pages.map((p) => helper.markdown(p, BASE, never)));
  expect(got).toEqual(pages.map((p) => htmlToMarkdown(p, BASE)));
  expect([helper.answered, helper.running]).toEqual([3, true]);
  await until(() => !helper.running, 5_000);
  // Many pages on one thread: one pool, nothing added per page (no listener warning).
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  for (let i = 0; i < 15; i++) expect(await helper.markdown(pages[1]!, BASE, never)).toBe(got[1]);
  await new Promise((r) => setImmediate(r));
  process.off('warning', onWarning);
  expect([warnings, helper.answered, helper.running]).toEqual([[], 18, true]);
  // A small page is converted inline: the round trip costs more than it frees.
  const small = '<main><h1>Small</h1><p>one <a href="/y">link</a></p></main>';
  expect(small.length).toBeLessThan(MIN_OFFLOAD_CHARS);
  expect(await helper.markdown(small, BASE, never)).toBe(htmlToMarkdown(small, BASE));
  expect(helper.answered).toBe(18);
  await helper.close();
  expect(helper.running).toBe(false);
  expect(await helper.markdown(pages[0]!, BASE, never)).toBe(got[0]);
  expect(helper.answered).toBe(18);
});

test('an idle time of 0 keeps the helper thread, as GLEANER_BROWSER_IDLE_MS=0 keeps the browser', async () => {
  const helper = new MarkdownHelper(0);
  const page = article(40, 10);
  expect(await helper.markdown(page, BASE, never)).toBe(htmlToMarkdown(page, BASE));
  await new Promise((r) => setTimeout(r, 500));
  expect([helper.answered, helper.running]).toEqual([1, true]);
  await helper.close();
  expect(helper.running).toBe(false);
});

test('a helper thread that dies on a page (out of memory) costs the page nothing: converted inline, the helper paused', async () => {
  const helper = new MarkdownHelper(60_000, { maxOldGenerationSizeMb: 32 });
  const warm = article(40, 4);
  expect(await helper.markdown(warm, BASE, never)).toBe(htmlToMarkdown(warm, BASE));
  expect([helper.answered, helper.running]).toEqual([1, true]);
  const big = article(12_000, 5);
  expect(await helper.markdown(big, BASE, never)).toBe(htmlToMarkdown(big, BASE));
  expect([helper.answered, helper.running]).toEqual([1, false]);
  // Paused after a failure: the next page is converted inline at once.
  expect(await helper.markdown(warm, BASE, never)).toBe(htmlToMarkdown(warm, BASE));
  expect([helper.answered, helper.running]).toEqual([1, false]);
  await helper.close();
});

test('a helper thread that cannot start (its heap too small to boot): the page waits for nothing, converted inline', async () => {
  const helper = new MarkdownHelper(60_000, { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 });
  const page = article(40, 6);
  expect(await helper.markdown(page, BASE, never)).toBe(htmlToMarkdown(page, BASE));
  expect([helper.answered, helper.running]).toEqual([0, false]);
  await helper.close();
});

test("a task's abort ends the wait with its reason", async () => {
  const helper = new MarkdownHelper(60_000);
  const abort = new AbortController();
  const pending = helper.markdown(article(3_000, 6), BASE, abort.signal);
  const reason = new Error('deadline');
  abort.abort(reason);
  await expect(pending).rejects.toBe(reason);
  await expect(helper.markdown(article(40, 7), BASE, AbortSignal.abort(reason))).rejects.toBe(reason);
  // The helper is still good for the next page.
  const page = article(40, 8);
  expect(await helper.markdown(page, BASE, never)).toBe(htmlToMarkdown(page, BASE));
  expect(helper.answered).toBeGreaterThanOrEqual(1);
  await helper.close();
});

let server: Server;
let origin: string;
let farm: Farm;
const served = article(90, 9);

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(served));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, plainClient: 'chromium' }) });
});
afterAll(async () => {
  await farm?.close();
  server?.close();
});

test('the farm: a plain page fetched through the browser (render thread) has exactly the Markdown of the page served', async () => {
  const outs = await Promise.all([1, 2, 3].map((i) => farm.run(task({ url: `${origin}/p?i=${i}`, output: ['markdown'] }))));
  expect(outs.map((o) => [o.status, o.results[0]?.markdown])).toEqual([1, 2, 3].map((i) => [200, htmlToMarkdown(served, `${origin}/p?i=${i}`)]));
});
