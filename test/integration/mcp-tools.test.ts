/**
 * The MCP tool list as an agent with an admin key sees it on a node with every target
 * configured (the simulator, mapped by the shipped test/sites/targets.json, plus a bucket and
 * ffmpeg for video downloads): its size on the wire, and one successful call of every listed
 * tool through the official MCP client — the list promises nothing the node cannot do.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { COMMERCE_TARGETS, ROUTES, routeBySource } from '../../core/registry/index.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { SIGNED_IN_COOKIE } from '../sites/assistants.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { mediaFiles } from '../sites/video-media.js';

/** The budget of the whole `tools/list` result for an admin key with every target configured. */
const LIST_MAX_BYTES = 40 * 1024;

let sim: Simulator;
let s3: S3Server;
let gw: TestGateway;
let client: Client;
let tools: Tool[];
let listBytes = 0;
let profileDir: string;

beforeAll(async () => {
  [sim, s3] = await Promise.all([startSimulator(), startS3Server({ keys: { AKTEST: 'secret-test-key' }, buckets: ['media'] }), mediaFiles()]);
  const shipped = JSON.parse(readFileSync(new URL('../sites/targets.json', import.meta.url), 'utf8')) as Record<string, TargetConfig>;
  const targets = JSON.parse(JSON.stringify(shipped).replaceAll('http://127.0.0.1:8090', sim.origin)) as Record<string, TargetConfig>;
  // llm2's chat page has a login wall: a signed-in profile, as an operator would configure it.
  profileDir = mkdtempSync(join(tmpdir(), 'gleaner-mcp-profile-'));
  const [name, value] = SIGNED_IN_COOKIE.split('=');
  const storageState = join(profileDir, 'llm2.json');
  writeFileSync(storageState, JSON.stringify({ cookies: [{ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }], origins: [] }));
  targets.llm2 = { ...targets.llm2!, storageState };
  gw = await startGateway({
    targets,
    storage: { s3: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '*': ['media'] } } },
    jobTimeoutMs: 60_000,
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: gw.auth } });
  client = new Client({ name: 'gleaner-every-tool', version: '1.0.0' });
  await client.connect(transport);
  const listed = await client.listTools();
  tools = listed.tools;
  listBytes = Buffer.byteLength(JSON.stringify(listed));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await gw?.close();
  await Promise.all([sim?.close(), s3?.close()]);
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

const PRODUCT_SCHEMA = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } };
const MKT1_QUERIES: Record<string, string> = { mkt1_product: 'B0SIMLMP01', mkt1_pricing: 'B0SIMLMP01', mkt1_sellers: 'A1SIMSELLER01', mkt1_bestsellers: 'lighting', mkt1_search: 'lamp' };
const VIDEO_QUERIES: Record<string, string> = { media_video_channel: '@gleaneroutdoors', media_video_search: 'trail', media_video_search_max: 'trail', media_video_autocomplete: 'trail', media_video_video_trainability: 'vid00000005' };

/** Arguments a caller would send to each tool, against the simulator's pages. */
function argumentsFor(name: string): Record<string, unknown> {
  if (name === 'scrape') return { url: `${sim.origin}/static` };
  if (name === 'extract') return { url: `${sim.origin}/x/product-jsonld`, schema: PRODUCT_SCHEMA };
  if (name === 'search') return { query: 'mcp every tool' };
  const route = routeBySource(name)!;
  if (COMMERCE_TARGETS[route.target]) {
    if (route.input === 'url') return { url: `${sim.origin}/${route.target}/item/P1001` };
    return { query: route.path.endsWith('product') ? 'P1001' : 'outdoor' };
  }
  switch (name) {
    case 'se1':
      return { url: `${sim.origin}/se1/search?q=trail+shoes` };
    case 'se2':
      return { url: `${sim.origin}/se2/search?q=trail+shoes` };
    case 'se1_lens':
      return { query: `${sim.origin}/img/shoe.jpg` };
    case 'se1_maps':
      return { query: 'coffee', json: { schema: { type: 'object', properties: { title: { type: 'string' } } } } };
    case 'media_video_subtitles':
      return { query: 'vid00000001', json: { schema: { type: 'object', properties: { language: { type: 'string' } } } } };
    case 'media_video_download':
      return { query: 'vid00000001', video_quality: '240', start_at: '00:00:01', end_at: '00:00:03', storage: { type: 's3', url: 's3://media/mcp/' } };
    case 'mkt1':
      return { url: `${sim.origin}/mkt1/com/dp/B0SIMLMP01` };
    default:
      break;
  }
  if (MKT1_QUERIES[name]) return { query: MKT1_QUERIES[name] };
  if (VIDEO_QUERIES[name]) return { query: VIDEO_QUERIES[name] };
  if (route.family === 'video') return { query: 'vid00000001' };
  if (route.family === 'assistant') return { query: `What is ${name}?` };
  return { query: 'trail shoes' };
}

describe('the tool list with every target configured (admin key)', () => {
  test(`is at most ${LIST_MAX_BYTES} bytes and lists every route, each saying what kind of site it is`, () => {
    expect(listBytes).toBeLessThanOrEqual(LIST_MAX_BYTES);
    // The crawl tools (map, crawl, crawl_status, crawl_results) are called in crawl.test.ts.
    expect(tools.map((t) => t.name)).toEqual(['scrape', 'extract', 'search', 'map', 'crawl', 'crawl_status', 'crawl_results', ...ROUTES.filter((r) => r.id !== 'universal').map((r) => r.source)]);
    for (const t of tools.slice(7)) expect(t.description).toMatch(new RegExp(`^${routeBySource(t.name)!.target} — the configured `));
    expect(tools.find((t) => t.name === 'mkt1_product')!.description).toBe('mkt1 — the configured general marketplace (ASIN-style product ids): product page.');
    expect(tools.find((t) => t.name === 'grocery1_search')!.description).toBe('grocery1 — the configured grocery banner: search results.');
    // The download's bucket is in its schema, limited to the bucket types this node has credentials for.
    const download = tools.find((t) => t.name === 'media_video_download')!.inputSchema;
    expect([download.required, (download.properties!.storage as any).properties.type.enum]).toEqual([['query', 'storage'], ['s3', 's3_gzip']]);
  });

  // One test per tool, so that a failure names it; several run at once (each waits on the farm).
  test.concurrent.each(ROUTES.filter((r) => r.id !== 'universal').map((r) => r.source).concat(['scrape', 'extract', 'search']))(
    '%s: a call succeeds',
    async (name) => {
      expect(tools.some((t) => t.name === name)).toBe(true);
      const result = (await client.callTool({ name, arguments: argumentsFor(name) }, undefined, { timeout: 120_000 })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');
      expect([result.isError ?? false, result.isError ? text.slice(0, 500) : '']).toEqual([false, '']);
      const structured = result.structuredContent as { results?: Array<{ json: unknown; metadata: { parse_status?: string } }> };
      if (name === 'search') return;
      const page = structured.results![0]!;
      const route = routeBySource(name);
      // Dedicated tools answer parsed JSON by default; a page they do not recognise would be a failure in disguise.
      if (route && route.parser === 'builtin' && route.outputKind !== 'media' && !route.requiresJson) {
        expect([page.json !== null, page.metadata.parse_status]).toEqual([true, 'parsed']);
      } else if (route?.requiresJson) {
        expect(page.json).not.toBeNull();
      }
    },
    180_000,
  );
});
