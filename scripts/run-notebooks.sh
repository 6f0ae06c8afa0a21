#!/usr/bin/env bash
# Executes every notebook (or the ones given) headless with the project's tslab kernel and fails on any
# cell error. Executed copies go to $NOTEBOOK_OUT (default: a new temp folder, printed at the end);
# the stored notebooks are not touched (scripts/execute-notebooks.sh stores the outputs).
#
# Needs (Debian): jupyter-nbconvert python3-ipykernel jupyter-client; chromium for the PNG charts.
#   scripts/run-notebooks.sh                      # all notebooks
#   scripts/run-notebooks.sh notebooks/03-*.ipynb # some
# Env: NOTEBOOK_OUT, NOTEBOOK_TIMEOUT (seconds per cell, default 300), INFERKIT_PYTHON (default /usr/bin/python3).
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
  if "$PY" -m nbconvert --to notebook --execute \
      --ExecutePreprocessor.timeout="${NOTEBOOK_TIMEOUT:-300}" \
      --ExecutePreprocessor.kernel_name=tslab \
      --output-dir "$OUT" "$nb" >"$OUT/$(basename "$nb" .ipynb).log" 2>&1; then
    echo "ok     $nb ($(( $(date +%s) - start )) s)"
  else
    echo "FAILED $nb ($(( $(date +%s) - start )) s); log: $OUT/$(basename "$nb" .ipynb).log"
    tail -n 25 "$OUT/$(basename "$nb" .ipynb).log" | sed 's/^/    /'
    failed+=("$nb")
  fi
done
echo "executed notebooks in $OUT"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "${#failed[@]} notebook(s) failed: ${failed[*]}" >&2
  exit 1
fi
