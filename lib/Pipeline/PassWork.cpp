//===- PassWork.cpp - The operations each pass visits ---------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/PassWork.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>

using namespace mlir;

namespace {
std::atomic<bool> counting{false};
std::atomic<uint64_t> visitedOps{0};

/// Prints the operations visited by each top-level pass (the pass managers
/// of nested passes are adaptors without an argument, and their passes run
/// on nested operations: neither is printed).
class PassWorkInstrumentation : public PassInstrumentation {
public:
  explicit PassWorkInstrumentation(llvm::raw_ostream &os) : os(os) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (isPrinted(pass, op))
      start = visitedOps.load(std::memory_order_relaxed);
  }

  void runAfterPass(Pass *pass, Operation *op) override {
    if (!isPrinted(pass, op))
      return;
    std::lock_guard<std::mutex> lock(printing);
    os << "xpu-pass-work: " << pass->getArgument() << " "
       << visitedOps.load(std::memory_order_relaxed) - start << "\n";
  }

  void runAfterPassFailed(Pass *pass, Operation *op) override {
    runAfterPass(pass, op);
  }

private:
  static bool isPrinted(Pass *pass, Operation *op) {
    return isa<ModuleOp>(op) && !pass->getArgument().empty() &&
           !op->getParentOp();
  }

  llvm::raw_ostream &os;
  uint64_t start = 0;
  std::mutex printing;
};
} // namespace

void mlir::xpu::countVisitedOps(uint64_t count) {
  if (counting.load(std::memory_order_relaxed))
    visitedOps.fetch_add(count, std::memory_order_relaxed);
}

void mlir::xpu::countSymbolScan(Operation *table) {
  if (counting.load(std::memory_order_relaxed) && table->getNumRegions() &&
      !table->getRegion(0).empty())
    countVisitedOps(table->getRegion(0).front().getOperations().size());
}

Operation *mlir::xpu::lookupSymbolCounted(Operation *table, StringAttr name) {
  countSymbolScan(table);
  return SymbolTable::lookupSymbolIn(table, name);
}

void mlir::xpu::addPassWorkCounting(PassManager &pm, llvm::raw_ostream &os) {
  counting.store(true, std::memory_order_relaxed);
  pm.addInstrumentation(std::make_unique<PassWorkInstrumentation>(os));
}
