//===- PassWork.h - The operations each pass visits -------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Counts the operations the project's passes visit (walked, iterated, or
// scanned by a symbol lookup or a symbol table build) so that a test can
// check that each pass's work grows linearly with the program without
// timing anything. LLVM's own statistics (Pass::Statistic) are compiled out
// of release builds of LLVM, Debian's included.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_PASSWORK_H
#define XPUCODEGEN_PIPELINE_PASSWORK_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"

#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class PassManager;
namespace xpu {

/// Adds `count` visited operations to the running pass's work. Costs one
/// relaxed load unless counting is on (xpu-opt --xpu-count-work).
void countVisitedOps(uint64_t count = 1);

/// Counts the operations directly in `table`'s body, which a SymbolTable
/// built on it or a lookup without one scans.
void countSymbolScan(Operation *table);

/// SymbolTable::lookupSymbolIn, counted as the scan it is.
Operation *lookupSymbolCounted(Operation *table, StringAttr name);

/// Walks every operation under `root` (post-order), counting each, and calls
/// `callback` on those of type OpT.
template <typename OpT, typename Callback>
void walkCounted(Operation *root, Callback &&callback) {
  root->walk([&](Operation *op) {
    countVisitedOps();
    if (auto typed = dyn_cast<OpT>(op))
      callback(typed);
  });
}

/// Turns counting on and prints, after each top-level pass of `pm`, the
/// line "xpu-pass-work: <pass argument> <operations visited>" to `os`.
void addPassWorkCounting(PassManager &pm, llvm::raw_ostream &os);

} // namespace xpu
} // namespace mlir

#endif // XPUCODEGEN_PIPELINE_PASSWORK_H
