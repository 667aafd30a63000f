//===- BackendSelection.cpp - Choose the native compiler ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/BackendSelection.h"

using namespace mlir::xpu;

llvm::Expected<BackendChoice>
mlir::xpu::selectBackend(BackendKind requested, const DeviceInfo &device) {
  switch (requested) {
  case BackendKind::Ocloc:
    return BackendChoice{WorkerBackend::Ocloc, "ocloc", "requested"};
  case BackendKind::LevelZero:
    return llvm::createStringError(
        "backend=level-zero is not available in this build");
  case BackendKind::Auto:
    return BackendChoice{WorkerBackend::Ocloc, "ocloc",
                         "auto: no Level Zero device probing in this build"};
  }
  llvm_unreachable("unknown backend kind");
}
