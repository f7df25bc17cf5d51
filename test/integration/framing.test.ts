/**
 * Issue 24 D and 8, over raw TCP on all three listeners (Web API, Job API realtime, Job API
 * push-pull): nothing sent after a refused request runs; conflicting Content-Length on a valid
 * submit is answered and closed, never left hanging, and queues nothing. The last block pins
 * what uWebSockets.js 20.30 does with heads it cannot parse (it calls no handler and holds the
 * connection until its idle timer): README "Behind a reverse proxy" documents the gap, and this
 * block fails when an upgrade changes it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';
import { rawExchange, rawRequest } from '../helpers/raw-http.js';

let gw: TestGateway;
/** Jobs accepted since the gateway started: a request that ran and was charged shows here. */
let accepted = 0;

beforeAll(async () => {
  gw = await startGateway();
  gw.server.services.events.subscribe((event) => {
    if (event.type === 'accepted') accepted++;
  });
});
afterAll(async () => gw?.close());

/** Requests that reached a handler (the sum of gleaner_http_requests_total), on one listener's routes or all. */
async function requests(door?: 'web'): Promise<number> {
  const text = await gw.server.services.metrics.render();
  return [...text.matchAll(/^gleaner_http_requests_total\{([^}]*)\} (\d+)$/gm)]
    .filter((m) => door === undefined || !/route="(realtime|data):/.test(m[1]))
    .reduce((sum, m) => sum + Number(m[2]), 0);
}

const basic = `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`;

interface Door {
  name: string;
  port: () => number;
  /** A valid async submit on this listener (realtime: a valid query). */
  submit: (extraHead?: string, lengths?: number[]) => string;
}

