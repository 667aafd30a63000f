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

#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/Pass/Pass.h"

#include <type_traits>

/// `cache-url` (URLOptionText): read as a string, printed without its
/// password.
template <>
class llvm::cl::parser<mlir::xpu::URLOptionText>
    : public basic_parser<mlir::xpu::URLOptionText> {
public:
  parser(Option &option) : basic_parser(option) {}

  bool parse(Option &, StringRef, StringRef arg,
             mlir::xpu::URLOptionText &value) {
    value = arg.str();
    return false;
  }

  StringRef getValueName() const override { return "url"; }

  void printOptionDiff(const Option &option,
                       const mlir::xpu::URLOptionText &value,
                       const OptVal &defaultValue, size_t globalWidth) const {
    printOptionName(option, globalWidth);
    outs() << "= " << value << " (default: ";
    if (defaultValue.hasValue())
      outs() << defaultValue.getValue();
    outs() << ")\n";
  }
};

namespace mlir::xpu {

/// The accepted spellings of an option of type `T` (getCodegenOptionChoices:
/// an enum's), as an option modifier.
template <typename T> struct CodegenOptionValues {
  template <typename Opt> void apply(Opt &option) const {
    if constexpr (std::is_enum_v<T>)
      for (const CodegenOptionChoice &choice : getCodegenOptionChoices<T>())
        option.getParser().addLiteralOption(
            choice.name, static_cast<T>(choice.value), choice.description);
  }
};

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
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
} // namespace codegen_option

/// An option of the list, owned by a pass (`Pass::Option`) or by pipeline
/// options (`PassOptions::Option`).
/// `name` is the list's unless the owner spells it its own way.
template <typename Info, typename OptionT, typename Owner>
struct CodegenOption : OptionT {
  explicit CodegenOption(Owner &owner, llvm::StringRef name = Info::name)
      : OptionT(owner, name, llvm::cl::desc(Info::description),
                llvm::cl::init(getCodegenOptionDefault<typename Info::Type>(
                    Info::defaultValue)),
                CodegenOptionValues<typename Info::Type>()) {}
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

/// Checks the options of list LIST (XPU_*_OPTIONS) that pass `PASS` holds,
/// as the pipeline checks them; emits the first mistake at the pass's
/// operation and fails the pass. For a pass run alone.
#define XPU_CHECK_PASS_OPTIONS(LIST, PASS)                                     \
  if (llvm::Error error = [&, &options = *this]() -> llvm::Error {             \
        LIST(XPU_CHECK_OPTION)                                                 \
        return llvm::Error::success();                                         \
      }()) {                                                                   \
    mlir::emitError(getOperation()->getLoc())                                  \
        << PASS ": " << llvm::toString(std::move(error));                      \
    return signalPassFailure();                                                \
  }

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
  XPU_CACHE_SECURITY_OPTIONS(X)                                                \
  X(backend) X(cacheDir) X(cacheUrl) X(compilerRoot)
#define XPU_START_WORKERS_OPTIONS(X)                                           \
  XPU_CACHE_SECURITY_OPTIONS(X)                                                \
  X(backend) X(cacheDir) X(cacheUrl) X(compilerRoot) X(jobs) X(timeoutMs)      \
  X(memoryLimitMiB)
#define XPU_NATIVE_CODEGEN_OPTIONS(X)                                          \
  XPU_CACHE_SECURITY_OPTIONS(X)                                                \
  X(backend) X(spillThreshold) X(autoStrategy) X(cacheDir) X(cacheUrl)         \
  X(compilerRoot) X(jobs) X(report) X(remarks) X(validateSPIRV) X(grfMode)     \
  X(verifyPredictedLarge) X(verifyDeterminism) X(timeoutMs)                    \
  X(memoryLimitMiB) X(maxWorkGroupSize) X(strictLaunch) X(nRegsDefault)       \
  X(cacheMaxSize)
// clang-format on

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_CODEGENPASSOPTIONS_H
