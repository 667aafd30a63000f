//===- CompileCache.h - Persistent content-addressed cache -----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Native builds persist across runs in a directory of files named by their
// build key (a hex SHA-256 over everything that can change the output, see
// NativeCodegenDriver). Every entry carries its key and a checksum over the
// whole file; an entry that is truncated, corrupt or filed under the wrong
// key is a miss, never a wrong binary, and the next store replaces it.
// Writes go to a unique temporary file beside the entry and are renamed into
// place, so concurrent threads and processes only ever see whole entries.
// Reads take only regular files of bounded size and never block or follow
// a symlink. The directory is bounded with LLVM's cache pruning.
// Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_CACHE_COMPILECACHE_H
#define XPUCODEGEN_TARGET_CACHE_COMPILECACHE_H

#include "XPUCodegen/Target/Native/GRFBuild.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

class CompileCache {
public:
  /// The directory for the `cache-dir` option value: "none" disables the
  /// cache (std::nullopt); a non-empty value is used as is; "" falls back to
  /// $XPU_CODEGEN_CACHE_DIR (which may also be "none"), then
  /// $XDG_CACHE_HOME/xpu-codegen (if absolute), then ~/.cache/xpu-codegen,
  /// else disabled.
  static std::optional<std::string> resolveDirectory(llvm::StringRef option);

  /// A cache rooted at `directory`; nothing is created until the first
  /// store.
  explicit CompileCache(llvm::StringRef directory);

  llvm::StringRef getDirectory() const { return directory; }

  /// Where the entry for `key` lives: <dir>/v2/llvmcache-<key>.
  std::string getEntryPath(llvm::StringRef key) const;

  /// The payload stored under `key`, or std::nullopt on a miss: no entry,
  /// or one that fails verification (bad magic or version, another key,
  /// wrong size, checksum mismatch), or a path that is not a regular file
  /// (a FIFO, a device, a symlink) or is larger than any entry. Keys are
  /// lower-case hex, >= 4 digits; any other key is a miss.
  std::optional<std::string> lookup(llvm::StringRef key) const;

  /// The payload of the entry bytes `entry` if they verify as an entry for
  /// `key` (what lookup does after reading the file).
  static std::optional<llvm::StringRef> decodeEntry(llvm::StringRef entry,
                                                    llvm::StringRef key);
  /// The bytes of an entry holding `payload` under `key` (what store
  /// writes).
  static std::string encodeEntry(llvm::StringRef key, llvm::StringRef payload);

  /// Prunes the cache with llvm::pruneCache: least recently used entries go
  /// first once it holds more than `maxSizeBytes` (0: no absolute limit),
  /// more than 75% of the free disk space, or entries unused for a week. At
  /// most every 20 minutes (LLVM's default interval).
  void prune(uint64_t maxSizeBytes) const;

  /// Stores `payload` under `key` atomically, replacing any entry.
  llvm::Error store(llvm::StringRef key, llvm::StringRef payload) const;

  /// Compiler identities, so that a fully cached run starts no compiler
  /// worker. `context` names what selects the compiler (backend, worker
  /// path, environment); the identity is reused while every file in
  /// `files` keeps its size, modification time and inode.
  std::optional<std::string>
  lookupCompilerIdentity(llvm::StringRef context) const;
  llvm::Error storeCompilerIdentity(llvm::StringRef context,
                                    llvm::StringRef identity,
                                    llvm::ArrayRef<std::string> files) const;

private:
  std::string directory;
};

/// The cached form of a build: flags, binary, log and measurements (not the
/// cache status).
std::string serializeBuildAttempt(const BuildAttempt &attempt);
llvm::Expected<BuildAttempt> deserializeBuildAttempt(llvm::StringRef payload);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_CACHE_COMPILECACHE_H
