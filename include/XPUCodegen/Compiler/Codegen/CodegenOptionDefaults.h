//===- CodegenOptionDefaults.h - The list's defaults as constants -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The defaults of CodegenOptions.def as constants, for the structs that
// hold an option with a default of their own (WorkerLimits,
// NativeCodegenOptions), so that each default is written once, in the
// list. It includes nothing of the project: the worker layer uses it.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONDEFAULTS_H
#define XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONDEFAULTS_H

#include <cstdint>
#include <string_view>

namespace mlir::xpu::codegen_option_default {

/// Each option's default as the list writes it, by field.
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  inline constexpr std::string_view FIELD = DEFAULT;
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"

/// A default written as a decimal number (an unsigned option's), as one.
constexpr uint64_t toUnsigned(std::string_view text) {
  uint64_t value = 0;
  for (char digit : text)
    value = value * 10 + uint64_t(digit - '0');
  return value;
}

} // namespace mlir::xpu::codegen_option_default

#endif // XPUCODEGEN_COMPILER_CODEGEN_CODEGENOPTIONDEFAULTS_H
