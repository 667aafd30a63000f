#!/bin/sh
# GRF-decision benchmark: bench/grf_decision/run.sh BUILD_DIR [--arch pvc]
# Writes BUILD_DIR/bench/grf_decision/results.json and prints the table.
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--arch ARCH] [--out FILE] [--jobs N]" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/bench.py" "$@"
