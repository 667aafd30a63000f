//===- BuildFlags.h - Which user build options are allowed ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The policy on user build options that both the dialect (#xpu.target's
// `flags`) and the native builds check: the GRF mode alone decides the
// register file and the threads per EU. Below the dialect, so that verifying
// an attribute needs nothing from the Target layer.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DEVICE_BUILDFLAGS_H
#define XPUCODEGEN_DEVICE_BUILDFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::xpu {

/// True for a build option that pins the register file or the number of
/// hardware threads per EU (any spelling of the GRF flags, IGC's auto flags,
/// `-ze-opt-large-register-file`, `*-num-thread-per-eu`, ...): the GRF mode
/// alone decides those, or the reported facts would be wrong.
bool pinsGRFOrThreads(llvm::StringRef flag);

/// An error naming the first option of `flags` that pinsGRFOrThreads.
llvm::Error checkExtraFlags(llvm::StringRef flags);

} // namespace mlir::xpu

#endif // XPUCODEGEN_DEVICE_BUILDFLAGS_H
