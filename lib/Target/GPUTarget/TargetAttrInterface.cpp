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
#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Codegen/ResultMessages.h"
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

#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::xpu;

namespace {
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
    // Both formats serialize to SPIR-V; createObject compiles it to native
    // code for format=bin, so the object and its properties come from one
    // result, with nothing kept in between.
    return std::move(*spirv);
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    gpu::CompilationTarget format = options.getCompilationTarget();
    if (format == gpu::CompilationTarget::Fatbin)
      format = gpu::CompilationTarget::Binary;
    MLIRContext *context = attribute.getContext();
    if (format != gpu::CompilationTarget::Binary)
      return gpu::ObjectAttr::get(
          context, attribute, format,
          StringAttr::get(context, StringRef(object.data(), object.size())),
          /*properties=*/nullptr, /*kernels=*/nullptr);
    auto gpuModule = dyn_cast_or_null<gpu::GPUModuleOp>(module);
    if (!gpuModule)
      return {};
    FailureOr<ModuleCompileResult> result =
        compileNative(gpuModule, cast<TargetAttr>(attribute), object,
                      options.getCmdOptions());
    if (failed(result))
      return {};
    const std::vector<char> &binary = result->decision.getChosen().binary;
    return gpu::ObjectAttr::get(
        context, attribute, format,
        StringAttr::get(context, StringRef(binary.data(), binary.size())),
        getNativeObjectProperties(context, *result), /*kernels=*/nullptr);
  }

private:
  /// The session the context's modules share (one model per context):
  /// gpu-module-to-binary has no run of its own to hold one, so the
  /// compiler root is resolved and the cache opened once per context, not
  /// per module.
  mutable std::mutex sessionMutex;
  mutable std::shared_ptr<CompileSession> session;

  std::shared_ptr<CompileSession> getSession() const {
    std::lock_guard<std::mutex> lock(sessionMutex);
    if (!session)
      session = CompileSession::create(NativeCodegenOptions());
    return session;
  }

  /// The native build of `spirv`, with its GRF decision; failure when it
  /// cannot be compiled (diagnosed at `module`).
  FailureOr<ModuleCompileResult> compileNative(gpu::GPUModuleOp module,
                                               TargetAttr target,
                                               ArrayRef<char> spirv,
                                               StringRef cmdOptions) const {
    llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
        NativeCodegenDriver::create(getSession());
    if (!driver) {
      module.emitError() << "xpu native codegen: "
                         << getStartFailureMessage(
                                llvm::toString(driver.takeError()));
      return failure();
    }
    ModuleCompileRequest request =
        getCompileRequest(module, module.getName(), target, spirv, cmdOptions);
    std::vector<llvm::Expected<ModuleCompileResult>> results =
        (*driver)->compile(request);
    for (const std::string &warning : (*driver)->takeWarnings())
      module.emitWarning() << "xpu native codegen: " << getExcerpt(warning);
    llvm::Expected<ModuleCompileResult> &result = results.front();
    if (!result) {
      ModuleError error = takeModuleError(result.takeError());
      module.emitError() << "xpu native codegen: "
                         << getFailureMessage(request.name, request.arch,
                                              error.message);
      return failure();
    }
    // The pass's warnings, worded alike (ResultMessages.h).
    for (const ResultMessage &message :
         getResultMessages(*result, request.policy, /*remarks=*/false))
      module.emitWarning() << "xpu native codegen: " << message.getText();
    return std::move(*result);
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
