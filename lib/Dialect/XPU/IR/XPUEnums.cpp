//===- XPUEnums.cpp - The xpu dialect's enums, without MLIR IR ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <string>

using namespace mlir;
using namespace mlir::xpu;

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.cpp.inc"

unsigned mlir::xpu::getGRFModeRegisters(GRFMode mode) {
  switch (mode) {
  case GRFMode::Auto:
  case GRFMode::Default:
    return 0;
  case GRFMode::Small:
    return 128;
  case GRFMode::Large:
    return 256;
  case GRFMode::XLarge:
    return 512;
  case GRFMode::Regs32:
  case GRFMode::Regs64:
  case GRFMode::Regs96:
  case GRFMode::Regs160:
  case GRFMode::Regs192:
    // The count is the case's spelling.
    return static_cast<unsigned>(std::stoul(stringifyGRFMode(mode).str()));
  }
  llvm_unreachable("unknown GRF mode");
}

std::optional<GRFMode> mlir::xpu::getGRFModeForRegisters(unsigned registers) {
  // 0 is what auto and default pin, not a count.
  if (registers == 0)
    return std::nullopt;
  for (uint32_t value = 0; value <= getMaxEnumValForGRFMode(); ++value) {
    GRFMode mode = static_cast<GRFMode>(value);
    if (getGRFModeRegisters(mode) == registers)
      return mode;
  }
  return std::nullopt;
}
