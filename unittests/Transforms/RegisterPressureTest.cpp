//===- RegisterPressureTest.cpp - The pressure estimate's fast path -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// reachesPressurePercent skips the liveness analysis of kernels whose values
// cannot reach the percentage even all live at once. It must answer exactly
// as comparing getModulePressurePercent does, for every percentage.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::xpu;

namespace {

class RegisterPressureTest : public ::testing::TestWithParam<const char *> {
protected:
  RegisterPressureTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                        math::MathDialect, memref::MemRefDialect,
                        scf::SCFDialect, vector::VectorDialect, XPUDialect>();
  }
  MLIRContext context;
};

TEST_P(RegisterPressureTest, FastPathAgreesWithTheEstimate) {
  llvm::SmallString<256> path(XPU_EXAMPLES_DIR);
  llvm::sys::path::append(path, GetParam());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path.str(), &context);
  ASSERT_TRUE(module) << "cannot parse " << path.str().str();
  int checked = 0;
  for (StringRef arch : {"pvc", "acm-g10", "bmg"}) {
    const DeviceInfo *device = lookupDevice(arch);
    ASSERT_NE(device, nullptr) << arch.str();
    for (auto gpuModule : module->getOps<gpu::GPUModuleOp>()) {
      int64_t estimate = getModulePressurePercent(gpuModule, *device);
      for (int64_t percent :
           {int64_t(0), int64_t(1), estimate - 1, estimate, estimate + 1,
            int64_t(110), int64_t(117), int64_t(1000)}) {
        EXPECT_EQ(reachesPressurePercent(gpuModule, *device, percent),
                  estimate >= percent)
            << GetParam() << " module " << gpuModule.getName().str() << " on "
            << arch.str() << " at " << percent << "% (estimate " << estimate
            << "%)";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Examples, RegisterPressureTest,
                         ::testing::Values("accumulate_no_spill.mlir",
                                           "accumulate_spill_both.mlir",
                                           "accumulate_spill_small_only.mlir",
                                           "mixed_modes.mlir", "readme.mlir"));

} // namespace
