//===- SPIRVModuleInfo.h - Facts read from a SPIR-V binary ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The kernel-level facts the GRF decision and the report need from a SPIR-V
// module made anywhere (this project, LLVM, Triton, clang): each kernel's
// required sub-group size and work-group size. Read with SPIRV-Tools' binary
// parser, so malformed input is an error, never an out-of-bounds read.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_SPIRV_SPIRVMODULEINFO_H
#define XPUCODEGEN_COMPILER_SPIRV_SPIRVMODULEINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

/// One `OpEntryPoint Kernel` and its execution modes.
struct SPIRVKernelInfo {
  std::string name;
  /// `OpExecutionMode SubgroupSize`, when the kernel requires one.
  std::optional<uint32_t> subgroupSize;
  /// `OpExecutionMode LocalSize` (reqd_work_group_size), when present.
  std::optional<std::array<uint32_t, 3>> localSize;
};

struct SPIRVModuleInfo {
  std::vector<SPIRVKernelInfo> kernels;
};

/// The sub-group size all of `kernels` require, 0 when none of them
/// requires one; std::nullopt when they differ (or there are no kernels):
/// the module-level `subgroup_size` of reports and properties.
std::optional<uint32_t>
getCommonRequiredSubgroupSize(llvm::ArrayRef<SPIRVKernelInfo> kernels);

/// Reads the kernels of a SPIR-V binary (either byte order). Fails on input
/// that SPIRV-Tools cannot parse.
llvm::Expected<SPIRVModuleInfo> readSPIRVModuleInfo(llvm::ArrayRef<char> spirv);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_SPIRV_SPIRVMODULEINFO_H
