#!/usr/bin/env bash
# Compile speed: dedup, parallel workers and the persistent cache against one
# ocloc process per kernel. See bench/README.md.
set -euo pipefail
build=${1:?usage: bench/compile_speed/run.sh BUILD_DIR}
exec /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/bench.py" "$build" \
  ${BENCH_ARGS:-}
