// Converts vitest's JSON report into the closing line CI reads: `N passed, N failed`.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
if (!existsSync(file)) {
  console.log('ci: no vitest report (the build or the runner failed before any test ran)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
// A file that fails to load (syntax error) or whose beforeAll fails has no failed test of its own
// (its tests are reported skipped): count it as one failure.
const suiteErrors = (report.testResults ?? []).filter((r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed')).length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const total = failed + suiteErrors;
// The closing line is exactly `N passed, N failed`; skipped tests (a suite needing ../shared/fixtures
// when they are absent) are reported on the line before it.
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${total} failed`);
process.exit(total > 0 || passed === 0 ? 1 : 0);
