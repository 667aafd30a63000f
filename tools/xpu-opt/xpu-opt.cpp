//===- xpu-opt.cpp - mlir-opt with the xpu dialect and passes -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Transforms/ModuleFailures.h"
#include "XPUCodegen/InitAllXPU.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::xpu::registerAllXPUPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::xpu::registerXPUDialectAndModels(registry);

  // A module that fails (to lower, emit or compile) is its own error: the
  // IR of the others is still written, and the exit status says it failed.
  mlir::xpu::setDeferModuleFailures(true);
  if (mlir::failed(mlir::MlirOptMain(
          argc, argv, "XPUCodegen optimizer driver\n", registry)))
    return EXIT_FAILURE;
  return mlir::xpu::getNumDeferredModuleFailures() ? EXIT_FAILURE
                                                   : EXIT_SUCCESS;
}
