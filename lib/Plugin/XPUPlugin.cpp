//===- XPUPlugin.cpp - mlir-opt dialect and pass plugin -------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/InitAllXPU.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT mlir::DialectPluginLibraryInfo
    mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "XPUCodegen", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::xpu::registerXPUDialectAndModels(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT mlir::PassPluginLibraryInfo
    mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "XPUCodegen", LLVM_VERSION_STRING,
          []() { mlir::xpu::registerAllXPUPasses(); }};
}
