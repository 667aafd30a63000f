//===- CodegenOptions.cpp - What the option list says of each option ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"

#include "XPUCodegen/Compiler/Cache/SharedCache.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;
using namespace mlir::xpu;

/// A choice of enum value `value`.
template <typename T>
static constexpr CodegenOptionChoice choice(StringRef name, T value,
                                            StringRef description) {
  return {name, static_cast<unsigned>(value), description};
}

// Every pass and pipeline option named `grf-mode` accepts these: the modes,
// Triton's register counts, and the counts of a variable register file.
template <>
ArrayRef<CodegenOptionChoice> mlir::xpu::getCodegenOptionChoices<GRFMode>() {
  static constexpr CodegenOptionChoice kChoices[] = {
      choice("auto", GRFMode::Auto, "decided from measured builds"),
      choice("small", GRFMode::Small, "128 registers per thread"),
      choice("large", GRFMode::Large, "256 registers per thread"),
      choice("default", GRFMode::Default, "no GRF flag (device default)"),
      choice("xlarge", GRFMode::XLarge, "512 registers per thread (cri)"),
      choice("128", GRFMode::Small, "small"),
      choice("256", GRFMode::Large, "large"),
      choice("512", GRFMode::XLarge, "xlarge"),
      choice("32", GRFMode::Regs32, "32 registers per thread (Xe3, Xe3P)"),
      choice("64", GRFMode::Regs64, "64 registers per thread (Xe3, Xe3P)"),
      choice("96", GRFMode::Regs96, "96 registers per thread (Xe3, Xe3P)"),
      choice("160", GRFMode::Regs160, "160 registers per thread (Xe3, Xe3P)"),
      choice("192", GRFMode::Regs192, "192 registers per thread (Xe3, Xe3P)"),
  };
  return kChoices;
}

template <>
ArrayRef<CodegenOptionChoice>
mlir::xpu::getCodegenOptionChoices<BackendKind>() {
  static constexpr CodegenOptionChoice kChoices[] = {
      choice("auto", BackendKind::Auto,
             "Level Zero with a matching Intel GPU, else ocloc"),
      choice("ocloc", BackendKind::Ocloc,
             "IGC through libocloc (no GPU needed)"),
      choice("level-zero", BackendKind::LevelZero,
             "the Level Zero driver's compiler"),
  };
  return kChoices;
}

template <>
ArrayRef<CodegenOptionChoice>
mlir::xpu::getCodegenOptionChoices<AutoStrategy>() {
  static constexpr CodegenOptionChoice kChoices[] = {
      choice("measure", AutoStrategy::Measure,
             "build small, and large when small spills"),
      choice("igc", AutoStrategy::IGC,
             "one build with IGC's auto-large-GRF flag"),
  };
  return kChoices;
}

template <>
ArrayRef<CodegenOptionChoice>
mlir::xpu::getCodegenOptionChoices<SPIRVValidation>() {
  static constexpr CodegenOptionChoice kChoices[] = {
      choice("warn", SPIRVValidation::Warn,
             "a warning and a report entry; still compiled"),
      choice("strict", SPIRVValidation::Strict, "an error at the module"),
      choice("off", SPIRVValidation::Off, "not validated"),
  };
  return kChoices;
}

CodegenOptionBounds
mlir::xpu::narrowCodegenOptionBounds(CodegenOptionCheck check,
                                     CodegenOptionBounds bounds) {
  switch (check) {
  case CodegenOptionCheck::NonNegativeBytes:
    return {0, bounds.maximum};
  case CodegenOptionCheck::ZeroOr128:
    return {0, 128};
  case CodegenOptionCheck::TimeLimit:
    return {0, kMaxTimeoutMs};
  case CodegenOptionCheck::MemoryLimit:
    return {0, kMaxMemoryMiB};
  case CodegenOptionCheck::JobCount:
    return {0, kMaxJobs};
  case CodegenOptionCheck::LinkedKernels:
    return {2, bounds.maximum};
  case CodegenOptionCheck::OptLevel:
    return {0, 3};
  default:
    return bounds;
  }
}

