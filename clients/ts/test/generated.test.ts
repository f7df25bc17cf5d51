/**
 * The staleness check: the committed generated client must equal what the generator makes
 * from the registry now. Fails `npm test` after a registry, schema or error-code change until
 * `npm run generate` (in clients/ts) is run and its output committed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GENERATED_PATH, generateSource } from '../scripts/generate.js';

describe('generated client', () => {
  test('src/generated.ts is up to date with the registry (run `npm run generate` in clients/ts)', () => {
    const committed = readFileSync(GENERATED_PATH, 'utf8');
    const fresh = generateSource();
    const fingerprint = (text: string) => /REGISTRY_FINGERPRINT = '([0-9a-f]+)'/.exec(text)?.[1];
    expect(fingerprint(committed)).toBe(fingerprint(fresh));
    expect(committed === fresh).toBe(true);
  });
});
