/**
 * `gleaner serve` with a GLEANER_ASSISTANTS file that has problems does not start: it exits 2
 * and names the file, the assistant and the key of each problem.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'gleaner-assistants-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a bad assistants file is a start-up error naming the file and each problem', async () => {
  const file = join(dir, 'assistants.json');
  writeFileSync(file, JSON.stringify({ llm1: { answer: 'div[', done: [{ shown: '.x' }] }, llm9: {} }));
  const r = await new Promise<{ code: number | null; stderr: string }>((done) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'],
      { cwd: root, env: { ...process.env, GLEANER_DATA_DIR: join(dir, 'data'), GLEANER_PORT: '0', GLEANER_ASSISTANTS: file }, encoding: 'utf8', timeout: 30_000 },
      (err, _stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('gleaner: the assistants file has problems:');
  expect(r.stderr).toContain(`${file}: llm1: done[0] must be {"visible": sel} or {"gone": sel}`);
  expect(r.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: llm1: answer is not a valid CSS selector`));
  expect(r.stderr).toContain(`${file}: "llm9" is not an assistant (llm1, llm2, llm3)`);
}, 40_000);
