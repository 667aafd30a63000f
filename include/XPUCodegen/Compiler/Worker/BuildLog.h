//===- BuildLog.h - A compiler's log, bounded for people --------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A compiler may print hundreds of megabytes (a warning per instruction).
// The host parses the whole log for its facts (spill warnings, scratch
// overflows), then keeps only a bounded excerpt wherever the log goes on:
// error messages, diagnostics, the report and cache entries.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_WORKER_BUILDLOG_H
#define XPUCODEGEN_COMPILER_WORKER_BUILDLOG_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace mlir::xpu {

/// Bytes kept from each end of a log that is too long.
constexpr size_t kBuildLogEndBytes = size_t(32) << 10;

/// `log` itself when it has at most 2 * `endBytes` bytes; otherwise its
/// first and last `endBytes` at most, cut at line ends where there is one
/// (never inside a UTF-8 character), joined by a line saying how many
/// bytes were dropped.
std::string boundBuildLog(llvm::StringRef log,
                          size_t endBytes = kBuildLogEndBytes);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_WORKER_BUILDLOG_H