static const CodegenOptionInfo kOptions[] = {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  {NAME,                                                                       \
   getCodegenOptionKind<TYPE>(),                                               \
   DEFAULT,                                                                    \
   CodegenOptionRole::ROLE,                                                    \
   CodegenOptionCheck::CHECK,                                                  \
   DESC,                                                                       \
   getCodegenOptionChoices<TYPE>(),                                            \
   getCodegenOptionBounds<TYPE>(CodegenOptionCheck::CHECK).minimum,            \
   getCodegenOptionBounds<TYPE>(CodegenOptionCheck::CHECK).maximum},
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
};

raw_ostream &mlir::xpu::operator<<(raw_ostream &os, const URLOptionText &url) {
  return os << removeURLPassword(url);
}

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

ArrayRef<int64_t>
mlir::xpu::getCodegenOptionCheckValues(CodegenOptionCheck check) {
  static constexpr int64_t kZeroOr128[] = {0, 128};
  if (check == CodegenOptionCheck::ZeroOr128)
    return kZeroOr128;
  return {};
}

ArrayRef<StringRef>
mlir::xpu::getCodegenOptionCheckWords(CodegenOptionCheck check) {
  static constexpr StringRef kXeGPUOpLevels[] = {"workgroup", "subgroup",
                                                 "lane"};
  if (check == CodegenOptionCheck::XeGPUOpLevel)
    return kXeGPUOpLevels;
  return {};
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error mlir::xpu::checkPredictionBand(uint64_t smallBelowPercent,
                                     uint64_t largeAbovePercent) {
  if (smallBelowPercent <= largeAbovePercent)
    return Error::success();
  return makeError("predict-small-below (" + Twine(smallBelowPercent) +
                   ") must not exceed predict-large-above (" +
                   Twine(largeAbovePercent) + ")");
}

Error mlir::xpu::checkCodegenOption(CodegenOptionCheck check,
                                    StringRef spelling, int64_t value) {
  switch (check) {
  case CodegenOptionCheck::NonNegativeBytes:
    if (value < 0)
      return makeError(spelling + " must be >= 0 bytes, got " + Twine(value));
    return Error::success();
  case CodegenOptionCheck::ZeroOr128: {
    ArrayRef<int64_t> values = getCodegenOptionCheckValues(check);
    if (llvm::is_contained(values, value))
      return Error::success();
    std::string valid = llvm::join(
        llvm::map_range(
            values, [](int64_t allowed) { return std::to_string(allowed); }),
        " or ");
    return makeError(spelling + " must be " + valid + ", got " + Twine(value));
  }
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
  case CodegenOptionCheck::JobCount:
    if (value > kMaxJobs)
      return makeError(spelling + " must be at most " + Twine(kMaxJobs) +
                       ", got " + Twine(value));
    return Error::success();
  case CodegenOptionCheck::LinkedKernels:
    if (value < 2)
      return makeError(spelling + " must be at least 2, got " + Twine(value));
    return Error::success();
  case CodegenOptionCheck::OptLevel:
    if (value > 3)
      return makeError(spelling + " must be 0 to 3, got " + Twine(value));
    return Error::success();
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
    // an error, only a bad URL. The keys and secrets are the other
    // options' (checkSharedCacheOptions).
    if (Expected<std::optional<SharedCacheConfig>> shared =
            resolveSharedCacheLocation(value);
        !shared)
      return shared.takeError();
    return Error::success();
  case CodegenOptionCheck::XeGPUOpLevel: {
    ArrayRef<StringRef> words = getCodegenOptionCheckWords(check);
    if (llvm::is_contained(words, value))
      return Error::success();
    return makeError(spelling + " must be one of " + llvm::join(words, ", ") +
                     ", got '" + value + "'");
  }
  default:
    return Error::success();
  }
}
