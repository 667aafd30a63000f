//===- CodegenPassOptions.h - The option list as pass options ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Makes pass and pipeline options from CodegenOptions.def: each option's
// name, default, help text and accepted values come from its one line
// there. xpu-codegen-pipeline's options are the whole list; every pass that
// shares some of them declares the part it reads (XPU_*_OPTIONS below), so
// the pipeline hands its options to them without copying them one by one.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_CODEGENPASSOPTIONS_H
#define XPUCODEGEN_PIPELINE_CODEGENPASSOPTIONS_H

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Target/Codegen/CodegenOptions.h"
#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <string>
#include <type_traits>
#include <utility>

namespace mlir::xpu {

/// The spellings every `grf-mode` option accepts: the modes, Triton's
/// `128`/`256`/`512`, and the register counts of a variable register file.
llvm::cl::ValuesClass getGRFModeOptionValues();

/// The accepted spellings of an enum option; nothing for the others.
struct NoOptionValues {
  template <typename Opt> void apply(Opt &) const {}
};

template <typename T> auto getCodegenOptionValues() {
  if constexpr (std::is_same_v<T, GRFMode>)
    return getGRFModeOptionValues();
  else if constexpr (std::is_same_v<T, BackendKind>)
    return llvm::cl::values(
        clEnumValN(BackendKind::Auto, "auto",
                   "Level Zero with a matching Intel GPU, else ocloc"),
        clEnumValN(BackendKind::Ocloc, "ocloc",
                   "IGC through libocloc (no GPU needed)"),
        clEnumValN(BackendKind::LevelZero, "level-zero",
                   "the Level Zero driver's compiler"));
  else if constexpr (std::is_same_v<T, AutoStrategy>)
    return llvm::cl::values(
        clEnumValN(AutoStrategy::Measure, "measure",
                   "build small, and large when small spills"),
        clEnumValN(AutoStrategy::IGC, "igc",
                   "one build with IGC's auto-large-GRF flag"));
  else if constexpr (std::is_same_v<T, SPIRVValidation>)
    return llvm::cl::values(
        clEnumValN(SPIRVValidation::Warn, "warn",
                   "a warning and a report entry; still compiled"),
        clEnumValN(SPIRVValidation::Strict, "strict", "an error at the module"),
        clEnumValN(SPIRVValidation::Off, "off", "not validated"));
  else
    return NoOptionValues{};
}

namespace detail {
/// Collects the spellings of an enum option's values.
template <typename T> struct OptionValueCollector {
  struct Parser {
    llvm::SmallVector<std::pair<llvm::StringRef, T>> values;
    template <typename V>
    void addLiteralOption(llvm::StringRef name, const V &value,
                          llvm::StringRef) {
      values.push_back({name, static_cast<T>(value)});
    }
  };
  Parser parser;
  Parser &getParser() { return parser; }
};
} // namespace detail

/// The value `text` spells, as the option's parser reads it: how a default
/// of the list becomes a C++ value.
template <typename T> T parseCodegenOptionDefault(llvm::StringRef text) {
  if constexpr (std::is_same_v<T, std::string>) {
    return text.str();
  } else if constexpr (std::is_same_v<T, bool>) {
    return text == "true";
  } else if constexpr (std::is_enum_v<T>) {
    detail::OptionValueCollector<T> collector;
    getCodegenOptionValues<T>().apply(collector);
    for (auto &[name, value] : collector.parser.values)
      if (name == text)
        return value;
    llvm_unreachable("a default of CodegenOptions.def is not a value");
  } else {
    T value{};
    if (text.getAsInteger(10, value))
      llvm_unreachable("a default of CodegenOptions.def is not a number");
    return value;
  }
}

/// What the list says of each option, by field, for the declarations below.
namespace codegen_option {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  struct FIELD {                                                               \
    using Type = TYPE;                                                         \
    static constexpr const char *name = NAME;                                  \
    static constexpr const char *defaultValue = DEFAULT;                       \
    static constexpr CodegenOptionRole role = CodegenOptionRole::ROLE;         \
    static constexpr CodegenOptionCheck check = CodegenOptionCheck::CHECK;     \
    static constexpr const char *description = DESC;                           \
  };
#include "XPUCodegen/Target/Codegen/CodegenOptions.def"
} // namespace codegen_option

/// An option of the list, owned by a pass (`Pass::Option`) or by pipeline
/// options (`PassOptions::Option`).
/// `name` is the list's unless the owner spells it its own way.
template <typename Info, typename OptionT, typename Owner>
struct CodegenOption : OptionT {
  explicit CodegenOption(Owner &owner, llvm::StringRef name = Info::name)
      : OptionT(owner, name, llvm::cl::desc(Info::description),
                llvm::cl::init(parseCodegenOptionDefault<typename Info::Type>(
                    Info::defaultValue)),
                getCodegenOptionValues<typename Info::Type>()) {}
  using OptionT::operator=;
};

/// Declares option FIELD of the list as a member of a pass.
#define XPU_DECLARE_PASS_OPTION(FIELD)                                         \
  ::mlir::xpu::CodegenOption<                                                  \
      ::mlir::xpu::codegen_option::FIELD,                                      \
      ::mlir::Pass::Option<::mlir::xpu::codegen_option::FIELD::Type>,          \
      ::mlir::Pass>                                                            \
      FIELD{*this};

/// The same under the pass's own `NAME` (xpu-link-modules' `max-kernels` for
/// the pipeline's `link-max-kernels`); the default and help are the list's.
#define XPU_DECLARE_PASS_OPTION_NAMED(FIELD, NAME)                             \
  ::mlir::xpu::CodegenOption<                                                  \
      ::mlir::xpu::codegen_option::FIELD,                                      \
      ::mlir::Pass::Option<::mlir::xpu::codegen_option::FIELD::Type>,          \
      ::mlir::Pass>                                                            \
      FIELD{*this, NAME};

/// Sets option FIELD from `options` (any holder of the list's options).
#define XPU_COPY_OPTION(FIELD) FIELD = options.FIELD.getValue();

/// Checks option FIELD of `options` (CodegenOptionCheck); returns the error.
#define XPU_CHECK_OPTION(FIELD)                                                \
  if (llvm::Error error = checkCodegenOptionValue(                             \
          codegen_option::FIELD::check, codegen_option::FIELD::name,           \
          options.FIELD.getValue()))                                           \
    return error;

/// The options each pass shares with the pipeline.
// clang-format off
#define XPU_ATTACH_TARGET_OPTIONS(X)                                           \
  X(arch) X(grfMode) X(module) X(flags) X(subgroupSize)
#define XPU_SELECT_GRF_MODE_OPTIONS(X)                                         \
  X(predict) X(speculative) X(predictSmallBelow) X(predictLargeAbove)          \
  X(strictLaunch)
#define XPU_LINK_MODULES_OPTIONS(X)                                            \
  X(linkMaxKernels) X(linkAloneAbove) XPU_LOWER_TO_XEVM_OPTIONS(X)
#define XPU_LOWER_TO_XEVM_OPTIONS(X)                                           \
  X(xegpuOpLevel) X(use64bitIndex)
#define XPU_EMIT_SPIRV_OPTIONS(X)                                              \
  X(optLevel) X(jobs)
#define XPU_EXPORT_XEVM_OBJECTS_OPTIONS(X)                                     \
  X(optLevel)
#define XPU_MODULE_CACHE_OPTIONS(X)                                            \
  X(backend) X(cacheDir) X(cacheUrl) X(compilerRoot)
#define XPU_START_WORKERS_OPTIONS(X)                                           \
  X(backend) X(cacheDir) X(cacheUrl) X(compilerRoot) X(jobs) X(timeoutMs)      \
  X(memoryLimitMiB)
#define XPU_NATIVE_CODEGEN_OPTIONS(X)                                          \
  X(backend) X(spillThreshold) X(autoStrategy) X(cacheDir) X(cacheUrl)         \
  X(compilerRoot) X(jobs) X(report) X(remarks) X(validateSPIRV) X(grfMode)     \
  X(verifyPredictedLarge) X(verifyDeterminism) X(timeoutMs)                    \
  X(memoryLimitMiB) X(maxWorkGroupSize) X(strictLaunch) X(nRegsDefault)       \
  X(cacheMaxSize)
// clang-format on

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_CODEGENPASSOPTIONS_H
