//===- BoundedJSON.h - JSON from untrusted text, bounded in depth ---------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// llvm::json::parse recurses once per nesting level, so a few megabytes of
// '[' overflow any stack. Text that crosses a file, cache or attribute
// boundary (cache-hit reports, cached records) is scanned first and refused
// beyond a fixed depth; only then does LLVM's parser see it.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_BOUNDEDJSON_H
#define XPUCODEGEN_SUPPORT_BOUNDEDJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir::xpu {

/// The deepest nesting of arrays and objects accepted: a report entry
/// nests four levels; the margin costs nothing.
inline constexpr unsigned kMaxJSONNesting = 64;

/// The nesting depth of `text`'s arrays and objects (brackets inside string
/// literals do not count), without recursion. Stops counting past
/// `limit` and returns limit + 1.
unsigned getJSONNestingDepth(llvm::StringRef text, unsigned limit);

/// llvm::json::parse, refusing text nested deeper than `maxNesting`.
llvm::Expected<llvm::json::Value>
parseBoundedJSON(llvm::StringRef text, unsigned maxNesting = kMaxJSONNesting);

} // namespace mlir::xpu

#endif // XPUCODEGEN_SUPPORT_BOUNDEDJSON_H
