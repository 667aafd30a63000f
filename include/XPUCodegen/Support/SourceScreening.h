//===- SourceScreening.h - Refuse MLIR text upstream code cannot take -----===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Upstream MLIR's parser, printer, verifiers and passes recurse once per
// nesting level of brackets, affine operators and attribute aliases, and
// upstream XeGPU verifiers divide by layout fields that they never check.
// Text that would crash them (a stack overflow, SIGFPE) is refused here,
// before the parser sees it, with the line and column that caused it.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_SOURCESCREENING_H
#define XPUCODEGEN_SUPPORT_SOURCESCREENING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::xpu {

/// The deepest nesting accepted: brackets, plus the affine operators of the
/// open brackets, plus what the aliases used there nest. Every tool parses
/// and runs its passes on a stack of kScreenedStackBytes, which takes this
/// many levels through parser, verifier, printer and the codegen pipeline.
inline constexpr unsigned kMaxSourceNesting = 2048;

/// The stack that the tools give the thread that parses, verifies, runs
/// passes and prints (reserved address space; only what is used is
/// committed).
inline constexpr unsigned kScreenedStackBytes = 512u << 20;

/// Why a text is refused, at a 1-based line and column.
struct SourceRefusal {
  unsigned line;
  unsigned column;
  std::string message;
};

/// The first thing in `text` that upstream code cannot take, if any:
/// nesting deeper than kMaxSourceNesting, or an `#xegpu.layout` whose
/// sg_layout, sg_data, inst_data, lane_layout or lane_data holds a value
/// below 1 or whose order is not a permutation. String literals and
/// comments do not count. Bytecode is not screened.
std::optional<SourceRefusal> screenSource(llvm::StringRef text);

} // namespace mlir::xpu

#endif // XPUCODEGEN_SUPPORT_SOURCESCREENING_H
