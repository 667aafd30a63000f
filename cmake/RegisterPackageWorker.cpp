//===- RegisterPackageWorker.cpp - The package's worker for a program -----===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Compiled into every program that links XPUCodegen::XPUCodegen (it is that
// target's INTERFACE_SOURCES; it is not part of any library). A program that
// links the libraries statically has no library of its own to look beside,
// so this names the xpu-compile-worker of the package (installed, or the
// build tree when embedded) the program was built against, wherever the
// program itself is. XPU_CODEGEN_PACKAGE_WORKER comes from the same target.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

namespace {
struct RegisterPackageWorker {
  RegisterPackageWorker() {
    mlir::xpu::registerWorkerExecutable(XPU_CODEGEN_PACKAGE_WORKER);
  }
} registerPackageWorker;
} // namespace
