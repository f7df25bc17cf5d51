/**
 * The OpenAPI document as a client generator would take it: valid OpenAPI 3.1 by a validator of
 * the specification's own schema (@seriousme/openapi-schema-validator, references resolved),
 * with servers (the Job API on its listeners), every operation answering some 4xx, the Job
 * API, status, feed and MCP described, the webhook Gleaner sends, and no component unused.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { openApiDocument } from '../../core/schema/index.js';

const SERVERS = { web: 'https://gleaner.example', realtime: 'https://gleaner.example:8081', data: 'https://data.gleaner.example' };

type Operation = { operationId?: string; responses: Record<string, unknown> };

function operations(doc: any): Array<[string, string, Operation]> {
  const out: Array<[string, string, Operation]> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(item)) if (method !== 'servers' && method !== 'parameters') out.push([path, method, op]);
  }
  for (const [name, item] of Object.entries(doc.webhooks as Record<string, Record<string, Operation>>)) for (const [method, op] of Object.entries(item)) out.push([`webhook ${name}`, method, op]);
  return out;
}

describe('OpenAPI document', () => {
  const doc = JSON.parse(JSON.stringify(openApiDocument(SERVERS)));

  test('is valid OpenAPI 3.1 for the specification\'s schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect([result.valid, result.errors ?? null]).toEqual([true, null]);
    expect(validator.version).toBe('3.1');
    // Every $ref resolves.
    await expect(validator.validateBundle([doc])).resolves.toMatchObject({ valid: true });
  });

  test('names its servers: the Web API, and the Job API on its own listeners', () => {
    expect(doc.servers).toEqual([{ url: SERVERS.web, description: expect.any(String) }]);
    expect(doc.paths['/v1/queries'].servers.map((s: { url: string }) => s.url)).toEqual([SERVERS.realtime, SERVERS.data]);
    expect(doc.paths['/v2/stats'].servers.map((s: { url: string }) => s.url)).toEqual([SERVERS.data]);
  });

  test('describes the Job API, status, feed and MCP, and the webhook it sends', () => {
    const ids = operations(doc).map(([, , op]) => op.operationId);
    for (const id of ['jobApiQuery', 'jobApiBatch', 'jobApiStatus', 'jobApiResults', 'jobApiStats', 'status', 'statusJob', 'feed', 'mcp', 'mcpEnd', 'console']) expect(ids).toContain(id);
    expect(doc.paths['/v1/queries'].post.security).toEqual([{ basicAuth: [] }]);
    expect(doc.webhooks.jobFinished.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookPayload' });
  });

  test('every operation lists a 4xx answer', () => {
    const without = operations(doc).filter(([, , op]) => !Object.keys(op.responses).some((code) => /^4(\d\d|XX)$/.test(code)));
    expect(without.map(([path, method]) => `${method} ${path}`)).toEqual([]);
  });

  test('no component schema is unused', () => {
    const text = JSON.stringify({ paths: doc.paths, webhooks: doc.webhooks, schemas: doc.components.schemas });
    const unused = Object.keys(doc.components.schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    expect(unused).toEqual([]);
  });
});
