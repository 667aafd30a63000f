//===- ModuleFailures.cpp - Per-module errors across the passes -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <atomic>

using namespace mlir;
using namespace mlir::xpu;

static std::atomic<bool> deferModuleFailures{false};
static std::atomic<unsigned> numDeferredModuleFailures{0};

FirstErrorRecorder::FirstErrorRecorder(MLIRContext *context, bool swallow)
    : context(context), thread(std::this_thread::get_id()) {
  id = context->getDiagEngine().registerHandler(
      [this, swallow](Diagnostic &diag) {
        if (std::this_thread::get_id() != thread)
          return failure();
        if (diag.getSeverity() == DiagnosticSeverity::Error && message.empty())
          message = diag.str();
        return success(swallow);
      });
}

FirstErrorRecorder::~FirstErrorRecorder() {
  context->getDiagEngine().eraseHandler(id);
}

std::string FirstErrorRecorder::getMessage(StringRef fallback) const {
  return message.empty() ? fallback.str() : message;
}

void mlir::xpu::markModuleFailed(Operation *module, FailureStage stage,
                                 StringRef message) {
  module->setAttr(XPUDialect::kErrorAttrName,
                  FailureAttr::get(module->getContext(), stage, message));
}

std::optional<StringRef> mlir::xpu::getModuleFailure(Operation *module) {
  if (auto failure =
          module->getAttrOfType<FailureAttr>(XPUDialect::kErrorAttrName))
    return failure.getMessage();
  return std::nullopt;
}

void mlir::xpu::setDeferModuleFailures(bool defer) {
  deferModuleFailures = defer;
}

unsigned mlir::xpu::getNumDeferredModuleFailures() {
  return numDeferredModuleFailures;
}

LogicalResult mlir::xpu::finishModuleStage(unsigned numFailed, bool keepGoing) {
  if (numFailed == 0 || keepGoing)
    return success();
  if (!deferModuleFailures)
    return failure();
  numDeferredModuleFailures += numFailed;
  return success();
}
