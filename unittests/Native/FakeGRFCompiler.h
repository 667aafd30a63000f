//===- FakeGRFCompiler.h - Fake builds for decideGRF tests ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A fake native compiler for the GRF decision's unit tests: what a build
// with a given number of registers per thread spills, at which SIMD width,
// with how much scratch, recording the builds it was asked for.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_UNITTESTS_NATIVE_FAKEGRFCOMPILER_H
#define XPUCODEGEN_UNITTESTS_NATIVE_FAKEGRFCOMPILER_H

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include <map>
#include <optional>
#include <vector>

namespace mlir::xpu::test {

struct FakeGRFCompiler {
  struct Build {
    int64_t spill = 0;
    int64_t simd = 16;
    /// Scratch per thread; the spill when not set.
    std::optional<int64_t> scratch;
  };
  /// The count IGC's own default build (no GRF flag) picks.
  unsigned defaultCount = 128;
  /// By registers per thread: small is 128, large 256, xlarge 512.
  std::map<unsigned, Build> counts;
  /// IGC's default build where it differs from the explicit build at
  /// defaultCount (measured: IGC's own 192 spilled, the explicit 192 not).
  std::optional<Build> defaultBuild;
  std::vector<BuildGRF> built;

  unsigned getRegisters(BuildGRF mode) const {
    return mode == BuildGRF::Default ? defaultCount
                                     : static_cast<unsigned>(getNRegs(mode));
  }

  /// The build `mode` gets, to set up.
  Build &at(BuildGRF mode) { return counts[getRegisters(mode)]; }

  llvm::Expected<BuildAttempt> operator()(BuildGRF mode) {
    built.push_back(mode);
    unsigned registers = getRegisters(mode);
    Build build = mode == BuildGRF::Default && defaultBuild ? *defaultBuild
                                                            : counts[registers];
    BuildAttempt attempt;
    attempt.mode = mode;
    attempt.buildFlags = getBuildFlags(mode, WorkerBackend::Ocloc, "");
    attempt.spillSize = build.spill;
    KernelMeasurement kernel;
    kernel.name = "k";
    kernel.grfCount = registers;
    kernel.simd = build.simd;
    kernel.spillSize = build.spill;
    kernel.scratchSize = build.scratch.value_or(build.spill);
    attempt.kernels.push_back(kernel);
    return attempt;
  }
};

} // namespace mlir::xpu::test

#endif // XPUCODEGEN_UNITTESTS_NATIVE_FAKEGRFCOMPILER_H
