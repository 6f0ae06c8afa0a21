#!/usr/bin/env bash
# The main job: installs npm packages if needed, then runs the end-to-end demo on the bundled defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec npx tsx src/cli/main.ts demo "$@"