function post(path: string, auth: string, body: string) {
  return (extraHead = '', lengths = [Buffer.byteLength(body)]) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n${extraHead}` +
    lengths.map((n) => `Content-Length: ${n}\r\n`).join('') +
    `\r\n${body}`;
}

const DOORS: Door[] = [
  { name: 'Web API', port: () => gw.server.port, submit: post('/v1/async/scrape', `Bearer ${'test-key-0123456789abcdef'}`, '{"url":"http://127.0.0.1:9/a"}') },
  { name: 'Job API push-pull', port: () => gw.server.dataPort, submit: post('/v1/queries', basic, '{"source":"universal","url":"http://127.0.0.1:9/b"}') },
  { name: 'Job API realtime', port: () => gw.server.realtimePort, submit: post('/v1/queries', basic, '{"source":"universal","url":"http://127.0.0.1:9/c"}') },
];

const LONG_TARGET = `GET /v1/scrapers?x=${'a'.repeat(3000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
const MANY_FIELDS = `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 41 }, (_, i) => `X-F${i}: v\r\n`).join('')}\r\n`;

describe.each(DOORS)('D: nothing runs after a refused request ($name)', (door) => {
  test('a submit pipelined behind a 414 or a 431 in the same packet: closed at once, the submit never runs', async () => {
    for (const refused of [LONG_TARGET, MANY_FIELDS]) {
      const before = { accepted, requests: await requests() };
      // Closed in milliseconds; the deadline (below uWS's 10 s idle timer) only allows for load.
      const a = await rawRequest(door.port(), refused + door.submit(), 8000);
      // uWS closes the connection when it meets a request while the refused one is unanswered.
      expect(a.end).not.toBe('open');
      expect(a.statuses.filter((s) => s !== 414 && s !== 431)).toEqual([]);
      expect({ accepted, requests: await requests() }).toEqual({ accepted: before.accepted, requests: before.requests + 1 }); // the refused request only
    }
  });

  test('alone, a 414 and a 431 are answered, then the connection is closed', async () => {
    for (const [refused, status, title] of [[LONG_TARGET, 414, 'URI_TOO_LONG'], [MANY_FIELDS, 431, 'HEADERS_TOO_LARGE']] as const) {
      const a = await rawRequest(door.port(), refused, 8000);
      expect([a.statuses, JSON.parse(a.firstBody).title, a.end]).toEqual([[status], title, 'closed']);
    }
  });

  test('a submit sent after the 414 arrived, on the same connection, never runs', async () => {
    const before = accepted;
    const turns = await rawExchange(door.port(), [LONG_TARGET, door.submit()], { waitMs: 8000 });
    expect(turns.statuses).toEqual([414]);
    expect(turns.end).not.toBe('open');
    expect(accepted).toBe(before);
  });
});

describe.each(DOORS)('8: conflicting Content-Length on a valid submit ($name)', (door) => {
  test('two different lengths, either first, with the body of either: 400 MALFORMED_REQUEST and closed (or closed at once); nothing queued', async () => {
    const body = /\r\n\r\n(.*)$/s.exec(door.submit())![1];
    const n = Buffer.byteLength(body);
    const before = accepted;
    for (const lengths of [[n, n + 7], [n + 7, n], [0, n], [n, 1]]) {
      for (const tail of ['', 'ABCDEFG']) {
        const a = await rawRequest(door.port(), door.submit('', lengths) + tail, 8000);
        expect(a.end, `lengths ${lengths} tail ${JSON.stringify(tail)}`).not.toBe('open');
        expect(a.statuses.filter((s) => s !== 400)).toEqual([]);
        if (a.statuses.length > 0) expect(JSON.parse(a.firstBody)).toMatchObject({ title: 'MALFORMED_REQUEST', detail: 'The request has 2 Content-Length fields. The connection is closed (RFC 9112 6.3).' });
      }
    }
    // Sent in two writes (head, then body): the same.
    const split = await rawExchange(door.port(), [door.submit('', [n, n + 7]).replace(body, ''), body], { answerFirst: false, waitMs: 8000 });
    expect([split.statuses, split.end]).toEqual([[400], 'closed']);
    expect(accepted).toBe(before);
  });

  test('after a good request on a kept-alive connection: the same', async () => {
    const before = accepted;
    const body = /\r\n\r\n(.*)$/s.exec(door.submit())![1];
    const n = Buffer.byteLength(body);
    // The realtime query runs (a refused fetch, retried): the deadline is only for a hang.
    const turns = await rawExchange(door.port(), [door.submit(), door.submit('', [n + 7, n])], { waitMs: 30_000 });
    expect(turns.statuses[1]).toBe(400);
    expect(turns.end).toBe('closed');
    expect(accepted).toBe(before + (door.name === 'Job API realtime' ? 0 : 1));
  });
});

describe('uWebSockets.js 20.30 limits (pinned; README "Behind a reverse proxy")', () => {
  const HELD: Record<string, string> = {
    'no header at all (so no Host)': 'GET /healthz HTTP/1.1\r\n\r\n',
    'bare LF line ends': 'GET /healthz HTTP/1.1\nHost: x\n\n',
    'obs-fold': 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n',
    'NUL in a field value': 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n',
    'absolute-form target': 'GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n',
    CONNECT: 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n',
    'HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    'HTTP/9.9': 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
    'HTTP/1.0': 'GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n',
  };

  test('a head uWS cannot parse reaches no handler: no answer, nothing after it runs, the connection is left to uWS\'s 10 s idle timer', async () => {
    const before = { accepted, requests: await requests('web') };
    const answers = await Promise.all(Object.entries(HELD).map(async ([name, head]) => [name, await rawRequest(gw.server.port, head + DOORS[0].submit(), 1000)] as const));
    for (const [name, a] of answers) expect([name, a.statuses, a.end]).toEqual([name, [], 'open']);
    expect({ accepted, requests: await requests('web') }).toEqual(before);
  });

  test("an answer's keep-alive hint (5 s) is shorter than uWS keeps an idle connection (8–12 s), so clients that honour it never reuse one being closed", async () => {
    const sent = Date.now();
    const a = await rawRequest(gw.server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 20_000);
    expect([a.statuses, /\r\nkeep-alive: timeout=5\r\n/i.test(a.text), a.end]).toEqual([[200], true, 'closed']);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(7_000);
  }, 30_000);

  test('no Host beside other fields: uWS closes at once, unanswered', async () => {
    const a = await rawRequest(gw.server.port, 'GET /healthz HTTP/1.1\r\nX-A: b\r\n\r\n');
    expect([a.statuses, a.end]).toEqual([[], 'closed']);
  });

  test('lenient chunked framing: uWS decodes bare-LF chunk lines and sizes with trailing spaces, so the handler sees a normal body', async () => {
    const json = '{"url":"http://127.0.0.1:9/"}';
    const size = json.length.toString(16);
    for (const chunks of [`${size}\n${json}\n0\n\n\n`, `${size} \r\n${json}\r\n0\r\n\r\n`]) {
      const a = await rawRequest(gw.server.port, `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`, 500);
      expect(a.statuses).toEqual([401]); // framing accepted, the body read; refused only for want of a key
    }
  });
});
