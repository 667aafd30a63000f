//===- ResultMessages.h - What a compile result says to its user -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A compile result's warnings, remarks and failures, worded once: the pass
// (xpu-native-codegen), the Python package's SPIR-V path and the GPU target
// attribute each only add where a message is said (a location, a file name)
// and their own prefix.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_RESULTMESSAGES_H
#define XPUCODEGEN_COMPILER_CODEGEN_RESULTMESSAGES_H

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"

#include <string>
#include <vector>

namespace mlir::xpu {

/// Messages quote a compiler's message; a runaway one (megabytes of build
/// log) is cut to an excerpt of 4 KB, and the report keeps it whole.
std::string getExcerpt(llvm::StringRef message);

/// Why module `name` failed for `arch` (a part of the linked module
/// `linkedInto`, when that is not empty): the excerpt of `message`.
std::string getFailureMessage(llvm::StringRef name, llvm::StringRef arch,
                              llvm::StringRef message,
                              llvm::StringRef linkedInto = {});

/// Why no module could be compiled: the native compiler did not start.
std::string getStartFailureMessage(llvm::StringRef why);

/// One thing a result says.
struct ResultMessage {
  enum class Kind { Warning, Remark };
  Kind kind = Kind::Warning;
  /// The kernel it is about, as the build names it; empty for the module.
  std::string kernel;
  /// The words around the kernel's name (all in `before` for the module).
  std::string before, after;

  /// The message, about the kernel named `name` (the user's name for it,
  /// which linking or deduplication may have changed; default: `kernel`).
  std::string getText(llvm::StringRef name = {}) const {
    if (kernel.empty())
      return before;
    return before + (name.empty() ? kernel : name.str()) + after;
  }
};

/// What `result` (compiled under the requested GRF mode `policy`) says, in
/// order: SPIRV-Tools' rejection of SPIR-V compiled anyway, each launch
/// warning, the decision (a remark, only with `remarks`), and, when the
/// user forced a mode that spills, one warning per spilling kernel.
std::vector<ResultMessage> getResultMessages(const ModuleCompileResult &result,
                                             GRFMode policy, bool remarks);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_RESULTMESSAGES_H
