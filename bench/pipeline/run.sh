#!/bin/sh
# Whole-pipeline benchmark: bench/pipeline/run.sh BUILD_DIR [--quick] [...]
# MLIR to native code with xpu-codegen-pipeline (cold, warm, a renamed
# 1000/50 set, predict, link) against upstream's gpu-lower-to-xevm-pipeline
# plus one ocloc process per module, measured in the same run. Prints the
# table and a profile, writes BUILD_DIR/bench/pipeline/results.json. See
# bench/README.md. --compiler-root DIR: the compiler (an ocloc installation,
# e.g. .compilers/igc-2.40) for both the baseline and xpu-opt.
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--quick] [--out DIR] [--full-baseline] [--perf] [--sample N] [--compiler-root DIR]" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/bench.py" "$@" ${BENCH_ARGS:-}
