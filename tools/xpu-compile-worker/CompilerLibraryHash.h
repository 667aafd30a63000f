//===- CompilerLibraryHash.h - Identify a compiler library ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERLIBRARYHASH_H
#define XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERLIBRARYHASH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::xpu::worker {

/// A hash of what identifies the compiler library at `path`: its ELF build
/// ID and size when it has one, else its contents.
llvm::Expected<uint64_t> hashCompilerLibrary(llvm::StringRef path);

} // namespace mlir::xpu::worker

#endif // XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERLIBRARYHASH_H
