#!/usr/bin/env bash
# Starts Deno's Jupyter kernel so that it goes away with the client that started it:
#   deno-kernel.sh /path/to/deno jupyter --kernel --conn {connection_file}
# (the argv `deno jupyter --install` writes, behind this script; test/integration/deno-notebook.test.ts registers
# it so). Jupyter starts kernels in their own session, so killing a headless run (nbconvert, a CI job's timeout)
# does not reach the kernel, and Deno's kernel (2.9) does not watch JPY_PARENT_PID: a killed run left a
# `deno jupyter --kernel` running. As scripts/tslab-kernel.sh does for tslab, a watcher sends the kernel (this
# PID after exec) SIGTERM, then SIGKILL, once the client is gone.
set -euo pipefail
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
exec "$@"
