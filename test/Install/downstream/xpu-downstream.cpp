//===- xpu-downstream.cpp - A program using the installed package ---------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Runs xpu-codegen-pipeline from C++ on the MLIR file named on the command
// line and prints, for each native object, the GRF decision recorded in its
// properties (grf_mode, n_regs, the kernels it holds), then the worker and the
// SPIR-V emitter used.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/InitAllXPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: xpu-downstream <input.mlir> <arch>\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  xpu::registerXPUDialectAndModels(registry);
  xpu::registerAllXPUPasses();

  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  auto pm = PassManager::on<ModuleOp>(&context);
  std::string pipeline = std::string("xpu-codegen-pipeline{arch=") + argv[2] +
                         " grf-mode=auto cache-dir=none}";
  if (failed(parsePassPipeline(pipeline, pm)) || failed(pm.run(*module)))
    return 1;

  module->walk([](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      DictionaryAttr properties = object.getProperties();
      llvm::outs() << binary.getSymName() << ": grf_mode "
                   << properties.get("grf_mode") << ", n_regs "
                   << properties.get("n_regs") << ", kernels";
      if (auto kernels = properties.getAs<DictionaryAttr>("kernels"))
        for (NamedAttribute kernel : kernels)
          llvm::outs() << " " << kernel.getName().getValue();
      llvm::outs() << "\n";
    }
  });
  llvm::outs() << "worker: " << xpu::findWorkerExecutable() << "\n";
  llvm::outs() << "emitter: "
               << xpu::findWorkerExecutable(xpu::WorkerProgram::SPIRVEmitter)
               << "\n";
  return 0;
}
