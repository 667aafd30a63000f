//===- LocalCacheSafety.h - The local tier on shared machines ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// ssh's rule for its key files, applied to the local cache: a directory or
// entry that another user could have written is not trusted. It must belong
// to this user (or root) and be writable by no group and no other user.
// CompileCache refuses what fails the rule with one warning per directory
// and process (the local tier is then skipped, or the entry is a miss).
// Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_LOCALCACHESAFETY_H
#define XPUCODEGEN_COMPILER_CACHE_LOCALCACHESAFETY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace mlir::xpu {

/// Whether the status `st` of `path` (a "cache directory" or "cache entry",
/// `what`) passes the rule; the error says who else can write it.
llvm::Error checkNotForeignWritable(const struct stat &st, llvm::StringRef path,
                                    llvm::StringRef what);

/// The cache directory `directory` and its layout directory `layoutDir`, if
/// they are directories (following symbolic links: where they point must pass).
llvm::Error checkCacheDirectories(llvm::StringRef directory,
                                  llvm::StringRef layoutDir);

/// The local tier's one warning per directory and process.
class LocalCacheWarnings {
public:
  /// The process-wide state of `directory`. Never destroyed.
  static std::shared_ptr<LocalCacheWarnings> get(llvm::StringRef directory);

  /// Records `error`'s refusal, the first time only.
  void refuse(llvm::Error error);
  std::vector<std::string> take();

private:
  std::mutex mutex;
  bool warned = false;
  std::vector<std::string> warnings;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_LOCALCACHESAFETY_H
