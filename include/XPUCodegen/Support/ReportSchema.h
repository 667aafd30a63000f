//===- ReportSchema.h - The shape every report reader relies on ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A report entry that comes back from outside the run (a module cache
// record, a #xpu.module_cache_hit attribute written by hand) is read by the
// native codegen pass, the Python package and the CLI. They all read the
// same keys with the same types, so one check here decides what they may be
// given: whatever it accepts, none of them fails on.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_REPORTSCHEMA_H
#define XPUCODEGEN_SUPPORT_REPORTSCHEMA_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir::xpu {

/// Checks one report entry: a compiled module's (module, arch, backend, the
/// kept build's mode, count, spill and flags, its attempts and kernels) or a
/// failed one's (module, arch, error), every key with its type.
llvm::Error checkReportEntry(const llvm::json::Value &entry);

/// Checks what a module cache hit replays: a non-empty array of entries of
/// compiled modules (the cache never stores a failed module).
llvm::Error checkCachedReport(const llvm::json::Value &report);

} // namespace mlir::xpu

#endif // XPUCODEGEN_SUPPORT_REPORTSCHEMA_H
