#!/usr/bin/env bash
# Starts Deno's Jupyter kernel so that it goes away with the client that started it:
#   deno-kernel.sh /path/to/deno jupyter --kernel --conn {connection_file}
# (the argv `deno jupyter --install` writes, behind this script; test/integration/deno-notebook.test.ts registers
# it so). A killed run used to leave a `deno jupyter --kernel` running: see lib/end-with-client.sh.
set -euo pipefail
# shellcheck source=lib/end-with-client.sh
source "$(dirname "$(readlink -f "$0")")/lib/end-with-client.sh"
exec "$@"
