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
// a symlink; a directory or entry another user can write is refused with
// one warning (LocalCacheSafety.h). The directory is bounded with LLVM's
// cache pruning.
//
// An optional shared tier (SharedCache.h, a Redis server) sits behind the
// directory: lookups go local, then shared (a shared entry is verified
// exactly like a local one and copied into the directory); stores go to
// both. Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_COMPILECACHE_H
#define XPUCODEGEN_COMPILER_CACHE_COMPILECACHE_H

#include "XPUCodegen/Compiler/Cache/LocalCacheSafety.h"
#include "XPUCodegen/Compiler/Cache/SharedCache.h"
#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
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

  /// The cache for the `cache-dir` and `cache-url` option values and the
  /// shared tier's security options (resolveDirectory, resolveSharedCache;
  /// empty security fields: the environment's): std::nullopt when the
  /// directory is disabled; an error for an invalid URL, key or secret file
  /// (or environment setting). Every user of the cache should open it this
  /// way, so that it gets the shared tier too.
  static llvm::Expected<std::optional<CompileCache>>
  open(llvm::StringRef cacheDir, llvm::StringRef cacheUrl,
       const SharedCacheSecurity &security = {});

  /// A cache rooted at `directory`, with `shared` (if any) as its second
  /// tier; nothing is created until the first store.
  explicit CompileCache(llvm::StringRef directory,
                        std::shared_ptr<SharedCacheTier> shared = nullptr);

  llvm::StringRef getDirectory() const { return directory; }
  SharedCacheTier *getSharedTier() const { return shared.get(); }

  /// Where the entry for `key` lives: <dir>/v2/llvmcache-<key>.
  std::string getEntryPath(llvm::StringRef key) const;

  /// The payload stored under `key`, or std::nullopt on a miss: no entry,
  /// or one that fails verification (bad magic or version, another key,
  /// wrong size, checksum mismatch), or a path that is not a regular file
  /// (a FIFO, a device, a symlink) or is larger than any entry. Keys are
  /// lower-case hex, >= 4 digits; any other key is a miss. Then, with a
  /// shared tier, its value for `key`, verified the same way (any failure
  /// is a miss) and copied into the directory. `fromShared` (if given)
  /// says whether the payload came from the shared tier.
  std::optional<std::string> lookup(llvm::StringRef key,
                                    bool *fromShared = nullptr) const;

  /// lookup(), and on a miss with a shared tier that has single flight: the
  /// first process to claim `key` gets std::nullopt and builds it (its
  /// store() or releaseClaim() ends the claim); the others wait up to the
  /// lock time for that entry, then get std::nullopt and build too.
  std::optional<std::string> lookupOrClaim(llvm::StringRef key,
                                           bool *fromShared = nullptr) const;
  /// Ends this process's claim on `key` without storing (a failed build).
  void releaseClaim(llvm::StringRef key) const;

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

  /// Stores `payload` under `key` atomically, replacing any entry, then in
  /// the shared tier (whose failures only warn, see takeWarnings) and ends
  /// a claim on `key`. The error is the directory's.
  llvm::Error store(llvm::StringRef key, llvm::StringRef payload) const;

  /// The local tier's one warning (a directory or entry another user can
  /// write) and the shared tier's, of this process, once.
  std::vector<std::string> takeWarnings() const;

  /// What the shared tier earned, against which its commands' time is
  /// budgeted (SharedCacheBudget.h): a hit from it that saved a build of
  /// `savedMs`; a build of `builtMs` whose entry it keeps for others.
  void creditSharedHit(double savedMs) const;
  void creditStoredBuild(double builtMs) const;

  /// Connects to the shared tier, if any, before the first lookup needs it.
  void connectSharedAhead() const;

  /// Compiler identities, so that a fully cached run starts no compiler
  /// worker. `context` names what selects the compiler (backend, worker
  /// path, environment); the identity is reused while every file in
  /// `files` keeps its size, modification time and inode.
  ///
  /// `portable`: the identity depends only on the contents of `files` (not
  /// on the machine's devices), so the shared tier keeps it too, with each
  /// file's size and BLAKE3; another machine with the same context takes
  /// it once every file it names has those contents there (and then keeps
  /// it locally).
  std::optional<std::string>
  lookupCompilerIdentity(llvm::StringRef context, bool portable = false) const;
  llvm::Error storeCompilerIdentity(llvm::StringRef context,
                                    llvm::StringRef identity,
                                    llvm::ArrayRef<std::string> files,
                                    bool portable = false) const;

private:
  std::optional<std::string> lookupLocal(llvm::StringRef key) const;
  llvm::Error storeLocal(llvm::StringRef key, llvm::StringRef payload) const;
  std::optional<std::string> lookupShared(llvm::StringRef key) const;
  std::optional<std::string>
  lookupSharedIdentity(llvm::StringRef context) const;
  void storeSharedIdentity(llvm::StringRef context, llvm::StringRef identity,
                           llvm::ArrayRef<std::string> files) const;
  llvm::Error storeLocalIdentity(llvm::StringRef context,
                                 llvm::StringRef identity,
                                 llvm::ArrayRef<std::string> files) const;

  /// Whether the directory passes the ssh rule (LocalCacheSafety.h).
  bool isDirectoryTrusted() const;

  std::string directory;
  std::shared_ptr<SharedCacheTier> shared;
  std::shared_ptr<LocalCacheWarnings> localWarnings;
};

/// The cached form of a build: flags, binary, log and measurements (not the
/// cache status).
std::string serializeBuildAttempt(const BuildAttempt &attempt);
llvm::Expected<BuildAttempt> deserializeBuildAttempt(llvm::StringRef payload);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_COMPILECACHE_H
