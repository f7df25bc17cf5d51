/**
 * The MCP endpoint through the official MCP client SDK against a real gateway and the target
 * simulator: session and version negotiation, tools derived from the registry, scrape, search
 * and a dedicated route, a validation failure as a tool error, entitlements, progress, and a
 * cancelled long call whose farm task is aborted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTES, routeById } from '../../core/registry/index.js';
import { waitFor } from '../helpers/farm.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { SESSIONS_PER_ACCOUNT } from '../../gateway/mcp/sessions.js';
import type { LmdbStore } from '../../core/store/lmdb/index.js';
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
  test('scrape, extract, search, map and crawl, and the dedicated routes of the configured targets, compact, without output schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const configured = new Set(['se1', 'se2', 'llm2']);
    expect(names).toEqual(['scrape', 'extract', 'search', 'map', 'crawl', 'crawl_status', 'crawl_results', ...ROUTES.filter((r) => configured.has(r.target)).map((r) => r.source)]);
    const crawl = tools.find((t) => t.name === 'crawl')!;
    // The HTTP-only delivery options are not offered to an agent, which reads the pages itself.
    expect([crawl.inputSchema.required, ['callback_url', 'callback_pages', 'storage'].filter((k) => k in crawl.inputSchema.properties!)]).toEqual([['url'], []]);
    expect(tools.find((t) => t.name === 'crawl_status')!.inputSchema.required).toEqual(['id']);
    expect(tools.every((t) => t.outputSchema === undefined)).toBe(true);
    const se1 = tools.find((t) => t.name === 'se1_search')!;
    expect(se1.description).toBe('se1 — the configured main web search engine: web search results, parsed.');
    // The route's parameters by name, each compact; the shared ones described once in the instructions.
    expect(Object.keys(se1.inputSchema.properties!)).toEqual([...Object.keys(routeById('se1/search')!.params), 'location']);
    expect(se1.inputSchema.properties!.pages).toEqual({ type: 'integer', default: 1, minimum: 1, maximum: 100 });
    expect(se1.inputSchema.required).toEqual(['query']);
    expect(client.getInstructions()).toMatch(/store_id: Store whose catalogue and prices are returned/);
    // Routes with no sync mode wait for their job: no delivery parameters.
    const llm2 = tools.find((t) => t.name === 'llm2')!;
    expect([llm2.description, Object.keys(llm2.inputSchema.properties!)]).toEqual([
      'llm2 — the configured second AI chat assistant: answer: response_text, markdown_text, model. Runs as a job the call waits for.',
      ['query'],
    ]);
  });

  test('a restricted key lists only its routes; another tool is refused as on HTTP (FORBIDDEN)', async () => {
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

  test('an unknown tool, or one whose target is not configured here, is a JSON-RPC invalid-params error', async () => {
    for (const name of ['no_such_tool', 'mkt1_product']) {
      const err = await client.callTool({ name, arguments: { query: 'x' } }).then(() => undefined, (e: McpError) => e);
      expect([err?.code, err?.message]).toEqual([-32602, `MCP error -32602: Unknown tool: ${name} (tools/list names the tools this server offers this key).`]);
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

/** A raw JSON-RPC exchange on an open session: the answer's JSON (the SSE `data:` line, or the JSON body). */
async function rpc(session: { id: string; auth: Record<string, string> }, message: unknown): Promise<any> {
  const res = await call(`${gw.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session.id,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...session.auth,
    },
    body: JSON.stringify(message),
  });
  if (res.body !== undefined) return res.body;
  const data = res.text.split('\n').filter((l) => l.startsWith('data: ')).pop();
  return data ? JSON.parse(data.slice(6)) : { status: res.status, text: res.text };
}

/** Opens a session with a raw initialize; its id and the key's header. */
async function openSession(key: string): Promise<{ id: string; auth: Record<string, string>; status: number }> {
  const auth = { authorization: `Bearer ${key}` };
  const res = await call(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
  });
  const id = res.headers.get('mcp-session-id') ?? '';
  await rpc({ id, auth }, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return { id, auth, status: res.status };
}

describe('protocol edges (issue 24 F, B, 7)', () => {
  test('a JSON-RPC id reused while its request runs is refused at once; the first request still gets its answer', async () => {
    const session = await openSession(gw.key);
    const slow = rpc(session, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'scrape', arguments: { url: `${sim.origin}/slow?ms=1500` } } });
    await waitFor(() => gw.server.farm.stats().inFlight > 0, 10_000);
    const reused = await rpc(session, { jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect([reused.id, reused.error.code]).toEqual([7, -32600]);
    const first = await slow;
    expect([first.id, first.result.isError ?? false]).toEqual([7, false]);
    // Once answered, the id is free again.
    expect((await rpc(session, { jsonrpc: '2.0', id: 7, method: 'tools/list' })).result.tools.length).toBeGreaterThan(0);
  });

  test('arguments that are not an object: -32602 with the pointer the HTTP API gives, not the SDK\'s -32603', async () => {
    const session = await openSession(gw.key);
    const answer = await rpc(session, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scrape', arguments: 'https://example.com/' } });
    const http = await postJson(gw, '/v1/scrape', '"https://example.com/"');
    expect([answer.error.code, answer.error.data.title, answer.error.data.errors]).toEqual([-32602, 'VALIDATION_ERROR', [{ pointer: '#', detail: 'must be an object' }]]);
    expect(http.body.errors.map((e: any) => e.pointer)).toEqual(['#']);
  });

  test('a lone surrogate is refused with the HTTP API\'s validation error; nothing runs or is stored', async () => {
    const raw = '{"url":"http://127.0.0.1/\\ud800x"}';
    const http = await postJson(gw, '/v1/scrape', raw);
    const jobsBefore = gw.server.store.jobs.queueDepth();
    const session = await openSession(gw.key);
    const res = await call(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...session.auth },
      body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"llm2","arguments":${raw.replace('127.0.0.1/', '127.0.0.1/').replace('"url"', '"query"')}}}`,
    });
    const answer = JSON.parse(res.text.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
    const problem = JSON.parse(answer.result.content[1].text);
    expect([http.status, http.body.title]).toEqual([400, 'VALIDATION_ERROR']);
    expect([answer.result.isError, problem.title, problem.errors]).toEqual([true, 'VALIDATION_ERROR', [{ pointer: '#/query', detail: http.body.errors[0].detail }]]);
    expect(gw.server.store.jobs.queueDepth()).toBe(jobsBefore);
  });

  test('revoking a key closes its sessions within a second: the open call\'s stream ends, its farm task stops, the session is gone', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'to revoke' });
    const { key, info } = await gw.server.store.accounts.createKey(account.clientId, 'revoked soon');
    const session = await openSession(key);
    const stream = call(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...session.auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'scrape', arguments: { url: `${sim.origin}/slow?ms=60000` } } }),
    });
    await waitFor(() => gw.server.farm.stats().inFlight > 0, 10_000);
    await gw.server.store.accounts.revokeKey(info.id);
    // The server ends the stream (no answer in it) long before the page would answer (60 s).
    const ended = await Promise.race([stream, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
    expect(ended && ended.text.includes('"result"')).toBe(false);
    expect(ended).toBeDefined();
    await waitFor(() => gw.server.farm.stats().inFlight === 0, 10_000);
    const again = await rpc({ id: session.id, auth: { authorization: `Bearer ${gw.key}` } }, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(again.status).toBe(404);
  });

  test('sessions are capped per account: one tenant opening many never ends another tenant\'s session', async () => {
    const [a, b] = await Promise.all([gw.server.store.accounts.createAccount({ name: 'busy tenant' }), gw.server.store.accounts.createAccount({ name: 'quiet tenant' })]);
    const [keyA, keyB] = await Promise.all([gw.server.store.accounts.createKey(a.clientId), gw.server.store.accounts.createKey(b.clientId)]);
    const quiet = await openSession(keyB.key);
    const first = await openSession(keyA.key);
    for (let i = 0; i < SESSIONS_PER_ACCOUNT + 5; i++) expect((await openSession(keyA.key)).status).toBe(200);
    // The busy tenant's own oldest session made room; the quiet tenant's still answers.
    expect((await rpc(first, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(404);
    expect((await rpc(quiet, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).result.tools.length).toBeGreaterThan(0);
  });

  test('the account is read on each call, not kept from initialize', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'changing', entitlements: ['se1/*'] });
    const { key } = await gw.server.store.accounts.createKey(account.clientId);
    const session = await openSession(key);
    const before = (await rpc(session, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).result.tools.map((t: any) => t.name);
    // An operator widens the account's entitlements (written straight into the LMDB store: the
    // store has no update call, and another process could write it so).
    await (gw.server.store as LmdbStore).dbs.accounts.put(account.clientId, { ...account, entitlements: ['se1/*', 'se2/*'] });
    const after = (await rpc(session, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).result.tools.map((t: any) => t.name);
    expect([before.includes('se2_search'), after.includes('se2_search'), after.includes('se1_search')]).toEqual([false, true, true]);
  });
});
