// A prediction that turns out wrong: with the small bound raised to 200% of
// the budget (and the large one with it: the band may not be inverted),
// acc8 (360 bytes per lane, 141%) is predicted small. Small
// spills 5248 bytes, so measurement overrides the prediction: large is built
// too and kept, and the report says so.
// REQUIRES: ocloc
// RUN: xpu-opt %S/Inputs/acc8.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true predict-small-below=200 predict-large-above=200 cache-dir=none backend=ocloc report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// The binary records what was kept: large.
// CHECK: gpu.binary @acc8 {xpu.auto_plan = #xpu.auto_plan<predict_small>, xpu.pressure = #xpu.pressure<live_bytes = 360, simd = 32, small_budget = 256, prediction = small>, xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 32, threads_per_eu = 4>}
// CHECK-SAME: decision = "predicted small, measurement overrode: small spilled 5248 bytes > threshold 0; large spilled 0 bytes: kept large", decision_source = "measured"
// CHECK-SAME: grf_mode = #xpu.grf_mode<large>

// REPORT: "attempts": [
// REPORT: "grf_mode": "small",
// REPORT-NEXT: "spill_size": 5248
// REPORT: "grf_mode": "large",
// REPORT-NEXT: "spill_size": 0
// REPORT: "decision": "predicted small, measurement overrode: small spilled 5248 bytes > threshold 0; large spilled 0 bytes: kept large",
// REPORT: "decision_source": "measured",
// REPORT: "grf_mode": "large",
// REPORT: "plan": "predict_small",
// REPORT: "prediction": "small",
