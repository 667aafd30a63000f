#!/usr/bin/env bash
# The README's main job: compile the bundled example kernels to native code
# for real devices with GRF selection (grf-mode=auto, measured by IGC) and
# print, per kernel, what was decided and measured.
set -euo pipefail
build=${1:?usage: examples/run.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${EXAMPLES_OUT:-$build/examples}
mkdir -p "$out"
reports=()
for arch in pvc acm-g10; do
  for kernel in "$here"/*.mlir; do
    name=$(basename "$kernel" .mlir)
    report="$out/$name.$arch.json"
    "$build/bin/xpu-opt" "$kernel" -o "$out/$name.$arch.mlir" \
      --xpu-codegen-pipeline="arch=$arch grf-mode=auto report=$report"
    reports+=("$report")
  done
done
/usr/bin/python3 "$here/report_table.py" "${reports[@]}"
echo
echo "Native binaries and properties: $out/*.mlir; JSON reports: $out/*.json"
