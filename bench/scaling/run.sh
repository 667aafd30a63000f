#!/usr/bin/env bash
# The project's passes at growing program sizes (issue 36): each pass's time
# per module, and a warm run against a bare parse and print. See
# bench/README.md, "scaling".
set -euo pipefail
build=${1:?usage: bench/scaling/run.sh BUILD_DIR [--sizes 1000,2000,4000,8000]}
shift
exec /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/bench.py" "$build" \
  "$@" ${BENCH_ARGS:-}
