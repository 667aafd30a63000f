//===- NativeCodegenRun.h - One run of xpu-native-codegen -------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Pipeline/Native: the state of one run of the
// xpu-native-codegen pass over a module, apart from the pass (whose
// generated base may be defined in one file only). Its steps live in
// NativeCodegen.cpp (the pass, the flow and the shared diagnostics),
// NativeCodegenRequests.cpp (SPIR-V objects to compile requests),
// NativeCodegenResults.cpp (results back into the IR and the report) and
// NativeCodegenModuleCache.cpp (module cache replay and store).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_PIPELINE_NATIVE_NATIVECODEGENRUN_H
#define XPUCODEGEN_LIB_PIPELINE_NATIVE_NATIVECODEGENRUN_H

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Codegen/ResultMessages.h"
#include "XPUCodegen/Pipeline/Cache/ModuleCache.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mlir::xpu::detail {

/// Where one request came from: object `index` of `binary`.
struct ObjectSlot {
  gpu::BinaryOp binary;
  unsigned index;
  TargetAttr target;
};

/// One module's report in IR order: a ready one (a module that failed
/// before compiling, or one the module cache replayed), or the result of
/// request `request`.
struct ReportSlot {
  std::optional<ModuleReport> ready;
  size_t request = 0;
  /// For a linked request: which of its parts (original modules).
  size_t part = 0;
  /// A module xpu-dedupe-modules folded into the request's: its report is
  /// the request's, under its own name.
  std::string duplicate;
  /// The gpu.binary (or failed gpu.module) the entry is about.
  Operation *op = nullptr;
  /// The duplicate's kernels named differently from the kept module's:
  /// (kept module's name, the duplicate's own).
  std::vector<std::pair<std::string, std::string>> duplicateKernels;
  /// Replayed from the module cache (xpu-module-cache): nothing to store.
  bool fromModuleCache = false;
};
// Thousands of slots grow one vector: by moves only.
static_assert(std::is_nothrow_move_constructible_v<ReportSlot>);

/// Where to report a problem of `op`: its line without a column. A binary
/// printed by MLIR holds its whole payload on that line (megabytes), which
/// diagnostic handlers echo under a located message; without a column they
/// print only `file:line`.
Location getLineLoc(Operation *op);

/// What the run's steps read besides the driver's options.
struct NativeCodegenRunOptions {
  GRFMode grfMode = GRFMode::Auto;
  bool remarks = false;
};

/// The pass's statistics, counted by the run's steps.
struct NativeCodegenCounters {
  Pass::Statistic &numObjects;
  Pass::Statistic &numFailed;
  Pass::Statistic &numBuilds;
  Pass::Statistic &numSplit;
};

/// One run of the pass over `module`: collect the requests, compile them as
/// one batch, write the results back, store in the module cache, report.
class NativeCodegenRun {
public:
  NativeCodegenRun(ModuleOp module, CompileSession &session,
                   const NativeCodegenOptions &driverOptions,
                   const NativeCodegenRunOptions &options,
                   NativeCodegenCounters counters);

  /// The whole run; failure when the driver cannot start, the report cannot
  /// be written or a module failed (each already diagnosed). Each module's
  /// report goes to the session (CompileSession::addResults).
  LogicalResult run(StringRef reportPath);

private:
  ModuleOp getOperation() { return module; }
  MLIRContext &getContext() { return *module.getContext(); }

  /// Compiles `requests` as one batch; failure when the driver cannot start.
  LogicalResult
  compile(ArrayRef<ModuleCompileRequest> requests,
          std::vector<llvm::Expected<ModuleCompileResult>> &results);

  // Requests (NativeCodegenRequests.cpp).
  void collectRequests(SmallVectorImpl<ObjectSlot> &slots,
                       std::vector<ModuleCompileRequest> &requests,
                       std::vector<ReportSlot> &reportSlots);

  void collectBinary(gpu::BinaryOp binary, SmallVectorImpl<ObjectSlot> &slots,
                     std::vector<ModuleCompileRequest> &requests,
                     std::vector<ReportSlot> &reportSlots);

  /// The SPIR-V of an #xpu.target object; empty when it is already native.
  FailureOr<std::vector<char>>
  getXPUPayload(gpu::BinaryOp binary, gpu::ObjectAttr object, size_t index,
                TargetAttr target, std::vector<ReportSlot> &reportSlots);

  /// The SPIR-V of an upstream #xevm.target object (binary, or the SPIR-V
  /// assembly text MLIR 22 emits), compiled for
  /// `#xpu.target<arch = chip, grf_mode = grf-mode>`; sets `target`.
  /// Empty for objects of other targets.
  FailureOr<std::vector<char>>
  getXeVMPayload(gpu::BinaryOp binary, gpu::ObjectAttr object,
                 TargetAttr &target, std::string &arch,
                 std::vector<ReportSlot> &reportSlots);

  void collectLinkSources();

  /// The SPIR-V of `part` alone: the kept lowered form of linked binary
  /// `binary`, cloned with only the part's kernels and what they use.
  llvm::Expected<std::vector<char>> emitLinkedPart(StringRef binary,
                                                   const LinkedPart &part);

