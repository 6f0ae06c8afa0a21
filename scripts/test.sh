#!/usr/bin/env bash
# The test command: installs what it needs, type-checks, lints, runs every test (unit, integration, notebooks),
# and ends with the line "N passed, N failed" taken from vitest's JSON report.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh --system || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }

report=".vitest-report.json"
rm -f "$report"
echo "» typecheck (TypeScript 5.9; node_modules/.bin/tsc is tslab's 5.0)"
node node_modules/typescript/bin/tsc -p tsconfig.json --noEmit
tsc_rc=$?
echo "» lint (ESLint 9, eslint.config.js; a failure counts as 1 failed test)"
node node_modules/eslint/bin/eslint.js .
lint_rc=$?
echo "» vitest"
# The run's temp files go under one folder, removed when the run ends: the tests' own folders, and what Chromium
# (profile sockets), Jupyter (kernel connection files) and tsx leave behind, above all when a test kills them on
# purpose. A runner that is never cleaned then does not fill up; a run killed with TERM, INT or HUP removes it too.
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/inferkit-test-XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
# A killed run takes what it started with it: vitest runs in a process group of its own (job control), and a TERM,
# INT or HUP to this script (or to .ci/run, which execs it) ends that whole group, its fork workers and whatever
# they started (servers, kernels, npm installs), TERM first, KILL 5 s later. Killing vitest's pid alone left its
# fork workers running their test to the end.
set -m
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" &
vitest_group=$!
set +m
end_group() {
  kill -TERM -- "-$vitest_group" 2>/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$vitest_group" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$vitest_group" 2>/dev/null
  exit 143
}
trap end_group TERM INT HUP
wait "$vitest_group"
vitest_rc=$?
node scripts/summarize-vitest.mjs "$report" "typecheck=$tsc_rc" "lint=$lint_rc"
sum_rc=$?
if [ $tsc_rc -ne 0 ] || [ $lint_rc -ne 0 ] || [ $vitest_rc -ne 0 ] || [ $sum_rc -ne 0 ]; then exit 1; fi
