//===- CodegenOptionsTest.cpp - The option list's roles and checks --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The module cache's key holds exactly the options of role Keyed: changing
// any other option (where results go, how fast they come) keeps every cache
// entry, and an option added later is in the key unless its line says
// otherwise. Each option's default is the pipeline's, and the checks give
// one message per mistake, named as the front end names the option.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/CodegenOptions.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::xpu;

namespace {

/// A value other than the default of every option, as written.
std::string getOtherValue(const CodegenOptionInfo &info) {
  static const llvm::StringMap<std::string> choices = {
      {"grf-mode", "small"},
      {"validate-spirv", "off"},
      {"backend", "ocloc"},
      {"auto-strategy", "igc"}};
  switch (info.kind) {
  case CodegenOptionKind::Flag:
    return info.defaultValue == "true" ? "false" : "true";
  case CodegenOptionKind::Integer:
    return info.defaultValue == "7" ? "8" : "7";
  case CodegenOptionKind::Choice:
    return choices.lookup(info.name);
  case CodegenOptionKind::Text:
    return "other";
  }
  return "";
}

TEST(CodegenOptionsTest, ModuleCacheKeyHoldsExactlyTheKeyedOptions) {
  CodegenPipelineOptions defaults;
  std::string defaultKey = getModuleCachePipelineKey(defaults);
  for (const CodegenOptionInfo &info : getCodegenOptionInfos()) {
    std::string other = getOtherValue(info);
    ASSERT_FALSE(other.empty()) << info.name.str();
    CodegenPipelineOptions changed;
    ASSERT_TRUE(
        succeeded(changed.parseFromString((info.name + "=" + other).str())))
        << info.name.str();
    bool keyed = info.role == CodegenOptionRole::Keyed;
    EXPECT_EQ(getModuleCachePipelineKey(changed) != defaultKey, keyed)
        << info.name.str() << "=" << other;
  }
}

TEST(CodegenOptionsTest, DefaultsAreThePipelines) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  CodegenPipelineOptions().print(os);
  printed.front() = ' ';
  for (const CodegenOptionInfo &info : getCodegenOptionInfos())
    EXPECT_NE(printed.find((" " + info.name + "=" + info.defaultValue).str()),
              std::string::npos)
        << info.name.str() << " in " << printed;
  // xpu-select-grf-mode's own defaults are the list's.
  CodegenPipelineOptions defaults;
  EXPECT_EQ(defaults.predictSmallBelow,
            PredictionThresholds::kDefaultSmallBelowPercent);
  EXPECT_EQ(defaults.predictLargeAbove,
            PredictionThresholds::kDefaultLargeAbovePercent);
}

TEST(CodegenOptionsTest, ChecksNameTheOptionAsTheFrontEndDoes) {
  llvm::Error pass = checkCodegenOption(CodegenOptionCheck::ZeroOr128,
                                        "n-regs-default", int64_t(64));
  EXPECT_EQ(llvm::toString(std::move(pass)),
            "n-regs-default must be 0 or 128, got 64");
  llvm::Error python = checkCodegenOption(CodegenOptionCheck::ZeroOr128,
                                          "n_regs_default", int64_t(64));
  EXPECT_EQ(llvm::toString(std::move(python)),
            "n_regs_default must be 0 or 128, got 64");
  EXPECT_FALSE(llvm::errorToBool(checkCodegenOption(
      CodegenOptionCheck::NonNegativeBytes, "spill-threshold", int64_t(0))));
  EXPECT_TRUE(llvm::errorToBool(
      checkCodegenOption(CodegenOptionCheck::CacheMaxSize, "cache-max-size",
                         llvm::StringRef("4q"))));
}

} // namespace
