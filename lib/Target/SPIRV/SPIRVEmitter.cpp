//===- SPIRVEmitter.cpp - gpu.module to SPIR-V ----------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Compiler/Worker/BuildLog.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#define DEBUG_TYPE "xpu-emit-spirv"

using namespace mlir;
using namespace mlir::xpu;

llvm::Expected<WorkerPool &> mlir::xpu::getSPIRVEmitterPool() {
  // A hung backend must not hang the host: each module gets
  // $XPU_CODEGEN_LLC_TIMEOUT_S seconds (default 300; 0: no limit).
  uint64_t seconds = kDefaultSPIRVEmitTimeoutS;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("XPU_CODEGEN_LLC_TIMEOUT_S"))
    (void)llvm::StringRef(*env).getAsInteger(10, seconds);
  WorkerLimits limits;
  // No address-space limit, as for the llc child before: the backend's
  // memory is bounded by retiring emitters (kSPIRVEmitterModulesPerProcess).
  limits.memoryMiB = 0;
  limits.timeoutMs = std::min(seconds, kMaxTimeoutMs / 1000) * 1000;
  // Emitters start on demand, one per concurrent emission at most.
  return WorkerPool::getShared(/*maxWorkers=*/0, limits,
                               WorkerProgram::SPIRVEmitter,
                               kSPIRVEmitterModulesPerProcess);
}

namespace {
/// LLVM dialect -> LLVM IR -> SPIR-V through LLVM's SPIR-V backend. The base
/// class owns translation, linking and optimization; this class only emits.
class LLVMToSPIRVSerializer : public LLVM::ModuleToObject {
public:
  LLVMToSPIRVSerializer(gpu::GPUModuleOp module, int optLevel)
      : ModuleToObject(*module, "spirv64-unknown-unknown", /*chip=*/"",
                       /*features=*/"", optLevel) {
    // The optimizer asks for the target machine before emission.
    static llvm::once_flag initializeBackendOnce;
    llvm::call_once(initializeBackendOnce, [] {
      LLVMInitializeSPIRVTargetInfo();
      LLVMInitializeSPIRVTarget();
      LLVMInitializeSPIRVTargetMC();
      LLVMInitializeSPIRVAsmPrinter();
    });
  }

protected:
  /// Emits SPIR-V with LLVM's SPIR-V backend in xpu-spirv-emitter, a
  /// persistent process that takes many modules (see
  /// tools/xpu-spirv-emitter for why not in this process: LLVM 22's backend
  /// keeps module state in a static, llvm/llvm-project#160613). A hung or
  /// crashing backend costs this module only: the emitter is killed after
  /// the time limit and replaced.
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    LLVM_DEBUG(llvm::dbgs() << "LLVM IR for " << getModule().getName() << ":\n"
                            << llvmModule << "\n");
    WorkerRequest request;
    request.backend = WorkerBackend::LLVMSPIRV;
    request.device = llvmModule.getTargetTriple().str();
    request.options = "-O" + std::to_string(std::clamp(optLevel, 0, 3));
    {
      llvm::raw_svector_ostream os(bitcode);
      llvm::WriteBitcodeToFile(llvmModule, os);
    }
    request.spirv.assign(bitcode.begin(), bitcode.end());
    bitcode.clear();

    llvm::Expected<WorkerPool &> pool = getSPIRVEmitterPool();
    if (!pool)
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: " << llvm::toString(pool.takeError());
    llvm::Expected<WorkerResponse> response = pool->run(request);
    if (!response)
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: LLVM's SPIR-V backend failed ("
             << llvm::toString(response.takeError()) << ")";
    if (!response->succeeded)
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: LLVM's SPIR-V backend failed:\n"
             << boundBuildLog(response->log);
    return SmallVector<char, 0>(response->binary.begin(),
                                response->binary.end());
  }

private:
  gpu::GPUModuleOp getModule() {
    return cast<gpu::GPUModuleOp>(getOperation());
  }

  SmallVector<char, 0> bitcode;
};
} // namespace

static FailureOr<SmallVector<char, 0>>
serializeSPIRVDialect(gpu::GPUModuleOp module, spirv::ModuleOp spirvModule) {
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(spirvModule, words)))
    return mlir::emitError(module.getLoc())
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
    return mlir::emitError(module.getLoc())
           << "xpu-emit-spirv: expected at most one "
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
      if (!isa_and_present<LLVM::LLVMDialect, xevm::XeVMDialect>(
              op->getDialect())) {
        unlowered = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unlowered)
      return unlowered->emitError()
             << "xpu-emit-spirv: '" << unlowered->getName()
             << "' is not in the LLVM, XeVM or SPIR-V dialect; lower the "
                "gpu.module first (xpu-lower-to-xevm lowers what upstream's "
                "gpu-lower-to-xevm-pipeline lowers)";
    LLVMToSPIRVSerializer serializer(module, optLevel);
    std::optional<SmallVector<char, 0>> object = serializer.run();
    if (!object)
      return failure();
    spirv = std::move(*object);
  }
  return spirv;
}

LogicalResult mlir::xpu::checkSPIRV(Operation *op, ArrayRef<char> spirv,
                                    SPIRVValidation mode, StringRef pass) {
  if (mode == SPIRVValidation::Off)
    return success();
  llvm::Error error = validateSPIRV(spirv);
  if (!error)
    return success();
  std::string message = llvm::toString(std::move(error));
  if (mode == SPIRVValidation::Strict)
    return mlir::emitError(op->getLoc())
           << pass << ": SPIRV-Tools rejects the SPIR-V of "
           << "this module: " << message;
  mlir::emitWarning(op->getLoc())
      << pass << ": SPIRV-Tools rejects the SPIR-V of this "
      << "module (IGC may still accept it; it is compiled in an "
         "isolated worker; validate-spirv=strict makes this an "
         "error): "
      << message;
  return success();
}
