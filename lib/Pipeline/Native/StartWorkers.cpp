//===- StartWorkers.cpp - Start the compiler workers early ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A cold run cannot build before its workers have loaded IGC and named the
// compiler (part of every cache key): started here, before lowering, that
// happens while the modules are lowered and emitted (docs/Rationale.md).
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Target/Codegen/CompileSession.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUSTARTWORKERS
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// Whether a module of `root` is left for xpu-native-codegen to compile.
static bool hasModuleToCompile(ModuleOp root) {
  return llvm::any_of(
      root.getOps<gpu::GPUModuleOp>(), [](gpu::GPUModuleOp module) {
        return !getModuleFailure(module) && !getXPUTargets(module).empty();
      });
}

namespace {
struct StartWorkersPass
    : public xpu::impl::XPUStartWorkersBase<StartWorkersPass> {
  XPU_START_WORKERS_OPTIONS(XPU_DECLARE_PASS_OPTION)

  /// The run's session; when the pass runs alone, the one its options share
  /// with the other passes of the run (CompileSession::getShared).
  std::shared_ptr<CompileSession> session;

  StartWorkersPass() = default;
  /// A clone: the options are copied by the pass manager.
  StartWorkersPass(const StartWorkersPass &other)
      : Base(other), session(other.session) {}
  StartWorkersPass(const CodegenPipelineOptions &options,
                   std::shared_ptr<CompileSession> session)
      : session(std::move(session)) {
    XPU_START_WORKERS_OPTIONS(XPU_COPY_OPTION)
  }

  void runOnOperation() override {
    markAllAnalysesPreserved();
    if (!hasModuleToCompile(getOperation()))
      return;
    NativeCodegenOptions own = getNativeCodegenOptions(*this);
    if (!session)
      session = CompileSession::getShared(own);
    // The pool xpu-native-codegen will ask for: the same jobs and limits.
    if (session->prestartWorkers(own))
      ++numStarted;
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUStartWorkers(const CodegenPipelineOptions &options,
                                 std::shared_ptr<CompileSession> session) {
  return std::make_unique<StartWorkersPass>(options, std::move(session));
}
