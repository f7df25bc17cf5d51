/**
 * A local OpenAI-compatible chat-completions server for tests: a real node:http server on port
 * 0 that answers from a per-test queue of scripted replies and records every request it got.
 */
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';

export type LlmReply =
  /** 200 with `choices[0].message.content` = JSON.stringify(value). */
  | { kind: 'json'; value: unknown }
  /** 200 with the content as given (prose, fenced JSON, broken JSON). */
  | { kind: 'text'; content: string }
  /** Any status with a JSON body and headers (429 + Retry-After, 500, 400, 401). */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** 200 whose body is not JSON at all. */
  | { kind: 'raw'; status: number; body: string }
  /** Never answers: the connection stays open until the client gives up or the server closes. */
  | { kind: 'hang' };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: ChatBody;
  raw: string;
}

export interface ChatBody {
  model?: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict: boolean } };
  temperature?: number;
  [k: string]: unknown;
}

export interface LlmServer {
  /** Base URL to put in GLEANER_LLM_URL: `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: RecordedRequest[];
  enqueue(...replies: LlmReply[]): void;
  close(): Promise<void>;
}

/** The 400 an endpoint without structured outputs gives. */
export const REJECT_RESPONSE_FORMAT: LlmReply = {
  kind: 'status',
  status: 400,
  body: {
    error: {
      message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
      type: 'invalid_request_error',
      param: 'response_format',
    },
  },
};

function completion(content: string, model: string | undefined): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: model ?? 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

export async function startLlmServer(): Promise<LlmServer> {
  const queue: LlmReply[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        body = { messages: [] };
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw });
      const reply = queue.shift();
      if (!reply) return send(res, 500, JSON.stringify({ error: { message: 'no scripted answer left' } }));
      switch (reply.kind) {
        case 'json':
          return send(res, 200, completion(JSON.stringify(reply.value), body.model));
        case 'text':
          return send(res, 200, completion(reply.content, body.model));
        case 'status':
          return send(res, reply.status, JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}` } }), reply.headers);
        case 'raw':
          return send(res, reply.status, reply.body);
        case 'hang':
          return; // keep the socket open
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
