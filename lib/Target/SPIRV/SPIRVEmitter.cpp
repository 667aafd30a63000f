//===- SPIRVEmitter.cpp - gpu.module to SPIR-V ----------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#define DEBUG_TYPE "xpu-emit-spirv"

using namespace mlir;
using namespace mlir::xpu;

namespace {
/// LLVM dialect -> LLVM IR -> SPIR-V through LLVM's SPIR-V backend. The base
/// class owns translation, linking and optimization; this class only emits.
class LLVMToSPIRVSerializer : public LLVM::ModuleToObject {
public:
  LLVMToSPIRVSerializer(gpu::GPUModuleOp module, int optLevel)
      : ModuleToObject(*module, "spirv64-unknown-unknown", /*chip=*/"",
                       /*features=*/"", optLevel) {
    static llvm::once_flag initializeBackendOnce;
    llvm::call_once(initializeBackendOnce, [] {
      LLVMInitializeSPIRVTargetInfo();
      LLVMInitializeSPIRVTarget();
      LLVMInitializeSPIRVTargetMC();
      LLVMInitializeSPIRVAsmPrinter();
    });
  }

protected:
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    LLVM_DEBUG(llvm::dbgs() << "LLVM IR for " << getModule().getName() << ":\n"
                            << llvmModule << "\n");
    FailureOr<llvm::TargetMachine *> targetMachine = getOrCreateTargetMachine();
    if (failed(targetMachine))
      return getModule().emitError()
             << "xpu-emit-spirv: LLVM has no SPIR-V target machine for '"
             << triple << "'";

    SmallVector<char, 0> spirv;
    llvm::raw_svector_ostream stream(spirv);
    llvm::legacy::PassManager codegen;
    if ((*targetMachine)
            ->addPassesToEmitFile(codegen, stream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
      return getModule().emitError()
             << "xpu-emit-spirv: LLVM's SPIR-V backend cannot emit objects";
    codegen.run(llvmModule);
    return spirv;
  }

private:
  gpu::GPUModuleOp getModule() {
    return cast<gpu::GPUModuleOp>(getOperation());
  }
};
} // namespace

static FailureOr<SmallVector<char, 0>>
serializeSPIRVDialect(gpu::GPUModuleOp module, spirv::ModuleOp spirvModule) {
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(spirvModule, words)))
    return module.emitError()
           << "xpu-emit-spirv: cannot serialize the nested spirv.module";
  SmallVector<char, 0> bytes(words.size() * sizeof(uint32_t));
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

FailureOr<SmallVector<char, 0>> mlir::xpu::emitSPIRV(gpu::GPUModuleOp module,
                                                     int optLevel) {
  auto spirvModules = module.getOps<spirv::ModuleOp>();
  size_t numSPIRVModules = llvm::range_size(spirvModules);
  if (numSPIRVModules > 1)
    return module.emitError() << "xpu-emit-spirv: expected at most one "
                                 "spirv.module in the gpu.module, found "
                              << numSPIRVModules;

  FailureOr<SmallVector<char, 0>> spirv;
  if (numSPIRVModules == 1) {
    spirv = serializeSPIRVDialect(module, *spirvModules.begin());
  } else {
    // Anything left outside the LLVM dialect (gpu.func, arith, ...) means the
    // lowering did not run; say so instead of a translation failure.
    Operation *unlowered = nullptr;
    module.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<LLVM::LLVMDialect>(op->getDialect())) {
        unlowered = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unlowered)
      return unlowered->emitError()
             << "xpu-emit-spirv: '" << unlowered->getName()
             << "' is not in the LLVM or SPIR-V dialect; lower the gpu.module "
                "first (e.g. with xpu-codegen-pipeline)";
    LLVMToSPIRVSerializer serializer(module, optLevel);
    std::optional<SmallVector<char, 0>> object = serializer.run();
    if (!object)
      return failure();
    spirv = std::move(*object);
  }
  if (failed(spirv))
    return failure();

  if (llvm::Error error = validateSPIRV(*spirv))
    return module.emitError()
           << "xpu-emit-spirv: the SPIR-V of this module is invalid: "
           << llvm::toString(std::move(error));
  return spirv;
}
