#!/bin/sh
# Parity benchmark: bench/parity/run.sh BUILD_DIR [--arch pvc]
# Compiles test/Parity/*.mlir through upstream's gpu-lower-to-xevm-pipeline
# (Debian's mlir-opt) + spirv-as + ocloc and through xpu-codegen-pipeline;
# prints the table and writes BUILD_DIR/bench/parity/results.json.
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--arch ARCH] [--out FILE] [--work DIR]" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/bench.py" "$@"
