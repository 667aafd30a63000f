//===- KernelOrigins.h - Where each kernel came from ------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A diagnostic about a kernel belongs at its `gpu.func`. Between the user's
// module and the native compile, deduplication erases copies, linking merges
// modules, lowering replaces the functions and the module cache replaces
// whole modules, so the ops that carried those locations are gone when the
// compiler answers. The origins travel in the location of whatever stands
// for the module: a FusedLoc (no metadata) of its own location and named
// entries `xpu.module:M` and `xpu.kernel:M::K` around the original
// `gpu.module` and `gpu.func` locations. Locations are neither hashed nor
// cached, so the entries change no digest and no cache key.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_KERNELORIGINS_H
#define XPUCODEGEN_PIPELINE_KERNELORIGINS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace mlir::xpu {

/// Records the origins of `module` (under its current name, and each of
/// its kernels' `gpu.func` locations) in its own location; a module whose
/// origins are recorded already is left as it is.
void recordKernelOrigins(gpu::GPUModuleOp module);

/// `into`'s location extended with every origin `from` carries (a folded
/// copy's, a linked part's).
Location mergeKernelOrigins(Location into, Location from);

/// The location of kernel `kernel` of module `module` as recorded in `loc`:
/// its `gpu.func`, else its `gpu.module`; std::nullopt when neither is.
std::optional<Location> findKernelOrigin(Location loc, StringRef module,
                                         StringRef kernel);

/// Where `message` first names `name` in quotes ('name' or "name"), or
/// StringRef::npos: how a compiler's message names a kernel.
size_t findQuotedName(StringRef message, StringRef name);

/// The kernel of module `module` recorded in `loc` that `message` names in
/// quotes ('k' or "k") first; empty when it names none.
std::string findQuotedKernel(Location loc, StringRef module, StringRef message);

/// The recorded location of module `module`'s `gpu.module` in `loc`.
std::optional<Location> findModuleOrigin(Location loc, StringRef module);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_KERNELORIGINS_H
