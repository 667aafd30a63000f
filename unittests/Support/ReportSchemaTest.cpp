//===- ReportSchemaTest.cpp - The shape every report reader relies on -----===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/ReportSchema.h"

#include "gtest/gtest.h"

using namespace mlir::xpu;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

Object compiledEntry() {
  return Object{
      {"module", "m"},
      {"arch", "pvc"},
      {"backend", "ocloc"},
      {"grf_mode", "small"},
      {"n_regs", 128},
      {"spill_size", 0},
      {"build_flags", ""},
      {"cache", "miss"},
      {"attempts", Array{Object{{"grf_mode", "small"},
                                {"build_flags", ""},
                                {"spill_size", 0},
                                {"compile_ms", 12},
                                {"cache", nullptr}}}},
      {"kernels", Array{Object{{"name", "k"},
                               {"grf_count", 128},
                               {"simd", 16},
                               {"spill_size", 0},
                               {"private_size", 0},
                               {"n_spills", 0},
                               {"linked_name", "k_m"}}}},
  };
}

std::string errorOf(const Value &value) {
  return llvm::toString(checkReportEntry(value));
}

TEST(ReportSchema, TakesWhatTheReportWrites) {
  EXPECT_FALSE(bool(checkReportEntry(Value(compiledEntry()))));
  EXPECT_FALSE(bool(checkReportEntry(
      Value(Object{{"module", "m"}, {"arch", "pvc"}, {"error", "boom"}}))));
  EXPECT_FALSE(bool(checkCachedReport(Value(Array{compiledEntry()}))));
}

TEST(ReportSchema, NamesAMissingKey) {
  Object entry = compiledEntry();
  entry.erase("kernels");
  EXPECT_EQ(errorOf(Value(std::move(entry))),
            "a report entry has no \"kernels\"");
}

TEST(ReportSchema, NamesAWrongType) {
  Object entry = compiledEntry();
  entry["n_regs"] = "128";
  EXPECT_EQ(errorOf(Value(std::move(entry))),
            "a report entry: \"n_regs\" must be an integer >= 0");
  Object negative = compiledEntry();
  negative["spill_size"] = -1;
  EXPECT_EQ(errorOf(Value(std::move(negative))),
            "a report entry: \"spill_size\" must be an integer >= 0");
}

TEST(ReportSchema, ChecksKernelsAndAttempts) {
  Object entry = compiledEntry();
  entry["kernels"] = Array{1};
  EXPECT_EQ(errorOf(Value(std::move(entry))), "kernel 0 is not an object");
  Object attempt = compiledEntry();
  (*attempt.getArray("attempts"))[0].getAsObject()->erase("compile_ms");
  EXPECT_EQ(errorOf(Value(std::move(attempt))),
            "attempt 0 has no \"compile_ms\"");
}

TEST(ReportSchema, ACacheHitHoldsCompiledModulesOnly) {
  EXPECT_EQ(llvm::toString(checkCachedReport(Value(Array{}))),
            "must be a non-empty JSON array of report entries");
  EXPECT_EQ(llvm::toString(checkCachedReport(Value(Array{
                Object{{"module", "m"}, {"arch", "pvc"}, {"error", "boom"}}}))),
            "holds a failed module's entry (the cache keeps compiled "
            "modules only)");
  Object unnamed = compiledEntry();
  unnamed["module"] = "";
  EXPECT_EQ(llvm::toString(checkCachedReport(Value(Array{std::move(unnamed)}))),
            "holds an entry without a module name");
}

} // namespace
