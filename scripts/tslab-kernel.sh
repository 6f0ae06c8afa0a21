#!/usr/bin/env bash
# Starts the tslab kernel from the repository root, so notebook cells can `import ... from './src/...'`.
# Registered as the kernel binary by scripts/install-kernel.sh. It goes away with the client that started it
# (lib/end-with-client.sh).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
# shellcheck source=lib/end-with-client.sh
source scripts/lib/end-with-client.sh
exec node_modules/.bin/tslab "$@"
