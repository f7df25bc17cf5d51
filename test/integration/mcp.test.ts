/**
 * The MCP endpoint through the official MCP client SDK against a real gateway and the target
 * simulator: session and version negotiation, tools derived from the registry, scrape, search
 * and a dedicated route, a validation failure as a tool error, entitlements, progress, and a
 * cancelled long call whose farm task is aborted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OUTPUT_SCHEMAS } from '../../core/targets/index.js';
import { ROUTES } from '../../core/registry/index.js';
import { jsonSchemaFor } from '../../core/schema/index.js';
import { waitFor } from '../helpers/farm.js';
import { call, startGateway, type TestGateway } from '../helpers/gateway.js';
import { se1Docs } from '../sites/se-data.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let gw: TestGateway;
let client: Client;
let transport: StreamableHTTPClientTransport;

async function connect(key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const t = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const c = new Client({ name: 'gleaner-test', version: '1.0.0' });
  await c.connect(t);
  return { client: c, transport: t };
}

function texts(result: CallToolResult): string[] {
  return result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
}

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway({ targets: { se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: `${sim.origin}/se2` }, llm2: { baseUrl: `${sim.origin}/static` } } });
  ({ client, transport } = await connect(gw.key));
});
afterAll(async () => {
  await client?.close();
  await gw?.close();
  await sim?.close();
});

describe('protocol', () => {
  test('initialize negotiates the latest version and opens a session', () => {
    expect([client.getServerVersion()?.name, transport.protocolVersion, typeof transport.sessionId]).toEqual(['gleaner', LATEST_PROTOCOL_VERSION, 'string']);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  test('an older supported version is kept; an unknown one is answered with the latest', async () => {
    const answer = async (protocolVersion: string) => {
      const res = await call(`${gw.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...gw.auth },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
      });
      const data = res.text.split('\n').find((l) => l.startsWith('data: '))!;
      return [res.headers.get('content-type'), typeof res.headers.get('mcp-session-id'), JSON.parse(data.slice(6)).result.protocolVersion];
    };
    expect(await answer('2025-03-26')).toEqual(['text/event-stream', 'string', '2025-03-26']);
    expect(await answer('1999-01-01')).toEqual(['text/event-stream', 'string', LATEST_PROTOCOL_VERSION]);
  });

  test('no key is 401; an unknown session is 404; no session and no initialize is 400', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const noKey = await call(`${gw.url}/mcp`, { method: 'POST', headers, body });
    const unknown = await call(`${gw.url}/mcp`, { method: 'POST', headers: { ...headers, ...gw.auth, 'mcp-session-id': 'nope' }, body });
    const none = await call(`${gw.url}/mcp`, { method: 'POST', headers: { ...headers, ...gw.auth }, body });
    const get = await call(`${gw.url}/mcp`, { headers: gw.auth });
    expect([noKey.status, unknown.status, unknown.body.title, none.status, none.body.title, get.status]).toEqual([401, 404, 'NOT_FOUND', 400, 'VALIDATION_ERROR', 405]);
  });

  test("another account cannot use a session it did not open", async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'other' });
    const { key } = await gw.server.store.accounts.createKey(account.clientId, 'other');
    const res = await call(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, 'mcp-session-id': transport.sessionId! },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });
});

describe('tools from the registry', () => {
  test('scrape, search, extract and one tool per dedicated route, with the route schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 3)).toEqual(['scrape', 'extract', 'search']);
    expect(names.slice(3)).toEqual(ROUTES.filter((r) => r.id !== 'universal').map((r) => r.source));
    const se1 = tools.find((t) => t.name === 'se1_search')!;
    expect(se1.inputSchema).toEqual(jsonSchemaFor({ kind: 'scrape', routeId: 'se1/search', mode: 'sync' }));
    const json = (se1.outputSchema as any).properties.results.items.properties.json;
    expect(json).toEqual({ anyOf: [OUTPUT_SCHEMAS['se1/search'], { type: 'null' }] });
    expect(tools.find((t) => t.name === 'search')!.inputSchema).toEqual(jsonSchemaFor({ kind: 'search' }));
    // Async-only routes drop the delivery parameters: the call waits for the job itself.
    const llm1 = tools.find((t) => t.name === 'llm1')!;
    expect(Object.keys(llm1.inputSchema.properties!).some((k) => k === 'callback_url' || k === 'storage')).toBe(false);
  });

  test('a restricted key lists and may call only its routes', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'se1 only', entitlements: ['se1/*'] });
    const { key } = await gw.server.store.accounts.createKey(account.clientId, 'se1');
    const restricted = await connect(key);
    try {
      const { tools } = await restricted.client.listTools();
      expect([tools.length > 0, tools.every((t) => t.name === 'se1' || t.name.startsWith('se1_'))]).toEqual([true, true]);
      const refused = (await restricted.client.callTool({ name: 'scrape', arguments: { url: `${sim.origin}/static` } })) as CallToolResult;
      expect([refused.isError, texts(refused)[0].split(':')[0]]).toEqual([true, 'FORBIDDEN']);
    } finally {
      await restricted.client.close();
    }
  });
});

describe('calls', () => {
  test('scrape: Markdown as text, parsed fields and metadata as structured content', async () => {
    const result = (await client.callTool({ name: 'scrape', arguments: { url: `${sim.origin}/static`, output: ['markdown'] } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(texts(result)[0]).toContain('# Static heading');
    const structured = result.structuredContent as any;
    expect([structured.status, structured.results[0].json, structured.results[0].metadata.url, structured.params.output]).toEqual([200, null, `${sim.origin}/static`, ['markdown']]);
  });

  test('search: the merged results as structured content, charged like the HTTP route', async () => {
    const result = (await client.callTool({ name: 'search', arguments: { query: 'mcp probe', max_results: 5 } })) as CallToolResult;
    const structured = result.structuredContent as any;
    expect([structured.state, structured.results.length, structured.params]).toEqual(['done', 5, { query: 'mcp probe', location: null, max_results: 5 }]);
    // The ledger commits asynchronously (as on the HTTP route).
    const sources = async () => new Set((await gw.server.store.usage.rows(1)).map((r) => r.source));
    await waitFor(async () => (await sources()).has('se1_search') && (await sources()).has('se2_search'));
  });

  test('a dedicated route: its parser output, matching its output schema', async () => {
    const result = (await client.callTool({ name: 'se1_search', arguments: { query: 'mcp route', output: ['json'] } })) as CallToolResult;
    const page = (result.structuredContent as any).results[0];
    expect(page.json.organic.map((o: any) => o.url)).toEqual(se1Docs('mcp route', 1, 10).map((d) => d.url));
    expect(page.metadata.parse_status).toBe('parsed');
  });

  test('a validation failure is a tool error with the problem and every failing field', async () => {
    const result = (await client.callTool({ name: 'scrape', arguments: { url: 'not a url', output: ['screenshot'] } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const problem = JSON.parse(texts(result)[1]);
    expect([problem.title, problem.status, problem.errors.map((e: any) => e.pointer).sort()]).toEqual(['VALIDATION_ERROR', 400, ['#/output', '#/url']]);
    expect(texts(result)[0].split('\n')[0]).toBe(`VALIDATION_ERROR: ${problem.detail}`);
    // Tool refusals reach the operator console's error titles like HTTP ones.
    const count = async () => (await call(`${gw.url}/v1/status`, { headers: gw.auth })).body.errors.find((e: any) => e.title === 'VALIDATION_ERROR')?.count ?? 0;
    const before = await count();
    await client.callTool({ name: 'scrape', arguments: { url: 'still not a url' } });
    expect(await count()).toBe(before + 1);
  });

  test('extract: prompt or schema, pointers named after the tool\'s own arguments', async () => {
    const both = (await client.callTool({ name: 'extract', arguments: { url: `${sim.origin}/static`, prompt: 'x', schema: { type: 'object' } } })) as CallToolResult;
    const noModel = (await client.callTool({ name: 'extract', arguments: { url: `${sim.origin}/static`, prompt: 'the heading' } })) as CallToolResult;
    expect([JSON.parse(texts(both)[1]).errors[0].pointer, JSON.parse(texts(noModel)[1]).title]).toEqual(['#/prompt', 'LLM_NOT_CONFIGURED']);
    const schema = { type: 'object', properties: { heading: { type: 'string' } } };
    const ok = (await client.callTool({ name: 'extract', arguments: { url: `${sim.origin}/static`, schema } })) as CallToolResult;
    expect([ok.isError ?? false, (ok.structuredContent as any).results[0].metadata.json_source]).toEqual([false, 'offline']);
  });

  test('a route without a sync mode runs as a job the call waits for', async () => {
    const result = (await client.callTool({ name: 'llm2', arguments: { query: 'hello' } })) as CallToolResult;
    // Whatever the simulator's page makes of it, the answer comes from a stored job.
    const id = result.isError ? JSON.parse(texts(result)[1]).metadata.request_id : (result.structuredContent as any).metadata.request_id;
    expect((await gw.server.store.jobs.get(id))?.routeId).toBe('llm2');
  });

  test('screenshots are image content', async () => {
    const result = (await client.callTool({ name: 'scrape', arguments: { url: `${sim.origin}/static`, output: ['screenshot'], run_js: true } })) as CallToolResult;
    const image = result.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    expect([image.mimeType, Buffer.from(image.data, 'base64').subarray(1, 4).toString()]).toEqual(['image/png', 'PNG']);
  });

  test('a long call reports progress, and cancelling it aborts the farm task', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const pending = client.callTool({ name: 'scrape', arguments: { url: `${sim.origin}/slow?ms=60000` } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 2) controller.abort('enough');
      },
      timeout: 90_000,
    });
    await expect(pending).rejects.toThrow();
    expect(progress).toEqual([1, 2]);
    // The server stops the task: nothing stays in flight in the farm, long before the page would answer.
    await waitFor(() => gw.server.farm.stats().inFlight === 0, 10_000);
    // The session still works after a cancellation.
    const after = (await client.callTool({ name: 'scrape', arguments: { url: `${sim.origin}/static`, output: ['markdown'] } })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  });
});
