//===- CodegenOptions.h - What the option list says of each option C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The compile options as data, from CodegenOptions.def: their names,
// defaults, roles, checks and accepted values, for every front end (the
// passes and the pipeline, the Python package, the CLI). No MLIR: the
// Python extension that compiles SPIR-V links none.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONS_H
#define XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONS_H

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::xpu {

enum class AutoStrategy : uint8_t;
enum class BackendKind : uint8_t;
enum class SPIRVValidation;

/// The text of an option that is a URL with a password perhaps
/// (`cache-url`): used as given, printed without the password (pipelines
/// that --dump-pass-pipeline or a crash reproducer print), so that a
/// printed pipeline run again takes it from the password file or the
/// environment.
struct URLOptionText : std::string {
  URLOptionText() = default;
  URLOptionText(std::string text) : std::string(std::move(text)) {}
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const URLOptionText &url);

/// What an option says about a module's output.
enum class CodegenOptionRole : uint8_t {
  /// Decides what a module compiles to: part of the module cache's key.
  Keyed,
  /// Where inputs and results are (the compiler's identity, not its place,
  /// is in the key).
  Location,
  /// How fast results come.
  Speed,
};

/// The most compiler workers (or emitters) a run may ask for: each is a
/// process of ~150 MB, and far more than any machine's cores only exhausts
/// the process table.
inline constexpr uint64_t kMaxJobs = 1024;

/// The one check between two options: auto's prediction band
/// (predict-small-below .. predict-large-above) must not be inverted, or
/// a module would be predicted both small and large.
llvm::Error checkPredictionBand(uint64_t smallBelowPercent,
                                uint64_t largeAbovePercent);

/// The value check an option needs beyond its parser.
enum class CodegenOptionCheck : uint8_t {
  None,
  NonNegativeBytes,
  ZeroOr128,
  TimeLimit,
  MemoryLimit,
  JobCount,
  CacheMaxSize,
  CacheURL,
  /// A linked module's most kernels: at least 2.
  LinkedKernels,
  /// An LLVM optimization level: 0 to 3.
  OptLevel,
  /// One of the XeGPU op levels (getCodegenOptionCheckWords).
  XeGPUOpLevel,
};

/// How a front end that is not C++ takes the value.
enum class CodegenOptionKind : uint8_t { Text, Integer, Flag, Choice };

/// One spelling a choice option accepts.
struct CodegenOptionChoice {
  llvm::StringRef name;
  /// The enum value it spells.
  unsigned value;
  llvm::StringRef description;
};

/// The spellings an option of enum type `T` accepts, in the order help and
/// messages list them; none for the other types.
template <typename T>
llvm::ArrayRef<CodegenOptionChoice> getCodegenOptionChoices() {
  return {};
}
template <>
llvm::ArrayRef<CodegenOptionChoice> getCodegenOptionChoices<GRFMode>();
template <>
llvm::ArrayRef<CodegenOptionChoice> getCodegenOptionChoices<BackendKind>();
template <>
llvm::ArrayRef<CodegenOptionChoice> getCodegenOptionChoices<AutoStrategy>();
template <>
llvm::ArrayRef<CodegenOptionChoice> getCodegenOptionChoices<SPIRVValidation>();

/// One line of CodegenOptions.def.
struct CodegenOptionInfo {
  llvm::StringRef name;
  CodegenOptionKind kind;
  llvm::StringRef defaultValue;
  CodegenOptionRole role;
  CodegenOptionCheck check;
  llvm::StringRef description;
  /// A choice option's spellings.
  llvm::ArrayRef<CodegenOptionChoice> choices;
  /// An integer option's least and greatest value: its type's range,
  /// narrowed by its check (getCodegenOptionBounds).
  int64_t minimum = 0;
  uint64_t maximum = 0;
};

/// The least and greatest value of an option of integer type `T` whose
/// check is `check`: what every front end accepts (a value between them may
/// still fail the check, e.g. ZeroOr128's).
struct CodegenOptionBounds {
  int64_t minimum;
  uint64_t maximum;
};
CodegenOptionBounds narrowCodegenOptionBounds(CodegenOptionCheck check,
                                              CodegenOptionBounds bounds);
template <typename T>
CodegenOptionBounds getCodegenOptionBounds(CodegenOptionCheck check) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return narrowCodegenOptionBounds(check,
                                     {int64_t(std::numeric_limits<T>::min()),
                                      uint64_t(std::numeric_limits<T>::max())});
  else
    return {0, 0};
}

