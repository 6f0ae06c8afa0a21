// Prints "N passed, N failed" from vitest's JSON report (the line CI reads) and exits non-zero on any
// failure, a missing report, or a failed check.
// Usage: node scripts/summarize-vitest.mjs REPORT [NAME=EXIT_CODE ...], e.g. `typecheck=0 lint=1`: each
// check that exited non-zero counts as one failure. (A bare exit code is read as `typecheck=CODE`.)
// A test file that fails before running any test (an import error, a failing hook) counts as one failure.
import { readFileSync } from 'node:fs';

const [file, ...checkArgs] = process.argv.slice(2);
const failedChecks = checkArgs
  .map((arg) => (arg.includes('=') ? arg.split('=', 2) : ['typecheck', arg]))
  .filter(([, rc]) => rc !== '0')
  .map(([name]) => name);
for (const name of failedChecks) {
  console.log(`${name} failed (see its output above): counted as 1 failure`);
}
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('vitest wrote no JSON report');
  console.log(`0 passed, ${1 + failedChecks.length} failed`);
  process.exit(1);
}
const brokenFiles = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
);
for (const r of brokenFiles) {
  console.log(`test file failed outside its tests: ${r.name}: ${(r.message ?? '').split('\n')[0]}`);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + brokenFiles.length + failedChecks.length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
