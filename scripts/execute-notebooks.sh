#!/usr/bin/env bash
# The one command that regenerates the stored notebooks: writes their sources from
# scripts/build-notebooks.py, executes them headless (scripts/run-notebooks.sh) and stores the outputs
# (charts as PNG, tables, answers) in notebooks/*.ipynb. CI re-executes them and fails when the stored
# outputs differ from a fresh run (test/integration/notebooks.test.ts).
#   bash scripts/execute-notebooks.sh
# Runs with a clean environment for what the notebooks read (no hub token, no kubeconfig: notebook 6
# uses its stand-in API server), so the stored outputs do not depend on the machine.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
cd "$ROOT"
PY="${INFERKIT_PYTHON:-/usr/bin/python3}"
"$PY" scripts/build-notebooks.py
OUT="$(mktemp -d -t inferkit-notebooks-XXXXXX)"
trap 'rm -rf "$OUT"' EXIT
env -u HF_TOKEN -u HUGGING_FACE_HUB_TOKEN -u KUBECONFIG -u INGRESS_HOST -u INGRESS_PORT -u HF_ENDPOINT \
  NOTEBOOK_OUT="$OUT" bash scripts/run-notebooks.sh
"$PY" scripts/notebook-outputs.py store "$OUT"
"$PY" scripts/notebook-outputs.py check "$OUT"