  // Diagnostics (NativeCodegen.cpp).
  /// A module that cannot be compiled: its error now, its report entry in
  /// IR order.
  void addFailure(Operation *op, StringRef name, StringRef arch,
                  StringRef message, std::vector<ReportSlot> &reportSlots,
                  bool diagnose = true);

  /// Emits `message` and records it for the module cache: at kernel
  /// `kernel` of module `module` where `binary` carries its origin
  /// (KernelOrigins.h), else at that module, else at `binary`.
  void diagnose(Operation *binary, DiagnosticSeverity severity,
                const Twine &message, StringRef module = {},
                StringRef kernel = {});

  /// Where an error about `binary` (request `request`, or its linked part
  /// `part`) belongs: at the `gpu.func` of the first kernel `message` names
  /// in quotes, else at `fallback`.
  Location getErrorLoc(Operation *binary, const ModuleCompileRequest &request,
                       StringRef message, const LinkedPart *part,
                       Location fallback);

  // Results and report (NativeCodegenResults.cpp).
  /// The report of a request slot (a copy under the folded module's name
  /// for a duplicate).
  static ModuleReport
  getReport(const ReportSlot &slot,
            ArrayRef<std::vector<ModuleReport>> resultReports);

  /// Writes every result back as a native object (or a located error) and
  /// returns the reports of each request (one per part of a linked
  /// request).
  std::vector<std::vector<ModuleReport>>
  applyResults(MutableArrayRef<ObjectSlot> slots,
               ArrayRef<ModuleCompileRequest> requests,
               std::vector<llvm::Expected<ModuleCompileResult>> &results);

  gpu::ObjectAttr getNativeObject(TargetAttr target,
                                  const ModuleCompileResult &result,
                                  ArrayRef<NamedAttribute> extra = {});

  /// Writes back a linked module: its one build in `objects`, a binary of
  /// its own for every part split out of it (named after the part's module,
  /// its launches rewritten); returns one report per part.
  std::vector<ModuleReport>
  applyLinkedResult(ObjectSlot slot, const ModuleCompileRequest &request,
                    ModuleCompileResult &result,
                    SmallVectorImpl<Attribute> &objects);

  /// A binary of its own for `part` of the linked binary of `slot`, placed
  /// after it and named after the part's module; the part's launches move
  /// to it.
  gpu::BinaryOp splitPart(OpBuilder &builder, ObjectSlot slot,
                          const LinkedPart &part,
                          const ModuleCompileResult &result);

  /// Points the launches of every split part's kernels at its binary, in
  /// one walk of the program.
  void redirectSplitLaunches();

  /// `part` for a linked part: its kernels' names in the build map back to
  /// its own.
  void annotate(ObjectSlot slot, const ModuleCompileResult &result,
                const LinkedPart *part = nullptr);

  /// Writes the kept build's measurement as `xpu.spill` on `binary`, when
  /// it holds that one object (with several targets each object's
  /// properties say their own).
  void recordSpill(gpu::BinaryOp binary, const ModuleCompileResult &result);

  // The module cache (NativeCodegenModuleCache.cpp).
  /// A binary that xpu-module-cache took from the cache: what the run that
  /// stored it reported and diagnosed, again, with nothing compiled.
  void replayModuleCacheHit(gpu::BinaryOp binary,
                            std::vector<ReportSlot> &reportSlots);

  /// Stores what each module that missed the module cache (xpu-module-cache)
  /// produced (its report `entries`), and removes the helper attributes of
  /// the flow.
  void storeInModuleCache(ArrayRef<ReportSlot> reportSlots,
                          ArrayRef<llvm::json::Value> entries);

  ModuleOp module;
  /// The run's compiler, cache and workers (shared with xpu-module-cache).
  CompileSession &session;
  /// The pass's own options, as the driver decides by them.
  const NativeCodegenOptions &driverOptions;
  // Named as the pass's options and statistics, which they stand for.
  GRFMode grfMode;
  bool remarks;
  Pass::Statistic &numObjects;
  Pass::Statistic &numFailed;
  Pass::Statistic &numBuilds;
  Pass::Statistic &numSplit;

  /// Diagnostics emitted at each binary, which the module cache replays.
  llvm::DenseMap<Operation *, std::vector<CachedDiagnostic>> binaryDiagnostics;
  /// Whether the driver warned about the cache already.
  bool cacheWarned = false;
  /// The lowered linked modules xpu-emit-spirv kept, by binary name.
  llvm::StringMap<gpu::GPUModuleOp> linkSources;
  /// Linked binaries whose parts all went to binaries of their own, erased
  /// once every result is written back.
  llvm::SmallPtrSet<Operation *, 4> emptiedBinaries;
  /// The program's symbols, built at the first split of a run (splits are
  /// named uniquely against it).
  std::unique_ptr<SymbolTable> topSymbols;
  /// (linked binary, kernel) -> the split binary its launches go to.
  llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> splitLaunches;
  /// Emission runs on the driver's threads: one at a time.
  std::mutex emitMutex;
  /// Modules that failed in this run (statistics may be compiled out).
  unsigned moduleFailures = 0;
};

} // namespace mlir::xpu::detail

#endif // XPUCODEGEN_LIB_PIPELINE_NATIVE_NATIVECODEGENRUN_H