/// Every option, in the order of CodegenOptions.def.
llvm::ArrayRef<CodegenOptionInfo> getCodegenOptionInfos();

/// The option called `name`; nullptr when there is none.
const CodegenOptionInfo *lookupCodegenOption(llvm::StringRef name);

/// The kind of an option of C++ type `T`.
template <typename T> constexpr CodegenOptionKind getCodegenOptionKind() {
  if constexpr (std::is_same_v<T, bool>)
    return CodegenOptionKind::Flag;
  else if constexpr (std::is_enum_v<T>)
    return CodegenOptionKind::Choice;
  else if constexpr (std::is_integral_v<T>)
    return CodegenOptionKind::Integer;
  else
    return CodegenOptionKind::Text;
}

/// The value of type `T` that `text` spells, as the option's parser reads
/// it; nullopt when it spells none.
template <typename T>
std::optional<T> parseCodegenOptionValue(llvm::StringRef text) {
  if constexpr (std::is_base_of_v<std::string, T>) {
    return T(text.str());
  } else if constexpr (std::is_same_v<T, bool>) {
    if (text != "true" && text != "false")
      return std::nullopt;
    return text == "true";
  } else if constexpr (std::is_enum_v<T>) {
    for (const CodegenOptionChoice &choice : getCodegenOptionChoices<T>())
      if (choice.name == text)
        return static_cast<T>(choice.value);
    return std::nullopt;
  } else {
    T value{};
    if (text.getAsInteger(10, value))
      return std::nullopt;
    return value;
  }
}

/// A default of CodegenOptions.def (`DEFAULT`) as a value of its type.
template <typename T> T getCodegenOptionDefault(llvm::StringRef text) {
  std::optional<T> value = parseCodegenOptionValue<T>(text);
  assert(value && "a default of CodegenOptions.def is not a value");
  return *value;
}

/// The only values an integer check accepts, when it accepts a few
/// (ZeroOr128: 0 and 128); none otherwise.
llvm::ArrayRef<int64_t> getCodegenOptionCheckValues(CodegenOptionCheck check);

/// The only words a text check accepts (XeGPUOpLevel: workgroup, subgroup,
/// lane); none otherwise.
llvm::ArrayRef<llvm::StringRef>
getCodegenOptionCheckWords(CodegenOptionCheck check);

/// Checks `value` of the option that the front end spells `spelling`
/// (`n-regs-default` in pass options, `n_regs_default` in Python): one
/// message per mistake, the same in every front end.
llvm::Error checkCodegenOption(CodegenOptionCheck check,
                               llvm::StringRef spelling, int64_t value);
llvm::Error checkCodegenOption(CodegenOptionCheck check,
                               llvm::StringRef spelling, uint64_t value);
llvm::Error checkCodegenOption(CodegenOptionCheck check,
                               llvm::StringRef spelling, llvm::StringRef value);

/// The same for a value of any option type: flags and choices, which their
/// parsers already check, have no further check.
template <typename T>
llvm::Error checkCodegenOptionValue(CodegenOptionCheck check,
                                    llvm::StringRef spelling, const T &value) {
  if constexpr (std::is_same_v<T, bool> || std::is_enum_v<T>)
    return llvm::Error::success();
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return checkCodegenOption(check, spelling, int64_t(value));
  else if constexpr (std::is_integral_v<T>)
    return checkCodegenOption(check, spelling, uint64_t(value));
  else
    return checkCodegenOption(check, spelling, llvm::StringRef(value));
}

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONS_H
