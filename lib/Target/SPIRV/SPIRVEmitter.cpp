//===- SPIRVEmitter.cpp - gpu.module to SPIR-V ----------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
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
  /// Emits SPIR-V with LLVM's `llc` in a child process. LLVM 22's SPIR-V
  /// backend keeps module analysis state in a static
  /// (llvm/llvm-project#160613): a second module emitted in the same process
  /// can reuse stale ids and come out invalid ("Id 2 is defined more than
  /// once"). A child per module is immune, and a backend crash cannot take
  /// the host down either.
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    LLVM_DEBUG(llvm::dbgs() << "LLVM IR for " << getModule().getName() << ":\n"
                            << llvmModule << "\n");
    llvm::ErrorOr<std::string> llc = findLLC();
    if (!llc)
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: cannot find LLVM's llc (set XPU_CODEGEN_LLC)";

    llvm::SmallString<128> bitcodePath, spirvPath, logPath;
    for (auto [path, suffix] :
         {std::pair(&bitcodePath, "bc"), std::pair(&spirvPath, "spv"),
          std::pair(&logPath, "log")})
      if (std::error_code error = llvm::sys::fs::createTemporaryFile(
              "xpu-emit-spirv", suffix, *path))
        return mlir::emitError(getModule().getLoc())
               << "xpu-emit-spirv: cannot create a temporary file: "
               << error.message();
    llvm::FileRemover removeBitcode(bitcodePath), removeSPIRV(spirvPath),
        removeLog(logPath);
    {
      std::error_code error;
      llvm::raw_fd_ostream bitcode(bitcodePath, error);
      if (error)
        return mlir::emitError(getModule().getLoc())
               << "xpu-emit-spirv: cannot write bitcode: " << error.message();
      llvm::WriteBitcodeToFile(llvmModule, bitcode);
    }

    std::string optimization =
        "-O" + std::to_string(std::clamp(optLevel, 0, 3));
    llvm::SmallVector<llvm::StringRef> args = {
        *llc,         "-mtriple=spirv64-unknown-unknown",
        optimization, "-filetype=obj",
        bitcodePath,  "-o",
        spirvPath};
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath,
                                                  logPath};
    LLVM_DEBUG(llvm::interleave(args, llvm::dbgs(), " "));
    std::string message;
    // A hung llc must not hang the host: killed after the time limit
    // (default 300 s; $XPU_CODEGEN_LLC_TIMEOUT_S overrides it).
    unsigned seconds = 300;
    if (std::optional<std::string> env =
            llvm::sys::Process::GetEnv("XPU_CODEGEN_LLC_TIMEOUT_S"))
      (void)llvm::StringRef(*env).getAsInteger(10, seconds);
    int rc = llvm::sys::ExecuteAndWait(*llc, args, std::nullopt, redirects,
                                       /*SecondsToWait=*/std::max(seconds, 1u),
                                       /*MemoryLimit=*/0, &message);
    if (rc != 0) {
      auto log = llvm::MemoryBuffer::getFile(logPath);
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: LLVM's SPIR-V backend failed (" << rc
             << (message.empty() ? "" : ": ") << message << ")"
             << (log ? ":\n" + (*log)->getBuffer().str() : std::string());
    }
    auto spirv = llvm::MemoryBuffer::getFile(spirvPath);
    if (!spirv)
      return mlir::emitError(getModule().getLoc())
             << "xpu-emit-spirv: cannot read the SPIR-V: "
             << spirv.getError().message();
    llvm::StringRef bytes = (*spirv)->getBuffer();
    return SmallVector<char, 0>(bytes.begin(), bytes.end());
  }

  static llvm::ErrorOr<std::string> findLLC() {
    if (std::optional<std::string> path =
            llvm::sys::Process::GetEnv("XPU_CODEGEN_LLC"))
      return *path;
    return llvm::sys::findProgramByName("llc", {XPU_LLVM_TOOLS_DIR});
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
