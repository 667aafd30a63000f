#!/bin/sh
# GRF-decision benchmark:
#   bench/grf_decision/run.sh BUILD_DIR [--arch pvc] [--compiler-root DIR]
# Writes BUILD_DIR/bench/grf_decision/results-<arch>-<compiler>.json and
# prints the table (bench.py --help for the options).
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--arch ARCH] [--compiler-root DIR] [--out FILE] [--jobs N] [--parallel N]" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/bench.py" "$@"
