// An uncertain estimate: acc6 (296 bytes per lane, 116% of pvc's small
// budget) lies between the calibrated bounds. Measured auto builds small,
// sees it spill, then builds large; speculative=true builds both at once and
// keeps what measurement would keep. Without predict, auto is measured
// exactly as before and carries no estimate.
// REQUIRES: ocloc
// RUN: xpu-opt %S/Inputs/acc6.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true cache-dir=none backend=ocloc jobs=2 report=%t.spec.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=SPEC < %t.spec.json
// RUN: xpu-opt %S/Inputs/acc6.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true speculative=true cache-dir=none backend=ocloc jobs=2 report=%t.spec.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=SPEC2 < %t.spec.json
// RUN: xpu-opt %S/Inputs/acc6.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 cache-dir=none backend=ocloc report=%t.measured.json" | FileCheck %s --check-prefix=MEASURED
// RUN: FileCheck %s --check-prefix=MEASURED-REPORT < %t.measured.json

// SPEC: "decision": "small spilled 2048 bytes > threshold 0; large spilled 0 bytes: kept large",
// SPEC: "decision_source": "measured",
// SPEC: "plan": "measure",
// SPEC: "prediction": "uncertain",

// SPEC2: "decision": "speculated (uncertain estimate), built both: small spilled 2048 bytes, large spilled 0 bytes: kept large",
// SPEC2: "decision_source": "speculated",
// SPEC2: "grf_mode": "large",
// SPEC2: "plan": "speculate",
// SPEC2: "live_bytes": 296,
// SPEC2-NEXT: "prediction": "uncertain",

// MEASURED-NOT: xpu.pressure
// MEASURED-NOT: xpu.auto_plan
// MEASURED: decision = "small spilled 2048 bytes > threshold 0; large spilled 0 bytes: kept large", decision_source = "measured", grf_mode = #xpu.grf_mode<large>
// MEASURED-NOT: estimated_live_bytes
// MEASURED-REPORT: "decision_source": "measured",
// MEASURED-REPORT-NOT: "pressure"
