#!/usr/bin/env bash
# Starts the tslab kernel from the repository root, so notebook cells can `import ... from './src/...'`.
# Registered as the kernel binary by scripts/install-kernel.sh.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
exec node_modules/.bin/tslab "$@"
