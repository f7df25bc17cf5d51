/**
 * The import direction of DESIGN.md, enforced: core imports nothing outside core; farm
 * imports core (and itself); gateway imports core and farm's public entry only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a folder's sources as [importer, imported], repo-relative. */
function relativeImports(folder: string): Array<[string, string]> {
  return sources(join(root, folder)).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const out: Array<[string, string]> = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) out.push([relative(root, file), relative(root, resolve(dirname(file), spec))]);
    }
    return out;
  });
}

function violations(folder: string, allowed: (target: string) => boolean): string[] {
  return relativeImports(folder)
    .filter(([, target]) => !allowed(target))
    .map(([from, target]) => `${from} → ${target}`);
}

describe('import direction', () => {
  test('core imports only core', () => {
    expect(violations('core', (t) => t.startsWith('core/'))).toEqual([]);
  });
  test('farm imports only farm and core', () => {
    expect(violations('farm', (t) => t.startsWith('core/') || t.startsWith('farm/'))).toEqual([]);
  });
  test('gateway imports core, gateway and farm/index.js only', () => {
    expect(violations('gateway', (t) => t.startsWith('core/') || t.startsWith('gateway/') || t === 'farm/index.js')).toEqual([]);
  });
});
