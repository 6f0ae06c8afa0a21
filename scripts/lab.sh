#!/usr/bin/env bash
# `npm run lab`: opens the notebooks in Jupyter with the project's tslab kernel ("TypeScript").
# Needs (Debian): jupyter-notebook (or python3-notebook) python3-ipykernel jupyter-client.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
JUPYTER_PATH="$(bash "$ROOT/scripts/install-kernel.sh")"
export JUPYTER_PATH
export PYDEVD_DISABLE_FILE_VALIDATION=1
PY="${INFERKIT_PYTHON:-/usr/bin/python3}"
if ! "$PY" -c 'import notebook' 2>/dev/null; then
  echo "lab: Jupyter Notebook is not installed for $PY; apt-get install -y jupyter-notebook python3-ipykernel jupyter-client" >&2
  exit 2
fi
cd "$ROOT"
exec "$PY" -m notebook --notebook-dir="$ROOT/notebooks" "$@"
