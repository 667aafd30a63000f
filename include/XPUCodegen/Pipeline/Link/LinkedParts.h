//===- LinkedParts.h - The parts of a linked gpu.module ---------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// xpu-link-modules merges modules into one and records its parts in
// `xpu.linked`. A later stage that cannot finish the linked module as a
// whole (emission fails, a part needs a build of its own) works on one part
// at a time; these helpers take a part back out, so that what fails stays
// that original module's failure.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_LINK_LINKEDPARTS_H
#define XPUCODEGEN_PIPELINE_LINK_LINKEDPARTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::xpu {

/// Erases every symbol of `module` that none of `kernels` uses, directly or
/// not.
void keepOnlyKernels(gpu::GPUModuleOp module, ArrayRef<std::string> kernels);

/// Where part `index` of the linked module or binary `linked` was written:
/// its own location (xpu-link-modules keeps one per part), else `linked`'s.
Location getLinkedPartLoc(Operation *linked, size_t index);

/// "'a', 'b', 'c'": the original modules of linked module `linked`, for
/// messages about it.
std::string getLinkedPartNames(Operation *linked);

/// Rewrites the symbol references that resolve in `root`: those in the
/// attributes of its ops outside gpu.modules, gpu.binary ops and nested
/// symbol tables (whose references name their own symbols). Each reference
/// is rewritten as a whole, by symbol identity: `redirect` gets it
/// (`@add::@add` is kernel `add` of module `add`; its leaf is never taken
/// for a reference of its own) and returns its replacement, or std::nullopt
/// to keep it.
void redirectSymbolReferences(
    Operation *root,
    function_ref<std::optional<SymbolRefAttr>(SymbolRefAttr)> redirect);

/// Replaces each linked module of `linked` (ones with `xpu.linked`, in one
/// parent) by one gpu.module per part, in part order, where it was: each is
/// named after its original module, holds only its kernels, under their
/// original names, and carries the linked module's targets and attributes
/// (without `xpu.linked` and the module cache key, which name the whole) plus
/// its own `xpu.duplicates` and `xpu.pressure`. Launches and other references
/// outside gpu.modules that a linked module took over go back to the parts,
/// in one walk for all of them. Returns every part, in order.
SmallVector<gpu::GPUModuleOp> unlinkModules(ArrayRef<gpu::GPUModuleOp> linked);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_LINK_LINKEDPARTS_H
