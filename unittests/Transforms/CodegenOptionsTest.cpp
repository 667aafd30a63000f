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

#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::xpu;

namespace {

/// A value other than the default of every option, as written.
std::string getOtherValue(const CodegenOptionInfo &info) {
  switch (info.kind) {
  case CodegenOptionKind::Flag:
    return info.defaultValue == "true" ? "false" : "true";
  case CodegenOptionKind::Integer:
    return info.defaultValue == "7" ? "8" : "7";
  case CodegenOptionKind::Choice:
    for (const CodegenOptionChoice &choice : info.choices)
      if (choice.name != info.defaultValue)
        return choice.name.str();
    return "";
  case CodegenOptionKind::Text:
    return "other";
  }
  return "";
}

/// `pass` as a textual pipeline, with its options.
std::string print(const Pass &pass) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  const_cast<Pass &>(pass).printAsTextualPipeline(os);
  return printed;
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

TEST(CodegenOptionsTest, TheDriversOwnDefaultsAreTheLists) {
  // NativeCodegenOptions() (a caller of the driver that sets nothing) and
  // the driver options made from the list's defaults agree.
  NativeCodegenOptions own;
  NativeCodegenOptions fromList =
      getNativeCodegenOptions(CodegenPipelineOptions());
  // Walks the list: every option the driver takes as the list names it.
  unsigned taken = 0;
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  [&](const auto &ownOptions, const auto &listOptions) {                       \
    using Holder = std::decay_t<decltype(listOptions)>;                        \
    if constexpr (mlir::xpu::detail::TakesOption_##FIELD<Holder>::value) {     \
      EXPECT_EQ(ownOptions.FIELD, listOptions.FIELD) << #FIELD;                \
      ++taken;                                                                 \
    }                                                                          \
  }(own, fromList);
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
  EXPECT_EQ(taken, 18u);
  EXPECT_EQ(own.validation, fromList.validation);
  EXPECT_EQ(own.cacheMaxSize, fromList.cacheMaxSize);
  EXPECT_EQ(own.limits.timeoutMs, fromList.limits.timeoutMs);
  EXPECT_EQ(own.limits.memoryMiB, fromList.limits.memoryMiB);
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

TEST(CodegenOptionsTest, HoldersOfTheirOwnDefaultTakeTheLists) {
  auto getDefault = [](llvm::StringRef name) {
    return lookupCodegenOption(name)->defaultValue;
  };
  WorkerLimits limits;
  EXPECT_EQ(limits.timeoutMs,
            getCodegenOptionDefault<uint64_t>(getDefault("timeout-ms")));
  EXPECT_EQ(limits.memoryMiB,
            getCodegenOptionDefault<uint64_t>(getDefault("memory-limit-mb")));
  EXPECT_EQ(NativeCodegenOptions().cacheMaxSize,
            llvm::cantFail(parseCacheMaxSize(getDefault("cache-max-size"))));
  // Every choice option's default is one of its values.
  for (const CodegenOptionInfo &info : getCodegenOptionInfos()) {
    if (info.kind != CodegenOptionKind::Choice)
      continue;
    EXPECT_TRUE(llvm::any_of(info.choices,
                             [&](const CodegenOptionChoice &choice) {
                               return choice.name == info.defaultValue;
                             }))
        << info.name.str();
  }
}

TEST(CodegenOptionsTest, PassesTakeThePipelinesOptions) {
  CodegenPipelineOptions options;
  ASSERT_TRUE(succeeded(options.parseFromString(
      "link-max-kernels=3 link-alone-above=7 xegpu-op-level=lane "
      "use-64bit-index=false opt-level=1 jobs=5")));
  std::string link = print(*createXPULinkModules(options, false));
  for (llvm::StringRef expected :
       {"max-kernels=3", "alone-above=7", "xegpu-op-level=lane",
        "use-64bit-index=false", "check-lowering=false"})
    EXPECT_NE(link.find(expected.str()), std::string::npos) << link;
  std::string lower = print(*createXPULowerToXeVM(options, true));
  for (llvm::StringRef expected :
       {"xegpu-op-level=lane", "use-64bit-index=false", "keep-going=true"})
    EXPECT_NE(lower.find(expected.str()), std::string::npos) << lower;
  std::string emit =
      print(*createXPUEmitSPIRV(options, SPIRVValidation::Off, true));
  for (llvm::StringRef expected :
       {"opt-level=1", "jobs=5", "validate-spirv=off", "keep-going=true"})
    EXPECT_NE(emit.find(expected.str()), std::string::npos) << emit;
  std::string exported = print(*createXPUExportXeVMObjects(options));
  EXPECT_NE(exported.find("opt-level=1"), std::string::npos) << exported;
  // Run alone, the passes default to the list.
  EXPECT_NE(print(*createXPULinkModules()).find("max-kernels=16"),
            std::string::npos);
}

} // namespace
