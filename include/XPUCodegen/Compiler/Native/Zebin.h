//===- Zebin.h - Read Intel GPU native binaries (zebin) ---------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A zebin is an ELF file (machine EM_INTELGT) with one .text.<kernel> section
// per kernel and a .ze_info YAML section describing each kernel's execution
// environment. It is read with LLVM's ELF reader and YAML parser.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_NATIVE_ZEBIN_H
#define XPUCODEGEN_COMPILER_NATIVE_ZEBIN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

/// What a zebin says about one kernel.
struct ZebinKernel {
  std::string name;
  /// execution_env.grf_count: registers per thread the binary uses.
  int64_t grfCount = 0;
  /// execution_env.simd_size.
  int64_t simd = 0;
  /// Sum of per_thread_memory_buffers of type scratch (spills and private
  /// arrays share it).
  int64_t scratchSize = 0;
  /// Sum of per_thread_memory_buffers of type private, per hardware thread
  /// (a buffer marked is_simt_thread is per lane and is scaled by simd).
  int64_t privateSize = 0;
  /// execution_env.spill_size where the compiler writes it (newer IGC).
  std::optional<int64_t> spillSize;
  /// Size of the kernel's .text section in bytes.
  int64_t codeSize = 0;
};

struct ZebinInfo {
  /// .ze_info `version`, e.g. "1.20".
  std::string zeInfoVersion;
  std::vector<ZebinKernel> kernels;
  /// Whether this .ze_info format has execution_env.spill_size (version 1.39
  /// and later, IGC's zebin spec): a kernel without it then spills nothing.
  /// IGC 1.0.12504 writes 1.20, IGC 2.40 1.73.
  bool hasSpillSizeField() const;
};

/// Reads `binary`; a buffer that is not a zebin (not ELF, no or malformed
/// .ze_info) is an error describing what is wrong.
llvm::Expected<ZebinInfo> readZebin(llvm::StringRef binary);

/// Calls `visit` with every section of the ELF64 little-endian `binary`
/// and its name, in order; stops at the first error (of the ELF reader or
/// of `visit`).
llvm::Error forEachZebinSection(
    llvm::StringRef binary,
    llvm::function_ref<llvm::Error(const llvm::object::ELF64LEFile &,
                                   const llvm::object::ELF64LE::Shdr &,
                                   llvm::StringRef name)>
        visit);

/// True when `binary` is an ELF file without any `.text.<kernel>` section or
/// without a `.symtab`: what some IGC versions write, with a success exit
/// code, when a kernel overflows the per-thread scratch space.
bool isDegenerateZebin(llvm::StringRef binary);

/// Parses the YAML text of a .ze_info section (what readZebin does after
/// finding the section; codeSize stays 0). Any malformed input is an error.
llvm::Expected<ZebinInfo> parseZeInfo(llvm::StringRef zeInfo);

/// The names of the sections whose contents differ between two ELF files
/// (or that only one has), sorted; "ELF headers" when the sections agree but
/// the files do not. Empty for identical files.
llvm::Expected<std::vector<std::string>>
getDifferingSections(llvm::StringRef first, llvm::StringRef second);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_NATIVE_ZEBIN_H
