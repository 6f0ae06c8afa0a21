// Prints "N passed, N failed" from vitest's JSON report (the line CI reads) and exits non-zero on any
// failure, a missing report, or a failed type-check (its exit code is the second argument).
// A test file that fails before running any test (an import error, a failing hook) counts as one failure.
import { readFileSync } from 'node:fs';

const [file, tscRc = '0'] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('vitest wrote no JSON report');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const brokenFiles = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
);
for (const r of brokenFiles) console.log(`test file failed outside its tests: ${r.name}: ${(r.message ?? '').split('\n')[0]}`);
if (tscRc !== '0') console.log('typecheck failed (see tsc output above): counted as 1 failure');
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + brokenFiles.length + (tscRc !== '0' ? 1 : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
