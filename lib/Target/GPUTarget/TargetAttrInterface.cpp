//===- TargetAttrInterface.cpp - #xpu.target as a GPU target --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Lets upstream gpu-module-to-binary serialize gpu.module ops that list an
// #xpu.target: format=isa yields validated SPIR-V, format=bin native code
// from the same driver, GRF decision and properties as xpu-native-codegen.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/XeVM/XeVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Mutex.h"

using namespace mlir;
using namespace mlir::xpu;

namespace {
/// serializeToObject returns only bytes, but the object built by
/// createObject must carry the measurements; they wait here in between.
class PendingProperties {
public:
  void put(Operation *module, DictionaryAttr properties) {
    std::lock_guard<std::mutex> lock(mutex);
    pending[module] = properties;
  }
  DictionaryAttr take(Operation *module) {
    std::lock_guard<std::mutex> lock(mutex);
    DictionaryAttr properties = pending.lookup(module);
    pending.erase(module);
    return properties;
  }

private:
  std::mutex mutex;
  llvm::DenseMap<Operation *, DictionaryAttr> pending;
};

PendingProperties &getPendingProperties() {
  static PendingProperties pending;
  return pending;
}

class XPUTargetAttrModel
    : public gpu::TargetAttrInterface::FallbackModel<XPUTargetAttrModel> {
public:
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *module,
                    const gpu::TargetOptions &options) const {
    auto gpuModule = dyn_cast_or_null<gpu::GPUModuleOp>(module);
    if (!gpuModule) {
      if (module)
        module->emitError("#xpu.target can only serialize gpu.module ops");
      return std::nullopt;
    }
    auto target = cast<TargetAttr>(attribute);
    gpu::CompilationTarget format = options.getCompilationTarget();
    if (format == gpu::CompilationTarget::Offload) {
      gpuModule.emitError("#xpu.target produces SPIR-V (format=isa) or native "
                          "code (format=bin), not offload objects");
      return std::nullopt;
    }

    if (failed(applySubgroupSizes(gpuModule, target)))
      return std::nullopt;
    FailureOr<SmallVector<char, 0>> spirv = emitSPIRV(gpuModule);
    if (failed(spirv) ||
        failed(checkSPIRV(gpuModule, *spirv, SPIRVValidation::Warn,
                          "gpu-module-to-binary")))
      return std::nullopt;
    if (format == gpu::CompilationTarget::Assembly)
      return std::move(*spirv);

    NativeCodegenOptions driverOptions;
    llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
        NativeCodegenDriver::create(driverOptions);
    if (!driver) {
      gpuModule.emitError() << "xpu native codegen unavailable: "
                            << llvm::toString(driver.takeError());
      return std::nullopt;
    }
    ModuleCompileRequest request =
        getCompileRequest(gpuModule, gpuModule.getName(), target, *spirv,
                          options.getCmdOptions());
    std::vector<llvm::Expected<ModuleCompileResult>> results =
        (*driver)->compile(request);
    llvm::Expected<ModuleCompileResult> &result = results.front();
    if (!result) {
      gpuModule.emitError()
          << "native code generation for arch '" << target.getArch()
          << "' failed: " << llvm::toString(result.takeError());
      return std::nullopt;
    }
    getPendingProperties().put(
        module, getNativeObjectProperties(module->getContext(), *result));
    const std::vector<char> &binary = result->decision.getChosen().binary;
    return SmallVector<char, 0>(binary.begin(), binary.end());
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    gpu::CompilationTarget format = options.getCompilationTarget();
    if (format == gpu::CompilationTarget::Fatbin)
      format = gpu::CompilationTarget::Binary;
    DictionaryAttr properties;
    if (format == gpu::CompilationTarget::Binary)
      properties = getPendingProperties().take(module);
    MLIRContext *context = attribute.getContext();
    return gpu::ObjectAttr::get(
        context, attribute, format,
        StringAttr::get(context, StringRef(object.data(), object.size())),
        properties, /*kernels=*/nullptr);
  }
};
} // namespace

void mlir::xpu::registerXPUTargetInterfaceExternalModels(
    DialectRegistry &registry) {
  // Serialization translates LLVM-dialect modules; hosts that load only the
  // plugin may not have registered these translations.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerXeVMDialectTranslation(registry);
  registry.addExtension(+[](MLIRContext *context, XPUDialect *dialect) {
    TargetAttr::attachInterface<XPUTargetAttrModel>(*context);
  });
}
