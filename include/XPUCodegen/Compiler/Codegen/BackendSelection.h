//===- BackendSelection.h - Choose the native compiler ----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_BACKENDSELECTION_H
#define XPUCODEGEN_COMPILER_CODEGEN_BACKENDSELECTION_H

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include <optional>
#include <string>

namespace mlir::xpu {

struct BackendChoice {
  WorkerBackend worker = WorkerBackend::Ocloc;
  /// "ocloc" or "level-zero".
  llvm::StringRef name = "ocloc";
  /// Why this backend was used, for the report.
  std::string reason;
};

/// Resolves `requested` for `device`: `ocloc` as asked; `level-zero` when a
/// Level Zero device of that arch is present, else an error that says why
/// (zeInit failed, or the devices found); `auto` is Level Zero when such a
/// device is present, else ocloc, with the reason. Level Zero is probed in a
/// worker of the run's `compiler` (never in this process), once per process,
/// arch and compiler.
llvm::Expected<BackendChoice>
selectBackend(BackendKind requested, const DeviceInfo &device,
              const CompilerInstallation &compiler);

/// The worker backend `requested` resolves to for every device when that is
/// known without probing Level Zero: ocloc when asked for, or for `auto`
/// where no Level Zero device can exist. std::nullopt otherwise.
std::optional<WorkerBackend> selectBackendWithoutProbe(BackendKind requested);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_BACKENDSELECTION_H
