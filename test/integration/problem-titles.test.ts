/**
 * Issue 16 defect 5: every problem title a client can see is documented, and no other can be
 * produced. The documented table is PROBLEM_TITLES; the README's Errors section and the
 * served OpenAPI document must list exactly it, and every code of the closed table — internal
 * ones included — must come out of the problem builders as one of it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ERROR_CODES, PROBLEM_TITLES, shownCode, toWireError, type ErrorCode } from '../../core/errors.js';
import { buildProblem, problemFromWire } from '../../core/problem.js';
import { call, startGateway, type TestGateway } from '../helpers/gateway.js';
import { newJobRecord } from '../../gateway/handlers/jobs.js';

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const titles = new Set<string>(PROBLEM_TITLES);

function readmeTitles(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Errors'), readme.indexOf('\n## ', readme.indexOf('\n## Errors') + 5));
  // Settings named in the section (`GLEANER_*`) are not titles.
  return [...new Set([...section.matchAll(/`([A-Z][A-Z_]+[A-Z])`/g)].map((m) => m[1]!))].filter((t) => !t.startsWith('GLEANER_'));
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.close());

describe('problem titles', () => {
  test('the README Errors section lists exactly the documented table', () => {
    expect(readmeTitles().sort()).toEqual([...PROBLEM_TITLES].sort());
  });

  test('the served OpenAPI document lists exactly the documented table', async () => {
    const doc = (await call(`${gw.url}/v1/openapi.json`)).body;
    expect([...doc.components.schemas.Problem.properties.title.enum].sort()).toEqual([...PROBLEM_TITLES].sort());
  });

  test('every code of the closed table comes out of both builders as a documented title', () => {
    for (const code of CODES) {
      const built = buildProblem(code);
      const fromWire = problemFromWire({ code, message: `cause of ${code}` });
      expect(titles.has(built.title), code).toBe(true);
      expect(titles.has(fromWire.title), code).toBe(true);
      expect(built.status).toBe(ERROR_CODES[built.title].status);
    }
  });

  test('a browser crash or an upstream failure shows as REQUEST_FAILED_AFTER_MANY_RETRIES with the cause in detail', () => {
    for (const code of ['BROWSER_CRASHED', 'UPSTREAM_FAILED'] as const) {
      expect(shownCode(code)).toBe('REQUEST_FAILED_AFTER_MANY_RETRIES');
      expect(problemFromWire({ code, message: 'The browser crashed while rendering the page.' })).toMatchObject({
        title: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
        status: 500,
        detail: 'The browser crashed while rendering the page.',
      });
    }
  });

  test('an unknown thrown value becomes INTERNAL_ERROR with the generic detail: its text (paths, secrets) never leaves', () => {
    const wire = toWireError(new Error('ENOENT: /etc/gleaner/secret-key.pem'));
    expect(wire).toEqual({ code: 'INTERNAL_ERROR', message: 'An internal error occurred.' });
    expect(problemFromWire(wire)).toMatchObject({ title: 'INTERNAL_ERROR', status: 500, detail: 'An internal error occurred.' });
  });

  test('a job stored as faulted with BROWSER_CRASHED is collected with the documented title', async () => {
    const account = gw.server.store.accounts.authenticate(gw.key)!;
    // The runner is handed the job too, but this finish commits first (its run needs a fetch);
    // the run's own finish then finds the job final and changes nothing (finish is compare-and-set).
    const job = newJobRecord(account.clientId, 'universal', { url: 'http://127.0.0.1:9/' }, 'async');
    await gw.server.store.jobs.enqueue([job]);
    await gw.server.store.jobs.finish(job.id, { ok: false, error: { code: 'BROWSER_CRASHED', message: 'The browser crashed while rendering the page.' } }, 60_000);
    const answer = await call(`${gw.url}/v1/async/scrape/${job.id}`, { headers: gw.auth });
    expect(answer.status).toBe(200);
    expect(answer.body.error).toEqual({ title: 'REQUEST_FAILED_AFTER_MANY_RETRIES', status: 500, detail: 'The browser crashed while rendering the page.' });
  });
});
