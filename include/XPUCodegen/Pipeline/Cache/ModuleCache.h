//===- ModuleCache.h - The cache level before lowering ----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// xpu-module-cache looks every `#xpu.target` gpu.module up in the persistent
// cache before it is lowered. The key covers the module's content, what
// else decides the output (the pipeline's options), the compiler identity of
// every target, the project and LLVM versions and a format version. On a hit
// the module is replaced by exactly what a cold run produced for it (its
// gpu.binary ops, the launch rewrites of xpu-native-codegen, its report
// entries and diagnostics), so it is never lowered, emitted or compiled. On
// a miss the module carries its digest (`xpu.module_cache_key`) through
// lowering and emission, and xpu-native-codegen stores the outcome once the
// module has compiled. Entries live in CompileCache, in their own key domain,
// with a versioned payload that is verified on read: a corrupt or foreign
// entry is a miss.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_CACHE_MODULECACHE_H
#define XPUCODEGEN_PIPELINE_CACHE_MODULECACHE_H

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

/// Hex SHA-256 over the module's canonical form (CanonicalPrinting.h: no
/// printing flag of the command line changes it; with locations only when
/// they can reach the binary as debug information), the
/// contents of the resource blobs it references, and `pipelineKey`.
std::string getModuleCacheDigest(gpu::GPUModuleOp module,
                                 StringRef pipelineKey);

/// The entry key for a module with digest `digest` compiled for `targets`
/// in `session` (its backend and compiler): std::nullopt when the compiler
/// identity of a target is not cached yet (the run then cannot hit, and stores
/// once the native compile has cached the identity) or no backend can be
/// chosen.
std::optional<std::string> getModuleCacheKey(CompileSession &session,
                                             StringRef digest,
                                             ArrayRef<TargetAttr> targets);

/// What a cold run produced for one gpu.module.
/// A diagnostic xpu-native-codegen emitted at a binary, as the module cache
/// keeps it: what it said, and the module and kernel it is about (empty when
/// it is about the binary), under which a hit finds its location again
/// (KernelOrigins.h): a hit's module may sit on other lines.
struct CachedDiagnostic {
  DiagnosticSeverity severity;
  std::string message;
  std::string module;
  std::string kernel;
  bool operator==(const CachedDiagnostic &other) const {
    return severity == other.severity && message == other.message &&
           module == other.module && kernel == other.kernel;
  }
};

struct ModuleCacheRecord {
  struct Binary {
    /// MLIR bytecode of the gpu.binary op, without location or helper
    /// attributes, its objects' bytes left empty.
    std::string bytecode;
    /// The bytes of its objects, in order, kept raw: MLIR bytecode writes a
    /// #gpu.object in its text form, whose escaped bytes would cost a run
    /// of the lexer over every binary to read back.
    std::vector<std::string> objects;
    /// Its report entries, in report order (a JSON array).
    std::string report;
    /// The diagnostics xpu-native-codegen emitted at it, in order.
    std::vector<CachedDiagnostic> diagnostics;
  };
  /// The module's own binary first, then those split from it, in IR order.
  std::vector<Binary> binaries;
  /// Launch rewrites: a kernel of the module now launched from another
  /// binary (kernel name, binary name).
  std::vector<std::pair<std::string, std::string>> launches;
};

/// Empties the bytes of `binary`'s objects and returns them, in order: a
/// record keeps them raw beside the bytecode.
std::vector<std::string> takeModuleCacheObjects(gpu::BinaryOp binary);

/// Gives the objects of `binary` (read from a record's bytecode) their
/// bytes back; failure when the record does not have one per object, or an
/// object already has bytes.
LogicalResult restoreModuleCacheObjects(gpu::BinaryOp binary,
                                        llvm::ArrayRef<std::string> bytes);

std::string serializeModuleCacheRecord(const ModuleCacheRecord &record);
llvm::Expected<ModuleCacheRecord>
deserializeModuleCacheRecord(StringRef payload);

/// What xpu-native-codegen produced for one gpu.binary in this run.
struct BinaryOutcome {
  std::vector<llvm::json::Value> entries;
  std::vector<CachedDiagnostic> diagnostics;
  /// An object of it failed to compile.
  bool failed = false;
};

/// Stores the outcome of every binary of `root` whose module was looked up
/// and missed (it carries `xpu.module_cache_key`) and compiled without
/// error, then removes the helper attributes of the module cache and of
/// per-kernel splits (`xpu.split_from`) everywhere. A store that fails is
/// returned (the first one) but stops nothing.
llvm::Error storeModuleCacheEntries(
    ModuleOp root, CompileSession &session,
    const llvm::MapVector<Operation *, BinaryOutcome> &outcomes);

/// The report entries of a binary that a module cache hit replayed, with
/// their cache fields saying so; diagnostics go to `diagnostics`.
FailureOr<std::vector<llvm::json::Value>>
takeModuleCacheHit(gpu::BinaryOp binary,
                   std::vector<CachedDiagnostic> &diagnostics);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_CACHE_MODULECACHE_H
