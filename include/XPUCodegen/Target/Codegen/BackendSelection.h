//===- BackendSelection.h - Choose the native compiler ----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_CODEGEN_BACKENDSELECTION_H
#define XPUCODEGEN_TARGET_CODEGEN_BACKENDSELECTION_H

#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Target/Device/DeviceTable.h"

#include <string>

namespace mlir::xpu {

struct BackendChoice {
  WorkerBackend worker = WorkerBackend::Ocloc;
  /// "ocloc" or "level-zero".
  llvm::StringRef name = "ocloc";
  /// Why this backend was used, for the report.
  std::string reason;
};

/// Resolves `requested` for `device`: `ocloc` and `level-zero` as asked;
/// `auto` is Level Zero when an Intel GPU of that arch is present, else
/// ocloc.
llvm::Expected<BackendChoice> selectBackend(BackendKind requested,
                                            const DeviceInfo &device);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_CODEGEN_BACKENDSELECTION_H
