#!/usr/bin/env bash
# link=false against link=true (xpu-link-modules) on sets of small modules,
# cold. See bench/README.md, "link".
set -euo pipefail
build=${1:?usage: bench/link/run.sh BUILD_DIR}
exec /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/bench.py" "$build" \
  ${BENCH_ARGS:-}
