// The estimate uses the sub-group size each kernel will really be compiled
// with. At the default SIMD16 on pvc the small budget is 512 bytes per lane:
// acc8 (360 bytes, 70%) is predicted small and measurement agrees (one
// build, no spill). Assuming SIMD32 (budget 256, 141%) predicted large,
// which measurement at SIMD16 does not support.
// REQUIRES: ocloc
// RUN: xpu-opt %S/Inputs/acc8.mlir --xpu-codegen-pipeline="arch=pvc predict=true cache-dir=none backend=ocloc report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %S/Inputs/acc8.mlir --xpu-codegen-pipeline="arch=pvc cache-dir=none backend=ocloc report=%t.measured.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=MEASURED < %t.measured.json

// CHECK: gpu.binary @acc8 {xpu.auto_plan = #xpu.auto_plan<predict_small>, xpu.pressure = #xpu.pressure<live_bytes = 360, simd = 16, small_budget = 512, prediction = small>, xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 16, threads_per_eu = 8>}
// CHECK-SAME: grf_mode = #xpu.grf_mode<small>, kernels = {acc8 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}

// REPORT: "attempts": [
// REPORT-NEXT: {
// REPORT-NEXT: "build_flags": "-cl-intel-128-GRF-per-thread",
// REPORT-NEXT: "cache": "off",
// REPORT-NEXT: "compile_ms":
// REPORT-NEXT: "grf_mode": "small",
// REPORT-NEXT: "spill_size": 0
// REPORT-NEXT: }
// REPORT-NEXT: ],
// REPORT: "decision_source": "predicted",
// REPORT: "grf_mode": "small",

// MEASURED: "decision_source": "measured",
// MEASURED: "grf_mode": "small",
