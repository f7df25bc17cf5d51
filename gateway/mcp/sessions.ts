/**
 * MCP sessions: one SDK `Server` (the protocol: initialize and version negotiation, tools/list,
 * tools/call, progress, cancellation) and one web-standard streamable HTTP transport per
 * session, bound to the key that opened it. Another key presenting the session id is treated as
 * an unknown session.
 *
 * Sessions are in memory (a restart ends them; clients initialize again, as the protocol
 * expects). Limits are per account, so that one tenant opening sessions never ends another's:
 * an account holds at most `perAccount` sessions (its least recently used goes first), idle
 * ones are dropped after `IDLE_MS`, and past the node-wide bound the account holding the most
 * sessions gives up its least recently used one.
 *
 * The account is read from the store on every list and call (entitlements changed by an
 * operator apply at once), and when the store reports a revocation (any process, within about a
 * quarter second: AccountStore.watchRevocations) every session's key is checked: a revoked
 * key's sessions are closed, which ends their open streams and aborts their running calls.
 * Concurrency: all of this runs on the gateway's main thread.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openApiDocument } from '../../core/schema/index.js';
import type { Account } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { callTool } from './call.js';
import { canServe, listedSchema, servedTools, sharedParameters, toolByName } from './tools.js';

const IDLE_MS = 30 * 60_000;
/** Sessions one account may hold. */
export const SESSIONS_PER_ACCOUNT = 100;
/** Sessions the node holds in all. */
const MAX_SESSIONS = 10_000;
/** How often a long call tells a client that asked for progress that it is still running. */
export const PROGRESS_EVERY_MS = 1000;

export interface Session {
  id: string;
  clientId: number;
  /** The key that opened the session (kept in memory only, as the auth cache keeps it). */
  key: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** JSON-RPC ids of requests still running: an id is not reused while its request runs. */
  inFlight: Set<string>;
}

function instructions(): string {
  const shared = [...sharedParameters()].map(([name, text]) => `${name}: ${text}`).join('; ');
  return (
    'Gleaner fetches web pages (scrape, extract), searches the web (search) and runs scrapers dedicated to configured sites; ' +
    'each dedicated tool names the kind of site its token stands for. Dedicated tools answer parsed JSON. ' +
    'A refused or failed call is a tool result with isError, carrying the problem title and detail. ' +
    `Parameters shared by several tools: ${shared}.`
  );
}

/** A JSON-RPC error as the SDK sends it: its `code`, and its message as written (McpError would prefix it). */
function rpcError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function createProtocolServer(svc: Services, session: { clientId: number }): Server {
  const version = (openApiDocument().info as { version: string }).version;
  const server = new Server({ name: 'gleaner', version }, { capabilities: { tools: { listChanged: false } }, instructions: instructions() });
  // The account as it is now: an operator's change of entitlements applies to open sessions.
  const account = (): Account => {
    const now = svc.store.accounts.getAccount(session.clientId);
    if (!now) throw rpcError(ErrorCode.InvalidRequest, 'The account of this session no longer exists.');
    return now;
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: servedTools(svc, account()).map((t) => ({ name: t.name, description: t.description, inputSchema: listedSchema(t, svc) as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const caller = account();
    const tool = toolByName(request.params.name);
    // Unknown, or not served by this node (its target is not configured): MCP's invalid params.
    // A tool this key may not use is the tool's refusal (FORBIDDEN), as on HTTP.
    if (!tool || !canServe(tool, svc)) {
      throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name.slice(0, 200)} (tools/list names the tools this server offers this key).`);
    }
    const token = request.params._meta?.progressToken;
    let step = 0;
    let message = 'running';
    const notify = (): void => {
      if (token === undefined || extra.signal.aborted) return;
      step++;
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
    };
    const timer = token === undefined ? undefined : setInterval(notify, PROGRESS_EVERY_MS);
    try {
      return await callTool(tool, request.params.arguments ?? {}, {
        svc,
        account: caller,
        signal: extra.signal,
        progress: (text) => {
          message = text;
          notify();
        },
      });
    } finally {
      clearInterval(timer);
    }
  });
  return server;
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly unwatch: () => void;

  constructor(
    private readonly svc: Services,
    private readonly perAccount = SESSIONS_PER_ACCOUNT,
  ) {
    this.unwatch = svc.store.accounts.watchRevocations(() => this.closeRevoked());
  }

  /** The live session with this id opened with this key, or undefined. */
  get(id: string, key: string): Session | undefined {
    this.sweep();
    const session = this.sessions.get(id);
    if (!session || session.key !== key) return undefined;
    // Re-insert: the Map's order is least recently used first.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.lastUsed = Date.now();
    return session;
  }

  /** A new session for an initialize request; its id is assigned when the transport answers it. */
  async create(account: Account, key: string): Promise<Session> {
    this.sweep();
    this.makeRoom(account.clientId);
    const session: Session = {
      id: '',
      clientId: account.clientId,
      key,
      server: undefined as never,
      transport: undefined as never,
      lastUsed: Date.now(),
      inFlight: new Set(),
    };
    session.server = createProtocolServer(this.svc, session);
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.makeRoom(account.clientId);
        this.sessions.set(id, session);
      },
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    await session.server.connect(session.transport);
    return session;
  }

  /** Frees a place for one more session of `clientId`: its own oldest first, never another tenant's below the node bound. */
  private makeRoom(clientId: number): void {
    const mine = [...this.sessions.values()].filter((s) => s.clientId === clientId);
    for (let i = 0; i <= mine.length - this.perAccount; i++) this.drop((mine[i] as Session).id);
    while (this.sessions.size >= MAX_SESSIONS) {
      const counts = new Map<number, number>();
      for (const s of this.sessions.values()) counts.set(s.clientId, (counts.get(s.clientId) ?? 0) + 1);
      const [biggest] = [...counts].sort((a, b) => b[1] - a[1])[0] as [number, number];
      const oldest = [...this.sessions.values()].find((s) => s.clientId === biggest) as Session;
      this.drop(oldest.id);
    }
  }

  private sweep(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [id, session] of this.sessions) {
      if (session.lastUsed >= cutoff) break;
      this.drop(id);
    }
  }

  /** Closes the sessions whose key no longer authenticates (revoked, or its account gone). */
  closeRevoked(): void {
    for (const [id, session] of this.sessions) if (!this.svc.store.accounts.authenticate(session.key)) this.drop(id);
  }

  private drop(id: string): void {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    session?.server.close().catch(() => undefined);
  }

  size(clientId?: number): number {
    if (clientId === undefined) return this.sessions.size;
    let n = 0;
    for (const s of this.sessions.values()) if (s.clientId === clientId) n++;
    return n;
  }

  close(): void {
    this.unwatch();
    for (const id of [...this.sessions.keys()]) this.drop(id);
  }
}
