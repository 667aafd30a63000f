// The static estimate resolves auto early on pvc (SIMD32, small budget 256
// bytes per lane): acc4 (232 bytes, 91%) is predicted small and built once;
// acc8 (360 bytes, 141%) is predicted large and built once, skipping the
// small build; acc12 (488 bytes) is predicted large but large spills, so
// small is built too and the lesser spill is kept when asked
// (verify-predicted-large=true; by default the prediction is trusted:
// unverified-large.mlir).
// REQUIRES: ocloc
// RUN: xpu-opt %S/Inputs/acc4.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true cache-dir=none backend=ocloc report=%t.acc4.json" | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=SMALL-REPORT < %t.acc4.json
// RUN: xpu-opt %S/Inputs/acc8.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true cache-dir=none backend=ocloc report=%t.acc8.json" | FileCheck %s --check-prefix=LARGE
// RUN: FileCheck %s --check-prefix=LARGE-REPORT < %t.acc8.json
// RUN: xpu-opt %S/Inputs/acc12.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true verify-predicted-large=true cache-dir=none backend=ocloc report=%t.acc12.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=BOTH-REPORT < %t.acc12.json

// SMALL: gpu.binary @acc4 {xpu.auto_plan = #xpu.auto_plan<predict_small>, xpu.pressure = #xpu.pressure<live_bytes = 232, simd = 32, small_budget = 256, prediction = small>, xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 32, threads_per_eu = 8>}
// SMALL-SAME: attempts = [{build_flags = "-cl-intel-128-GRF-per-thread", grf_mode = "small", spill_size = 0 : i64}]
// SMALL-SAME: decision = "predicted small; small spilled 0 bytes <= threshold 0: kept small", decision_source = "predicted", estimated_live_bytes = 232 : i64
// SMALL-SAME: prediction = "small"

// SMALL-REPORT: "decision": "predicted small; small spilled 0 bytes <= threshold 0: kept small",
// SMALL-REPORT: "decision_source": "predicted",
// SMALL-REPORT: "plan": "predict_small",
// SMALL-REPORT: "pressure": {
// SMALL-REPORT-NEXT: "live_bytes": 232,
// SMALL-REPORT-NEXT: "prediction": "small",
// SMALL-REPORT-NEXT: "simd": 32,
// SMALL-REPORT-NEXT: "small_budget": 256

// LARGE: gpu.binary @acc8 {xpu.auto_plan = #xpu.auto_plan<predict_large>, xpu.pressure = #xpu.pressure<live_bytes = 360, simd = 32, small_budget = 256, prediction = large>, xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 32, threads_per_eu = 4>}
// LARGE-SAME: attempts = [{build_flags = "-cl-intel-256-GRF-per-thread", grf_mode = "large", spill_size = 0 : i64}]
// LARGE-SAME: decision = "predicted large; large spilled 0 bytes <= threshold 0: kept large, small build skipped", decision_source = "predicted"
// LARGE-SAME: grf_mode = #xpu.grf_mode<large>

// LARGE-REPORT: "attempts": [
// LARGE-REPORT-NEXT: {
// LARGE-REPORT-NEXT: "build_flags": "-cl-intel-256-GRF-per-thread",
// LARGE-REPORT: "grf_mode": "large",
// LARGE-REPORT-NEXT: "spill_size": 0
// LARGE-REPORT-NEXT: }
// LARGE-REPORT-NEXT: ],
// LARGE-REPORT: "decision_source": "predicted",
// LARGE-REPORT: "grf_mode": "large",

// BOTH-REPORT: "decision": "predicted large; large spilled 3968 bytes > threshold 0, so small was built too: small spilled 11392 bytes, large spilled 3968 bytes: kept large",
// BOTH-REPORT: "decision_source": "predicted",
// BOTH-REPORT: "grf_mode": "large",
