//===- CompileResultsTest.cpp - One result, two printers ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A module's result is printed twice, as its report entry and as its native
// object's properties, under the keys of ResultFields.def; what a run hands
// its caller (ModuleReport) prints as the report file says.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Support/ResultFields.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::xpu;

/// A large build that kept one kernel from spilling.
static ModuleCompileResult makeResult() {
  ModuleCompileResult result;
  result.name = "m";
  result.arch = "pvc";
  result.backend = "ocloc";
  BuildAttempt attempt;
  attempt.mode = BuildGRF::Large;
  attempt.buildFlags = "-cl-intel-256-GRF-per-thread";
  attempt.kernels.push_back({"k_m", 256, 16, 0, 0, 0, 0});
  result.decision.attempts.push_back(attempt);
  result.decision.reason = "forced";
  result.nRegs = 256;
  return result;
}

static bool isResultField(llvm::StringRef key) {
  return llvm::is_contained(fields::kAll, key);
}

TEST(CompileResults, BothPrintersUseTheFieldKeys) {
  ModuleCompileResult result = makeResult();
  llvm::json::Object entry = getReportEntry(result);
  for (const auto &field : entry)
    EXPECT_TRUE(isResultField(field.first)) << "report: " << field.first.str();

  MLIRContext context;
  context.loadDialect<XPUDialect>();
  DictionaryAttr properties = getNativeObjectProperties(&context, result);
  for (NamedAttribute property : properties)
    EXPECT_TRUE(isResultField(property.getName().getValue()))
        << "properties: " << property.getName().getValue().str();
  EXPECT_EQ(entry.getInteger(fields::kNRegs), 256);
  EXPECT_EQ(properties.getAs<IntegerAttr>(fields::kNRegs).getInt(), 256);
}

TEST(CompileResults, ADuplicateNamesTheModuleItWasFoldedInto) {
  ModuleReport original;
  original.module = "m";
  original.arch = "pvc";
  original.result = std::make_shared<const ModuleCompileResult>(makeResult());
  ModuleReport duplicate = original;
  duplicate.deduplicatedFrom = original.module;
  duplicate.module = "copy";
  llvm::json::Value entry = getReportEntry(duplicate);
  const llvm::json::Object &object = *entry.getAsObject();
  EXPECT_EQ(object.getString(fields::kModule), "copy");
  EXPECT_EQ(object.getString(fields::kDeduplicatedFrom), "m");
  EXPECT_EQ(object.getInteger(fields::kSpillSize), 0);
  EXPECT_FALSE(duplicate.failed());
}

TEST(CompileResults, ALinkedPartNamesItsKernelsAsItsModuleDid) {
  ModuleReport part;
  part.module = "m";
  part.arch = "pvc";
  part.result = std::make_shared<const ModuleCompileResult>(makeResult());
  part.linkedInto = "xpu_linked";
  part.splitInto = "m";
  part.renamedKernels = {{"k_m", "k"}};
  llvm::json::Value entry = getReportEntry(part);
  const llvm::json::Object &object = *entry.getAsObject();
  EXPECT_EQ(object.getString(fields::kLinkedInto), "xpu_linked");
  EXPECT_EQ(object.getString(fields::kSplitInto), "m");
  const llvm::json::Object &kernel =
      *object.getArray(fields::kKernels)->front().getAsObject();
  EXPECT_EQ(kernel.getString(fields::kName), "k");
  EXPECT_EQ(kernel.getString(fields::kLinkedName), "k_m");
}

TEST(CompileResults, AFailureKeepsItsResources) {
  ModuleReport failed;
  failed.module = "m";
  failed.arch = "pvc";
  failed.error = ModuleError{"too big", ModuleError::Resources{"PTSS", 9, 8}};
  EXPECT_TRUE(failed.failed());
  llvm::json::Value entry = getReportEntry(failed);
  const llvm::json::Object &object = *entry.getAsObject();
  EXPECT_EQ(object.getString(fields::kError), "too big");
  EXPECT_EQ(
      object.getObject(fields::kOutOfResources)->getInteger(fields::kRequired),
      9);
}

TEST(CompileResults, AReplayedEntryIsPrintedAsStored) {
  llvm::json::Value stored = llvm::json::Object{
      {fields::kModule, "m"},
      {fields::kArch, "pvc"},
      {fields::kLinkedInto, "xpu_linked"},
      {fields::kCache, "hit"},
  };
  ModuleReport replayed = readCachedReport(stored);
  EXPECT_EQ(replayed.module, "m");
  EXPECT_EQ(replayed.linkedInto, "xpu_linked");
  EXPECT_FALSE(replayed.failed());
  EXPECT_EQ(getReportEntry(replayed), stored);

  ModuleReport failed = readCachedReport(
      llvm::json::Object{{fields::kModule, "f"}, {fields::kError, "no"}});
  EXPECT_TRUE(failed.failed());
}

/// A build with IGC's auto flag (kernels get their own register counts) of
/// two kernels that differ in every measured fact.
static ModuleCompileResult makeTwoKernelResult(llvm::StringRef arch) {
  ModuleCompileResult result = makeResult();
  result.arch = arch.str();
  BuildAttempt &attempt = result.decision.attempts.front();
  attempt.mode = BuildGRF::IGCAuto;
  attempt.kernels = {{"wide", 256, 32, 0, 64, 64, 0},
                     {"spilling", 128, 16, 512, 0, 512, 8}};
  attempt.spillSize = 512;
  return result;
}

TEST(CompileResults, TheSpillAttrIsTheModulesWorstCase) {
  MLIRContext context;
  context.loadDialect<XPUDialect>();
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  SpillAttr spill =
      getNativeSpillAttr(&context, makeTwoKernelResult("pvc"), emitError);
  ASSERT_TRUE(spill);
  EXPECT_EQ(spill.getGrfMode(), GRFMode::Large);
  EXPECT_EQ(spill.getSpillSize(), 512);
  EXPECT_EQ(spill.getGrfCount(), 256);
  EXPECT_EQ(spill.getSimd(), 16);
  EXPECT_EQ(spill.getPrivateSize(), 64);
  // pvc runs 4 threads per vector engine at 256 registers (8 at 128).
  EXPECT_EQ(spill.getThreadsPerEu(), std::optional<int64_t>(4));
}

TEST(CompileResults, TheSpillAttrOmitsWhatItCannotKnowAndRefusesNonsense) {
  MLIRContext context;
  context.loadDialect<XPUDialect>();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics += diag.str();
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  // An arch the device table does not know: no thread count.
  SpillAttr spill =
      getNativeSpillAttr(&context, makeTwoKernelResult("gpu9000"), emitError);
  ASSERT_TRUE(spill);
  EXPECT_EQ(spill.getThreadsPerEu(), std::nullopt);
  EXPECT_TRUE(diagnostics.empty()) << diagnostics;

  ModuleCompileResult bad = makeTwoKernelResult("pvc");
  bad.decision.attempts.front().kernels[1].simd = 12;
  EXPECT_FALSE(getNativeSpillAttr(&context, bad, emitError));
  EXPECT_EQ(diagnostics, "simd must be 1, 8, 16 or 32, got 12");

  ModuleCompileResult empty = makeResult();
  empty.decision.attempts.front().kernels.clear();
  EXPECT_FALSE(getNativeSpillAttr(&context, empty, emitError));
}
