# Sourced by the kernel launchers (tslab-kernel.sh, deno-kernel.sh) right before they exec the kernel.
# Jupyter starts kernels in their own session, so killing a headless run (nbconvert, a CI job's timeout) does not
# reach the kernel, and neither tslab nor Deno's kernel (2.9) watches JPY_PARENT_PID as ipykernel does. A watcher
# sends the kernel (the launcher's PID, which exec keeps) SIGTERM, then SIGKILL, once the client is gone.
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
