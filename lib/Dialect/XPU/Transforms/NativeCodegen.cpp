//===- NativeCodegen.cpp - SPIR-V objects to native code ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Gathers every SPIR-V object of an #xpu.target in the module, hands the
// whole batch to the NativeCodegenDriver (so builds are deduplicated and run
// in parallel across modules), then writes the results back as native
// objects, diagnostics and a JSON report, in input order.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h"
#include "XPUCodegen/Target/Codegen/Report.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUNATIVECODEGEN
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

namespace {
/// Where one request came from: object `index` of `binary`.
struct ObjectSlot {
  gpu::BinaryOp binary;
  unsigned index;
  TargetAttr target;
};

struct NativeCodegenPass
    : public xpu::impl::XPUNativeCodegenBase<NativeCodegenPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerXPUTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    if (spillThreshold < 0) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: spill-threshold must be >= 0 bytes, got "
          << spillThreshold.getValue();
      return signalPassFailure();
    }

    SmallVector<ObjectSlot> slots;
    std::vector<ModuleCompileRequest> requests;
    // Objects that cannot be compiled are errors of their own; the other
    // modules still compile and are reported.
    std::vector<llvm::json::Value> reportEntries;
    bool anyFailed = failed(collectRequests(slots, requests, reportEntries));
    if (requests.empty() && report.empty()) {
      if (anyFailed)
        signalPassFailure();
      return;
    }

    NativeCodegenOptions options;
    options.backend = backend;
    options.spillThreshold = spillThreshold;
    options.autoStrategy = autoStrategy;
    options.cacheDir = cacheDir;
    options.jobs = jobs;
    options.limits.timeoutMs = timeoutMs;
    options.limits.memoryMiB = memoryLimitMiB;
    options.validateSPIRV = validateSPIRV;
    options.verifyPredictedLarge = verifyPredictedLarge;

    std::vector<llvm::Expected<ModuleCompileResult>> results;
    if (!requests.empty()) {
      llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
          NativeCodegenDriver::create(options);
      if (!driver) {
        mlir::emitError(getOperation().getLoc())
            << "xpu-native-codegen: cannot start the native compiler: "
            << llvm::toString(driver.takeError());
        return signalPassFailure();
      }
      results = (*driver)->compile(requests);
    }

    // New object lists per binary, built in input order.
    llvm::MapVector<Operation *, SmallVector<Attribute>> newObjects;
    for (auto [slot, request, result] :
         llvm::zip_equal(slots, requests, results)) {
      auto &objects = newObjects[slot.binary];
      if (objects.empty())
        llvm::append_range(objects, slot.binary.getObjects());
      if (!result) {
        std::string message = llvm::toString(result.takeError());
        // Located at the binary, without printing it: its payload is huge.
        mlir::emitError(slot.binary.getLoc())
            << "xpu-native-codegen: module '" << request.name << "' for arch '"
            << request.arch << "' failed: " << message;
        reportEntries.push_back(
            getReportErrorEntry(request.name, request.arch, message));
        anyFailed = true;
        ++numFailed;
        continue;
      }
      ++numObjects;
      numBuilds += result->decision.attempts.size();
      annotate(slot, *result);
      reportEntries.push_back(getReportEntry(*result));
      const std::vector<char> &binary = result->decision.getChosen().binary;
      objects[slot.index] = gpu::ObjectAttr::get(
          &getContext(), slot.target, gpu::CompilationTarget::Binary,
          StringAttr::get(&getContext(),
                          StringRef(binary.data(), binary.size())),
          getNativeObjectProperties(&getContext(), *result),
          /*kernels=*/nullptr);
    }
    for (auto &[binary, objects] : newObjects)
      cast<gpu::BinaryOp>(binary).setObjectsAttr(
          ArrayAttr::get(&getContext(), objects));

    // The report is written even when some modules failed: it is how the
    // caller learns what did compile.
    if (!report.empty()) {
      if (llvm::Error error = writeReport(report, std::move(reportEntries))) {
        mlir::emitError(getOperation().getLoc())
            << "xpu-native-codegen: cannot write the report to '"
            << report.getValue() << "': " << llvm::toString(std::move(error));
        anyFailed = true;
      }
    }
    if (anyFailed)
      signalPassFailure();
  }

  LogicalResult collectRequests(SmallVectorImpl<ObjectSlot> &slots,
                                std::vector<ModuleCompileRequest> &requests,
                                std::vector<llvm::json::Value> &errors) {
    bool failed = false;
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
        auto object = cast<gpu::ObjectAttr>(attr);
        auto target = dyn_cast<TargetAttr>(object.getTarget());
        if (!target)
          continue;
        StringRef payload = object.getObject().getValue();
        ArrayRef<char> bytes(payload.data(), payload.size());
        if (!isSPIRV(bytes)) {
          // Already native (this pass ran before): nothing to do.
          if (object.getProperties() &&
              object.getProperties().contains("n_regs"))
            continue;
          std::string message =
              llvm::formatv("object {0} holds neither SPIR-V nor a native "
                            "binary from this pass",
                            index);
          mlir::emitError(binary.getLoc())
              << "xpu-native-codegen: " << message << " (arch '"
              << target.getArch() << "')";
          errors.push_back(
              getReportErrorEntry(binary.getName(), target.getArch(), message));
          failed = true;
          continue;
        }
        slots.push_back({binary, static_cast<unsigned>(index), target});
        requests.push_back(
            getCompileRequest(binary, binary.getName(), target, bytes));
      }
    });
    return mlir::failure(failed);
  }

  void annotate(ObjectSlot slot, const ModuleCompileResult &result) {
    const GRFDecision &decision = result.decision;
    const BuildAttempt &chosen = decision.getChosen();
    if (remarks)
      mlir::emitRemark(slot.binary.getLoc())
          << "xpu-native-codegen: '" << result.name << "' on " << result.arch
          << ": " << getEffectiveGRFMode(chosen)
          << " GRF (n_regs = " << getNRegs(chosen.mode) << ", "
          << chosen.spillSize << " bytes spilled, backend " << result.backend
          << "): " << decision.reason;
    // A forced mode that spills is worth a warning: the user chose it.
    bool forced =
        decision.attempts.size() == 1 &&
        (chosen.mode == BuildGRF::Small || chosen.mode == BuildGRF::Large) &&
        getGRFPolicy(slot.binary, slot.target) != GRFPolicy::Auto;
    if (forced && chosen.spillSize > 0)
      for (const KernelMeasurement &kernel : chosen.kernels)
        if (kernel.spillSize > 0)
          mlir::emitWarning(slot.binary.getLoc())
              << "xpu-native-codegen: kernel '" << kernel.name << "' spills "
              << kernel.spillSize << " bytes per thread in "
              << stringifyBuildGRF(chosen.mode) << " GRF mode on "
              << result.arch;
  }
};
} // namespace
