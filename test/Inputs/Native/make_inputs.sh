#!/bin/sh
# Regenerates the test kernels: LLVM IR -> SPIR-V (LLVM's SPIR-V backend) ->
# zebin and build log (ocloc, IGC) in every GRF mode on pvc. See README.md.
set -e
cd "$(dirname "$0")"
LLVM=${LLVM:-/usr/lib/llvm-22/bin}

python3 gen_kernels.py accumulate nospill 4 > nospill.ll
python3 gen_kernels.py accumulate spill_small_only 8 > spill_small_only.ll
python3 gen_kernels.py accumulate spill_both 16 > spill_both.ll
python3 gen_kernels.py private private_array 256 > private_array.ll
python3 gen_kernels.py scratch scratch_small_only 8 2048 > scratch_small_only.ll
python3 gen_kernels.py scratch scratch_both 16 2048 > scratch_both.ll
python3 gen_kernels.py accumulate simd16_small_only 16 16 > simd16_small_only.ll

for k in nospill spill_small_only spill_both private_array scratch_small_only \
    scratch_both simd16_small_only; do
  "$LLVM/llc" -mtriple=spirv64-unknown-unknown -filetype=obj $k.ll -o $k.spv
  spirv-val --target-env spv1.4 $k.spv
  for mode in small large default igc-auto; do
    case $mode in
      small) flags=-cl-intel-128-GRF-per-thread ;;
      large) flags=-cl-intel-256-GRF-per-thread ;;
      # ocloc reads <name>_options.txt when -options is empty; pass a no-op.
      default) flags=-cl-std=CL2.0 ;;
      igc-auto) flags=-cl-intel-enable-auto-large-GRF-mode ;;
    esac
    ocloc compile -file $k.spv -spirv_input -device pvc \
      -internal_options -ze-allow-zebin -options "$flags" -exclude_ir \
      -output $k.pvc.$mode.zebin -output_no_suffix > $k.pvc.$mode.log 2>&1
  done
done

# Keep the checked-in binaries few and small: logs for every mode, zebins for
# the modes the unit tests read.
rm -f nospill.pvc.default.zebin nospill.pvc.igc-auto.zebin \
  spill_small_only.pvc.default.zebin spill_both.pvc.default.zebin \
  spill_both.pvc.igc-auto.zebin private_array.pvc.default.zebin \
  private_array.pvc.igc-auto.zebin private_array.pvc.large.zebin \
  scratch_small_only.pvc.default.zebin scratch_small_only.pvc.igc-auto.zebin \
  scratch_small_only.pvc.large.zebin scratch_both.pvc.default.zebin \
  scratch_both.pvc.igc-auto.zebin scratch_both.pvc.large.zebin \
  simd16_small_only.pvc.*.zebin

# What some IGC versions write on a per-thread scratch overflow (exit code 0):
# a zebin without code. Made from a real one by dropping .text and .symtab.
"$LLVM/llvm-objcopy" --remove-section=.text.scratch_small_only \
  --remove-section=.symtab scratch_small_only.pvc.small.zebin \
  scratch_small_only.pvc.degenerate.zebin

# The same kernels on IGC 2.40 (tools/install-compiler's root, started through
# its own loader): .ze_info carries spill_size, the log says "in kernel 'K'",
# and a per-thread scratch overflow drops the SIMD width instead of failing.
IGC2_ROOT=${IGC2_ROOT:-../../../.compilers/igc-2.40}
if [ -d "$IGC2_ROOT" ]; then
  lib=$IGC2_ROOT/usr/lib/x86_64-linux-gnu
  for k in spill_small_only scratch_small_only scratch_both; do
    for mode in small large; do
      case $mode in
        small) flags=-cl-intel-128-GRF-per-thread ;;
        large) flags=-cl-intel-256-GRF-per-thread ;;
      esac
      "$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
        "$IGC2_ROOT"/usr/bin/ocloc-26.* compile -file $k.spv -spirv_input \
        -device pvc -options "$flags" -exclude_ir \
        -output $k.pvc.igc2.$mode.zebin -output_no_suffix \
        > $k.pvc.igc2.$mode.log 2>&1
      # ocloc 26.x appends .bin whatever -output_no_suffix says.
      mv $k.pvc.igc2.$mode.zebin.bin $k.pvc.igc2.$mode.zebin
    done
  done
  rm -f scratch_both.pvc.igc2.large.zebin spill_small_only.pvc.igc2.large.zebin

  # A CLBlast-like GEMM for both outcomes of IGC 2.40's RetryManager.
  python3 gen_gemm.py retry_gemm 12 8 2 > retry_gemm.cl
  "$LLVM/clang" -cl-std=CL2.0 -target spir64 -O2 -emit-llvm -S \
    -Xclang -finclude-default-header retry_gemm.cl -o retry_gemm.ll
  "$LLVM/llc" -mtriple=spirv64-unknown-unknown -filetype=obj retry_gemm.ll \
    -o retry_gemm.spv
  spirv-val --target-env spv1.4 retry_gemm.spv
  rm -f retry_gemm.cl retry_gemm.ll
  for mode in small large; do
    case $mode in
      small) flags=-cl-intel-128-GRF-per-thread ;;
      large) flags=-cl-intel-256-GRF-per-thread ;;
    esac
    "$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
      "$IGC2_ROOT"/usr/bin/ocloc-26.* compile -file retry_gemm.spv \
      -spirv_input -device pvc -options "$flags" -exclude_ir \
      -output retry_gemm.pvc.igc2.$mode.zebin -output_no_suffix \
      > retry_gemm.pvc.igc2.$mode.log 2>&1
    mv retry_gemm.pvc.igc2.$mode.zebin.bin retry_gemm.pvc.igc2.$mode.zebin
  done
fi

# The device a zebin is for (IntelGT notes; ZebinTargetTest): nospill for
# other devices than pvc, in the default mode. acm-g11 shares pvc's core
# generation but not its product family; pvc-sdv differs from pvc by its
# hardware revision only; bmg (IGC 2.40) adds the IP version note.
for device in acm-g11 pvc-sdv; do
  ocloc compile -file nospill.spv -spirv_input -device $device \
    -internal_options -ze-allow-zebin -exclude_ir \
    -output nospill.$device.zebin -output_no_suffix > /dev/null 2>&1
done
if [ -d "$IGC2_ROOT" ]; then
  "$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
    "$IGC2_ROOT"/usr/bin/ocloc-26.* compile -file nospill.spv -spirv_input \
    -device bmg -exclude_ir -output nospill.bmg.igc2.zebin \
    -output_no_suffix > /dev/null 2>&1
  mv nospill.bmg.igc2.zebin.bin nospill.bmg.igc2.zebin
fi
