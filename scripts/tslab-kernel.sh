#!/usr/bin/env bash
# Starts the tslab kernel from the repository root, so notebook cells can `import ... from './src/...'`.
# Registered as the kernel binary by scripts/install-kernel.sh.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
# Jupyter starts kernels in their own session, so killing a headless run (nbconvert, a CI job's timeout) does not
# reach this process. ipykernel exits when JPY_PARENT_PID goes away; tslab does not, so a watcher does it: when the
# client that started this kernel is gone, the kernel (this PID after exec) gets SIGTERM, then SIGKILL.
if [ -n "${JPY_PARENT_PID:-}" ] && [ "${JPY_PARENT_PID}" != "1" ]; then
  kernel=$$
  (
    while kill -0 "$JPY_PARENT_PID" 2>/dev/null && kill -0 "$kernel" 2>/dev/null; do sleep 1; done
    if kill -0 "$kernel" 2>/dev/null; then
      kill -TERM "$kernel" 2>/dev/null || true
      sleep 3
      kill -KILL "$kernel" 2>/dev/null || true
    fi
  ) </dev/null >/dev/null 2>&1 &
fi
exec node_modules/.bin/tslab "$@"
