// verify-predicted-large=false (the default) trusts a large prediction even
// when large spills: acc12 (predicted large, large spills 3968 bytes) is
// built once; verify-predicted-large=true also builds small to compare.
// REQUIRES: ocloc
// RUN: xpu-opt %S/Inputs/acc12.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true verify-predicted-large=false cache-dir=none backend=ocloc report=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: xpu-opt %S/Inputs/acc12.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true cache-dir=none backend=ocloc report=%t.default.json" -o /dev/null
// RUN: FileCheck %s < %t.default.json
// RUN: xpu-opt %S/Inputs/acc12.mlir --xpu-codegen-pipeline="arch=pvc subgroup-size=32 predict=true verify-predicted-large=true cache-dir=none backend=ocloc report=%t.verified.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=VERIFIED < %t.verified.json

// CHECK: "attempts": [
// CHECK-NEXT: {
// CHECK-NEXT: "build_flags": "-cl-intel-256-GRF-per-thread",
// CHECK: "spill_size": {{[1-9][0-9]*}}
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK: "decision": "predicted large; large spilled {{[0-9]+}} bytes, kept without a small build (verify-predicted-large off)",
// CHECK-NEXT: "decision_source": "predicted",
// CHECK: "grf_mode": "large",
// CHECK: "plan": "predict_large_unverified",

// VERIFIED: "attempts": [
// VERIFIED: "grf_mode": "large",
// VERIFIED: "grf_mode": "small",
// VERIFIED: "plan": "predict_large",
