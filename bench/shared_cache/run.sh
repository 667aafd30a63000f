#!/bin/sh
# Shared cache tier benchmark: bench/shared_cache/run.sh BUILD_DIR [--quick]
# Two "machines" (local cache directories) share one private redis-server on
# the Inductor-like mix of bench/pipeline/gen_inputs.py: cold vs shared-warm,
# and two machines at once with and without single flight. Prints the table
# (see bench/README.md) and writes BUILD_DIR/bench/shared_cache/results.json.
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--quick] [--out DIR]" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/bench.py" "$@"
