#!/usr/bin/env bash
# The README's main job: compile the bundled example kernels to native code
# for real devices with GRF selection (grf-mode=auto, measured by IGC) and
# print, per kernel, what was decided and measured.
#
#   examples/run.sh BUILD_DIR [--compiler-root DIR] [--arch ARCH[,ARCH...]]
#
# --arch defaults to pvc,acm-g10; --compiler-root (the pipeline option
# compiler-root, default $XPU_CODEGEN_COMPILER_ROOT, else the system's
# compiler) selects the compiler, e.g. IGC 2.40 for bmg,cri:
#   examples/run.sh build --compiler-root .compilers/igc-2.40 --arch bmg,cri
set -euo pipefail
usage="usage: examples/run.sh BUILD_DIR [--compiler-root DIR] [--arch ARCH[,ARCH...]]"
build=${1:?$usage}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
arches=pvc,acm-g10
root=${XPU_CODEGEN_COMPILER_ROOT:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arches=${2:?$usage}; shift 2 ;;
    --arch=*) arches=${1#--arch=}; shift ;;
    --compiler-root) root=${2:?$usage}; shift 2 ;;
    --compiler-root=*) root=${1#--compiler-root=}; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
out=${EXAMPLES_OUT:-$build/examples}
extra=
if [ -n "$root" ]; then
  root=$(cd "$root" && pwd)
  extra=" compiler-root=$root"
  # Keep each compiler's outputs apart.
  out=$out/$(basename "$root")
fi
mkdir -p "$out"
reports=()
IFS=, read -ra arch_list <<< "$arches"
for arch in "${arch_list[@]}"; do
  for kernel in "$here"/*.mlir; do
    name=$(basename "$kernel" .mlir)
    report="$out/$name.$arch.json"
    "$build/bin/xpu-opt" "$kernel" -o "$out/$name.$arch.mlir" \
      --xpu-codegen-pipeline="arch=$arch grf-mode=auto report=$report$extra"
    reports+=("$report")
  done
done
/usr/bin/python3 "$here/report_table.py" "${reports[@]}"
echo
echo "Native binaries and properties: $out/*.mlir; JSON reports: $out/*.json"
