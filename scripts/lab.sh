#!/usr/bin/env bash
# `npm run lab`: opens the notebooks in Jupyter Notebook with the project's tslab kernel ("TypeScript")
# and prints the URL to open. On a fresh clone, after the test command's set-up (`bash scripts/test.sh`
# or `bash scripts/ensure-deps.sh --system`), it installs what is still missing: npm packages
# (`npm ci`) and, with apt, Debian's python3-notebook (+ python3-ipykernel, jupyter-client).
# Env: LAB_PORT (default 8888, or a free port when it is taken; 0 = a free port), LAB_IP (default 127.0.0.1),
#      INFERKIT_PYTHON (default /usr/bin/python3). Extra arguments go to Jupyter.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
cd "$ROOT"
PY="${INFERKIT_PYTHON:-/usr/bin/python3}"

[ -x node_modules/.bin/tslab ] || bash scripts/ensure-deps.sh

if ! "$PY" -c 'import notebook, ipykernel, jupyter_client' 2>/dev/null; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "lab: $PY lacks Jupyter Notebook; install it (pip install notebook ipykernel), or set INFERKIT_PYTHON" >&2
    exit 2
  fi
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "» apt-get install python3-notebook python3-ipykernel jupyter-client" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-notebook python3-ipykernel jupyter-client >/dev/null
fi

JUPYTER_PATH="$(bash "$ROOT/scripts/install-kernel.sh")"
export JUPYTER_PATH
export PYDEVD_DISABLE_FILE_VALIDATION=1

IP="${LAB_IP:-127.0.0.1}"
PORT="$("$PY" - "$IP" "${LAB_PORT:-8888}" <<'PYEOF'
import socket, sys
s = socket.socket()
try:
    s.bind((sys.argv[1], int(sys.argv[2])))
except OSError:
    s.close(); s = socket.socket(); s.bind((sys.argv[1], 0))
print(s.getsockname()[1]); s.close()
PYEOF
)"
TOKEN="$("$PY" -c 'import secrets; print(secrets.token_hex(24))')"
ROOT_FLAG=()
[ "$(id -u)" -ne 0 ] || ROOT_FLAG=(--allow-root)

echo "» Jupyter Notebook with the TypeScript (tslab) kernel; notebooks in $ROOT/notebooks"
echo "» open: http://$IP:$PORT/tree?token=$TOKEN"
echo "» stop with Ctrl-C"
exec "$PY" -m notebook --no-browser --ip="$IP" --port="$PORT" --NotebookApp.port_retries=0 \
  --NotebookApp.token="$TOKEN" --notebook-dir="$ROOT/notebooks" "${ROOT_FLAG[@]}" "$@"
