//===- CodegenOptions.cpp - What the option list says of each option ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/CodegenOptions.h"

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"
#include "XPUCodegen/Target/Cache/SharedCache.h"
#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Target/Worker/WorkerPool.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace llvm;
using namespace mlir::xpu;

static const CodegenOptionInfo kOptions[] = {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  {NAME,                                                                       \
   getCodegenOptionKind<TYPE>(),                                               \
   DEFAULT,                                                                    \
   CodegenOptionRole::ROLE,                                                    \
   CodegenOptionCheck::CHECK,                                                  \
   DESC},
#include "XPUCodegen/Target/Codegen/CodegenOptions.def"
};

ArrayRef<CodegenOptionInfo> mlir::xpu::getCodegenOptionInfos() {
  return kOptions;
}

const CodegenOptionInfo *mlir::xpu::lookupCodegenOption(StringRef name) {
  const CodegenOptionInfo *found =
      llvm::find_if(kOptions, [&](const CodegenOptionInfo &info) {
        return info.name == name;
      });
  return found == std::end(kOptions) ? nullptr : found;
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error mlir::xpu::checkCodegenOption(CodegenOptionCheck check,
                                    StringRef spelling, int64_t value) {
  switch (check) {
  case CodegenOptionCheck::NonNegativeBytes:
    if (value < 0)
      return makeError(spelling + " must be >= 0 bytes, got " + Twine(value));
    return Error::success();
  case CodegenOptionCheck::ZeroOr128:
    if (value != 0 && value != 128)
      return makeError(spelling + " must be 0 or 128, got " + Twine(value));
    return Error::success();
  default:
    return Error::success();
  }
}

Error mlir::xpu::checkCodegenOption(CodegenOptionCheck check,
                                    StringRef spelling, uint64_t value) {
  switch (check) {
  case CodegenOptionCheck::TimeLimit:
    return checkWorkerLimits(
        WorkerLimits{/*memoryMiB=*/0, /*timeoutMs=*/value});
  case CodegenOptionCheck::MemoryLimit:
    return checkWorkerLimits(
        WorkerLimits{/*memoryMiB=*/value, /*timeoutMs=*/0});
  default:
    return checkCodegenOption(check, spelling,
                              int64_t(std::min<uint64_t>(value, INT64_MAX)));
  }
}

Error mlir::xpu::checkCodegenOption(CodegenOptionCheck check,
                                    StringRef spelling, StringRef value) {
  switch (check) {
  case CodegenOptionCheck::CacheMaxSize:
    if (Expected<uint64_t> size = parseCacheMaxSize(value); !size)
      return size.takeError();
    return Error::success();
  case CodegenOptionCheck::CacheURL:
    // The URL, or $XPU_CODEGEN_CACHE_URL when empty; a bad server is never
    // an error, only a bad URL.
    if (Expected<std::optional<SharedCacheConfig>> shared =
            resolveSharedCache(value);
        !shared)
      return shared.takeError();
    return Error::success();
  default:
    return Error::success();
  }
}
