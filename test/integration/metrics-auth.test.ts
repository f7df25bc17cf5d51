/**
 * Issue 24 H: `/metrics` carries per-account quota limits and use (`client_id` labels), so it
 * answers only an admin key or the operator's `GLEANER_METRICS_TOKEN` (a token that opens
 * nothing else). Real gateway on port 0.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, startGateway, type TestGateway } from '../helpers/gateway.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let gw: TestGateway;
let plainKey: string;

beforeAll(async () => {
  gw = await startGateway({ metricsToken: TOKEN });
  const account = await gw.server.store.accounts.createAccount({ name: 'tenant' });
  await gw.server.store.quotas.setQuota(account.clientId, { pages_per_day: 100 });
  plainKey = (await gw.server.store.accounts.createKey(account.clientId)).key;
});
afterAll(async () => gw?.close());

const metrics = (headers: Record<string, string> = {}) => call(`${gw.url}/metrics`, { headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

test('no credentials: 401 with an empty body; a tenant key that is not admin: 403', async () => {
  const none = await metrics();
  expect([none.status, none.text, none.headers.get('www-authenticate')]).toEqual([401, '', 'Bearer realm="gleaner"']);
  const tenant = await metrics(bearer(plainKey));
  expect([tenant.status, tenant.body.title]).toEqual([403, 'FORBIDDEN']);
  expect(tenant.text).not.toContain('client_id');
  expect((await metrics(bearer('not-a-key-at-all-0123456789'))).status).toBe(401);
});

test('an admin key and the metrics token read the per-account lines', async () => {
  for (const headers of [gw.auth, bearer(TOKEN)]) {
    const m = await metrics(headers);
    expect(m.status).toBe(200);
    expect(m.text).toMatch(/^gleaner_quota_limit\{client_id="\d+",limit="pages_per_day"\} 100$/m);
  }
});

test('the metrics token opens nothing else', async () => {
  expect((await call(`${gw.url}/v1/scrapers`, { headers: bearer(TOKEN) })).status).toBe(401);
  expect((await call(`${gw.url}/v1/status`, { headers: bearer(TOKEN) })).status).toBe(401);
});

test('health and readiness stay open', async () => {
  expect((await call(`${gw.url}/healthz`)).status).toBe(200);
  expect((await call(`${gw.url}/readyz`)).status).toBe(200);
});
