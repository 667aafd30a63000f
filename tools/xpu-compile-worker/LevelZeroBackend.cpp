//===- LevelZeroBackend.cpp - Level Zero compiler backend -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Placeholder until the Level Zero backend lands: every job gets a clean
// error, the worker stays up.
//
//===----------------------------------------------------------------------===//

#include "CompilerBackend.h"

using namespace llvm;

namespace mlir::xpu::worker {

Expected<std::unique_ptr<CompilerBackend>> createLevelZeroBackend() {
  return createStringError(inconvertibleErrorCode(),
                           "level-zero backend not available in this worker "
                           "yet");
}

} // namespace mlir::xpu::worker
