#!/usr/bin/env bash
# The README's main job: compile the bundled example kernels for a real
# device and show what was decided and measured.
set -euo pipefail
build=${1:?usage: examples/run.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for kernel in "$here"/*.mlir; do
  echo "== $(basename "$kernel")"
  "$build/bin/xpu-opt" "$kernel" --xpu-attach-target="arch=pvc grf-mode=auto"
done
