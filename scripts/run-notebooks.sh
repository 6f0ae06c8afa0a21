#!/usr/bin/env bash
# Executes every notebook (or the ones given) headless with the project's tslab kernel and fails on any
# cell error. Executed copies go to $NOTEBOOK_OUT (default: a new temp folder, printed at the end);
# the stored notebooks are not touched (scripts/execute-notebooks.sh stores the outputs).
#
# Needs (Debian): jupyter-nbconvert python3-ipykernel jupyter-client; chromium for the PNG charts.
# A failing cell is printed with its source and everything it wrote (stderr included); the executed copy
# (outputs up to the failure) stays in $NOTEBOOK_OUT.
#   scripts/run-notebooks.sh                      # all notebooks
#   scripts/run-notebooks.sh notebooks/03-*.ipynb # some
# Env: NOTEBOOK_OUT, NOTEBOOK_TIMEOUT (seconds per cell, default 300), INFERKIT_PYTHON (default /usr/bin/python3).
# Under load: `taskset -c 0 bash scripts/run-notebooks.sh …` gives the run (kernel, Chromium) one core, about what
# double the load does on 2 cores, without loading the machine more; that is how the charts' 30 s plotly timeout was
# found (issue 26: 04 and 05 failed 5 of 5 such runs, all 'page.goto: Timeout 30000ms exceeded'; 6 of 6 pass at 120 s).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
cd "$ROOT"
PY="${INFERKIT_PYTHON:-/usr/bin/python3}"
if ! "$PY" -c 'import nbconvert, ipykernel, jupyter_client' 2>/dev/null; then
  echo "run-notebooks: $PY lacks nbconvert/ipykernel/jupyter_client; apt-get install -y jupyter-nbconvert python3-ipykernel jupyter-client" >&2
  exit 2
fi
JUPYTER_PATH="$(bash "$ROOT/scripts/install-kernel.sh")"
export JUPYTER_PATH
export PYDEVD_DISABLE_FILE_VALIDATION=1
OUT="${NOTEBOOK_OUT:-$(mktemp -d -t inferkit-notebooks-XXXXXX)}"
mkdir -p "$OUT"
if [ "$#" -gt 0 ]; then NOTEBOOKS=("$@"); else NOTEBOOKS=(notebooks/*.ipynb); fi
failed=()
for nb in "${NOTEBOOKS[@]}"; do
  start=$(date +%s)
  log="$OUT/$(basename "$nb" .ipynb).log"
  # execute-notebook.py (nbclient, as nbconvert --execute) keeps the executed copy and, on a failure, reports
  # the failing cell with everything it wrote: tslab puts a thrown error's message on stderr, not in ename/evalue.
  if "$PY" "$ROOT/scripts/execute-notebook.py" --timeout "${NOTEBOOK_TIMEOUT:-300}" --kernel tslab \
      --output-dir "$OUT" "$nb" >"$log" 2>&1; then
    echo "ok     $nb ($(( $(date +%s) - start )) s)"
  else
    echo "FAILED $nb ($(( $(date +%s) - start )) s); log: $log; executed copy: $OUT/$(basename "$nb")"
    if grep -q '^=== ' "$log"; then
      sed -n '/^=== /,/^===$/p' "$log" | sed 's/^/    /'
    else
      tail -n 40 "$log" | sed 's/^/    /'
    fi
    failed+=("$nb")
  fi
done
echo "executed notebooks in $OUT"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "${#failed[@]} notebook(s) failed: ${failed[*]}" >&2
  exit 1
fi
