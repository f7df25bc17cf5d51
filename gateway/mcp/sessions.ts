/**
 * MCP sessions: one SDK `Server` (the protocol: initialize and version negotiation, tools/list,
 * tools/call, progress, cancellation) and one web-standard streamable HTTP transport per
 * session, bound to the account whose key opened it. Another account presenting the session
 * id is treated as an unknown session.
 *
 * Sessions are in memory (a restart ends them; clients initialize again, as the protocol
 * expects). Idle ones are dropped after `IDLE_MS`, and at most `MAX_SESSIONS` are kept, the
 * least recently used going first. Concurrency: all of this runs on the gateway's main thread.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openApiDocument } from '../../core/schema/index.js';
import { entitled, type Account } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { callTool } from './call.js';
import { allTools, toolByName } from './tools.js';

const IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;
/** How often a long call tells a client that asked for progress that it is still running. */
export const PROGRESS_EVERY_MS = 1000;

export interface Session {
  id: string;
  clientId: number;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

function createProtocolServer(svc: Services, account: Account): Server {
  const version = (openApiDocument().info as { version: string }).version;
  const server = new Server(
    { name: 'gleaner', version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: 'Gleaner fetches web pages (scrape, extract), searches the web (search) and runs dedicated scrapers (one tool per route). Errors are tool results with isError, carrying the problem title and detail.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allTools()
      .filter((t) => entitled(account.entitlements, t.entitlement))
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' }, outputSchema: t.outputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = toolByName(request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `NOT_FOUND: no tool ${request.params.name}.` }] };
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
        account,
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

  /** The live session with this id opened by this account, or undefined. */
  get(id: string, clientId: number): Session | undefined {
    this.sweep();
    const session = this.sessions.get(id);
    if (!session || session.clientId !== clientId) return undefined;
    // Re-insert: the Map's order is least recently used first.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.lastUsed = Date.now();
    return session;
  }

  /** A new session for an initialize request; its id is assigned when the transport answers it. */
  async create(svc: Services, account: Account): Promise<Session> {
    this.sweep();
    while (this.sessions.size >= MAX_SESSIONS) this.drop(this.sessions.keys().next().value as string);
    const session: Session = { id: '', clientId: account.clientId, server: createProtocolServer(svc, account), lastUsed: Date.now(), transport: undefined as never };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.sessions.set(id, session);
      },
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    await session.server.connect(session.transport);
    return session;
  }

  private sweep(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [id, session] of this.sessions) {
      if (session.lastUsed >= cutoff) break;
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    session?.server.close().catch(() => undefined);
  }

  size(): number {
    return this.sessions.size;
  }
}
