#!/usr/bin/env bash
# Installs what inferkit needs on a fresh clone: npm packages (always), and with --system the Debian
# packages the notebook and chart tests and `npm run lab` use (nbconvert, ipykernel, Jupyter Notebook,
# Chromium). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

# onnxruntime-node's postinstall would fetch CUDA libraries (no network here, and the CPU binaries ship in
# its tarball): its documented switch, as an environment variable rather than an .npmrc key npm warns about.
export ONNXRUNTIME_NODE_INSTALL=skip
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "» npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "${1:-}" = "--system" ]; then
  need=()
  command -v jupyter-nbconvert >/dev/null 2>&1 || need+=(jupyter-nbconvert jupyter-client)
  /usr/bin/python3 -c 'import ipykernel' >/dev/null 2>&1 || need+=(python3-ipykernel)
  /usr/bin/python3 -c 'import notebook' >/dev/null 2>&1 || need+=(python3-notebook)   # npm run lab
  [ -x /usr/bin/chromium ] || need+=(chromium)
  if [ ${#need[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "» apt-get install ${need[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi
