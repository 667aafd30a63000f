//===- Report.h - The JSON report of native code generation -----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_REPORT_H
#define XPUCODEGEN_COMPILER_CODEGEN_REPORT_H

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"

#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

/// One module of a run, as the report lists it: what it compiled to (or
/// why it failed) and how that result was obtained. What a run collects for
/// its caller; the JSON report is its printout, and the Python binding reads
/// it directly.
struct ModuleReport {
  /// The module's name (a duplicate's own, a linked part's original one).
  std::string module;
  std::string arch;
  /// The result compiled in this run (shared by a module's duplicates).
  std::shared_ptr<const ModuleCompileResult> result;
  /// Why the module failed.
  std::optional<ModuleError> error;
  /// A module the module cache replayed: the entry the run that stored it
  /// printed (the fields above are read back from it). Held by pointer:
  /// json::Value's move may throw, so vectors of reports would copy it.
  std::shared_ptr<const llvm::json::Value> cached;
  /// The module xpu-dedupe-modules folded this one into.
  std::string deduplicatedFrom;
  /// The linked module holding this one, and the binary of its own it was
  /// split into.
  std::string linkedInto;
  std::string splitInto;
  /// A linked part's kernels the linked module renamed: (linked name,
  /// the original module's name).
  std::vector<std::pair<std::string, std::string>> renamedKernels;

  /// True for a module that failed (in this run or the cached one).
  bool failed() const;
};

/// The report entry of `report`: getReportEntry or getReportErrorEntry,
/// renamed and marked as the report says how it was obtained.
llvm::json::Value getReportEntry(const ModuleReport &report);

/// A replayed entry (ModuleReport::cached) with the fields of `report` read
/// back from it.
ModuleReport readCachedReport(llvm::json::Value entry);

/// Writes {"version": 1, "modules": [...]} to `path` atomically.
llvm::Error writeReport(llvm::StringRef path,
                        std::vector<llvm::json::Value> modules);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_REPORT_H
