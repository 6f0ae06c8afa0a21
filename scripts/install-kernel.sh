#!/usr/bin/env bash
# Installs the tslab kernelspecs ("tslab" for TypeScript, "jslab" for JavaScript) into <repo>/.jupyter,
# pointing at scripts/tslab-kernel.sh. Source it or use the JUPYTER_PATH it prints.
# Needs Debian's python3 with ipykernel and jupyter-client (apt: python3-ipykernel jupyter-client).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
PY="${INFERKIT_PYTHON:-/usr/bin/python3}"
chmod +x "$ROOT/scripts/tslab-kernel.sh"
"$ROOT/node_modules/.bin/tslab" install --python="$PY" --binary="$ROOT/scripts/tslab-kernel.sh" --prefix "$ROOT/.jupyter" >/dev/null
echo "$ROOT/.jupyter/share/jupyter"
