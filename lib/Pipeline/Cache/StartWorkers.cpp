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

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUSTARTWORKERS
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// The builds xpu-native-codegen has ahead: one per target of each module
/// left to compile, two where `auto` may build a second mode beside the
/// first. Workers beyond that would only cost processes.
static size_t countBuildsAhead(ModuleOp root) {
  size_t builds = 0;
  for (auto module : root.getOps<gpu::GPUModuleOp>()) {
    countVisitedOps();
    if (getModuleFailure(module))
      continue;
    for (TargetAttr target : getXPUTargets(module))
      builds += target.getGrfMode() == GRFMode::Auto ? 2 : 1;
  }
  return builds;
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
    size_t builds = countBuildsAhead(getOperation());
    if (!builds)
      return;
    NativeCodegenOptions own = getNativeCodegenOptions(*this);
    if (!session)
      session = CompileSession::getShared(own);
    // The pool xpu-native-codegen will ask for: the same jobs and limits.
    if (session->prestartWorkers(own, builds))
      ++numStarted;
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUStartWorkers(const CodegenPipelineOptions &options,
                                 std::shared_ptr<CompileSession> session) {
  return std::make_unique<StartWorkersPass>(options, std::move(session));
}
