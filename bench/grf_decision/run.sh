#!/bin/sh
# GRF-decision benchmark:
#   bench/grf_decision/run.sh BUILD_DIR [--arch pvc] [--compiler-root DIR] [--batch]
#   bench/grf_decision/run.sh BUILD_DIR --all [--batch] [IGC2_ROOT]
# Writes BUILD_DIR/bench/grf_decision/results-<arch>-<compiler>.json and
# prints the table (bench.py --help for the options). --all runs the tables
# of bench/README.md: pvc on the system's compiler, then pvc, bmg and cri on
# IGC 2.40 (IGC2_ROOT, default <source>/.compilers/igc-2.40, installed by
# tools/install-compiler).
set -e
if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [--arch ARCH] [--compiler-root DIR] [--batch] [--out FILE] [--jobs N] [--parallel N]" >&2
  echo "       $0 BUILD_DIR --all [--batch] [IGC2_ROOT]" >&2
  exit 2
fi
here=$(dirname "$0")
if [ "${2:-}" = "--all" ]; then
  build=$1
  shift 2
  batch=
  if [ "${1:-}" = "--batch" ]; then batch=--batch; shift; fi
  root=${1:-$(cd "$here/../.." && pwd)/.compilers/igc-2.40}
  python3 "$here/bench.py" "$build" --arch pvc $batch
  for arch in pvc bmg cri; do
    python3 "$here/bench.py" "$build" --arch "$arch" --compiler-root "$root" $batch
  done
  exit 0
fi
exec python3 "$here/bench.py" "$@"
