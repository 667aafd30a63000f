// xpu-opt prints what the parser and the pass manager verified without
// the printer verifying it a third time (upstream's gpu.container_module
// check is quadratic in modules). Where either verification was turned
// off, the printer still checks: this function's return does not verify,
// so it prints in generic form instead of trusting the custom printer.
// RUN: xpu-opt %s --mlir-very-unsafe-disable-verifier-on-parsing | FileCheck %s --check-prefix=UNVERIFIED
// RUN: xpu-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --mlir-print-assume-verified=false | FileCheck %s --check-prefix=UNVERIFIED
// UNVERIFIED: "func.return"() : () -> ()

// The same module made valid prints in custom form, by default and with
// the printer's check asked for on the command line.
// RUN: sed -e 's/-> i32 {/{/' %s | xpu-opt | FileCheck %s --check-prefix=VERIFIED
// RUN: sed -e 's/-> i32 {/{/' %s | xpu-opt --mlir-print-assume-verified=false -verify-each=0 | FileCheck %s --check-prefix=VERIFIED
// VERIFIED: func.func @f() {
// VERIFIED-NEXT: return

func.func @f() -> i32 {
  return
}
