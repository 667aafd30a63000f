//===- Report.h - The JSON report of native code generation -----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_CODEGEN_REPORT_H
#define XPUCODEGEN_TARGET_CODEGEN_REPORT_H

#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::xpu {

/// One module's entry: the decision, every attempt and every kernel, in the
/// shape of DESIGN.md's output contract.
llvm::json::Object getReportEntry(const ModuleCompileResult &result);

/// The entry of a module that failed: its name, arch and the error.
llvm::json::Object getReportErrorEntry(llvm::StringRef module,
                                       llvm::StringRef arch,
                                       llvm::StringRef error);

/// A module's failure as the report and diagnostics show it.
struct ModuleError {
  std::string message;
  /// Set for an OutOfResourcesError: what ran out, needed and allowed.
  struct Resources {
    std::string resource;
    int64_t required = 0;
    int64_t limit = 0;
  };
  std::optional<Resources> resources;
};

/// Consumes `error` (from NativeCodegenDriver::compile).
ModuleError takeModuleError(llvm::Error error);

/// getReportErrorEntry plus, for a module out of resources,
/// "out_of_resources": {"resource", "required", "limit"}.
llvm::json::Object getReportErrorEntry(llvm::StringRef module,
                                       llvm::StringRef arch,
                                       const ModuleError &error);

/// Writes {"version": 1, "modules": [...]} to `path` atomically.
llvm::Error writeReport(llvm::StringRef path,
                        std::vector<llvm::json::Value> modules);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_CODEGEN_REPORT_H
