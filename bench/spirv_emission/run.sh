#!/bin/sh
# SPIR-V emission cost per module: bench/spirv_emission/run.sh BUILD_DIR
# [--before XPU_OPT] [--modules N] [--repeat R]. 64 small LLVM-dialect
# modules through xpu-emit-spirv (one xpu-spirv-emitter process) against
# one `llc` process per module, the backend step of the path it replaced;
# --before also times an older xpu-opt's xpu-emit-spirv on the same input
# and checks that both give the same bytes. See bench/README.md.
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--before XPU_OPT] [--modules N] [--repeat R]" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/bench.py" "$@"
