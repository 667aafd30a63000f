//===- Report.h - The JSON report of native code generation -----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_CODEGEN_REPORT_H
#define XPUCODEGEN_TARGET_CODEGEN_REPORT_H

#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"

#include "llvm/Support/JSON.h"

namespace mlir::xpu {

/// One module's entry: the decision, every attempt and every kernel, in the
/// shape of DESIGN.md's output contract.
llvm::json::Object getReportEntry(const ModuleCompileResult &result);

/// The entry of a module that failed: its name, arch and the error.
llvm::json::Object getReportErrorEntry(llvm::StringRef module,
                                       llvm::StringRef arch,
                                       llvm::StringRef error);

/// Writes {"version": 1, "modules": [...]} to `path` atomically.
llvm::Error writeReport(llvm::StringRef path,
                        std::vector<llvm::json::Value> modules);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_CODEGEN_REPORT_H
