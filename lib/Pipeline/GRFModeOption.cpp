//===- GRFModeOption.cpp - The spellings of grf-mode options --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// One list for every pass and pipeline option named `grf-mode`, so that a
// spelling accepted by one is accepted by all.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Passes.h"

using namespace mlir::xpu;

llvm::cl::ValuesClass mlir::xpu::getGRFModeOptionValues() {
  return llvm::cl::values(
      clEnumValN(GRFMode::Small, "small", "128 registers per thread"),
      clEnumValN(GRFMode::Large, "large", "256 registers per thread"),
      clEnumValN(GRFMode::Auto, "auto", "decided from measured builds"),
      clEnumValN(GRFMode::Default, "default", "no GRF flag (device default)"),
      clEnumValN(GRFMode::XLarge, "xlarge", "512 registers per thread (cri)"),
      clEnumValN(GRFMode::Small, "128", "small"),
      clEnumValN(GRFMode::Large, "256", "large"),
      clEnumValN(GRFMode::XLarge, "512", "xlarge"),
      clEnumValN(GRFMode::Regs32, "32", "32 registers per thread (Xe3, Xe3P)"),
      clEnumValN(GRFMode::Regs64, "64", "64 registers per thread (Xe3, Xe3P)"),
      clEnumValN(GRFMode::Regs96, "96", "96 registers per thread (Xe3, Xe3P)"),
      clEnumValN(GRFMode::Regs160, "160",
                 "160 registers per thread (Xe3, Xe3P)"),
      clEnumValN(GRFMode::Regs192, "192",
                 "192 registers per thread (Xe3, Xe3P)"));
}
