//===- OutputFile.h - Atomic, write-through output files --------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Outputs (reports, binaries) are written the way a user expects a path to
// be written, whatever is there: through symlinks (the link stays a link,
// its target gets the new contents), atomically for regular files (a
// temporary file in the target's directory renamed onto it, so a reader or
// a crash never sees half a file and a failed write keeps the old one), and
// in place for what is not a regular file (a device such as /dev/null or
// /dev/full, a FIFO with a reader), which is never replaced by a file.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_OUTPUTFILE_H
#define XPUCODEGEN_COMPILER_CODEGEN_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::xpu {

/// Where writing `path` really goes: `path` with every symlink (also in a
/// chain, also dangling) resolved; an error for a link loop.
llvm::Expected<std::string> resolveOutputPath(llvm::StringRef path);

/// Writes `contents` to `path` as described above. Errors give the reason
/// (e.g. "No space left on device"); the caller names the path.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef contents);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_OUTPUTFILE_H
