//===- SharedCache.h - Redis tier behind the local cache --------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The shared second tier of CompileCache (`cache-url=redis://host:port[/db]`,
// $XPU_CODEGEN_CACHE_URL): whole verified cache entries as Redis string
// values, so that a team or a CI fleet compiles each kernel once. One
// SharedCacheTier per URL and process holds the connections, the failure
// state, the budget and the one warning: a server that cannot be reached
// or fails is left alone for a while (local cache only) and the process
// warns once; a server whose commands cost more than the tier saves is
// dropped (SharedCacheBudget.h); no compile ever fails or hangs for it. Every
// command has a deadline and a bound on what it reads; values are only ever
// used after CompileCache verified them exactly like local entries. With
// credentials the connections AUTH as an ACL user, rediss:// runs TLS, and
// with keys values are signed and checked (EntrySigning.h). Independent
// of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_SHAREDCACHE_H
#define XPUCODEGEN_COMPILER_CACHE_SHAREDCACHE_H

#include "XPUCodegen/Compiler/Cache/EntrySigning.h"
#include "XPUCodegen/Compiler/Cache/RedisClient.h"
#include "XPUCodegen/Compiler/Cache/SharedCacheBudget.h"
#include "XPUCodegen/Compiler/Cache/SharedCacheConfig.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

class SharedCacheTier {
public:
  /// The process-wide tier for `config` (by URL and settings). Never
  /// destroyed: threads still compiling at exit may use it.
  static std::shared_ptr<SharedCacheTier> get(const SharedCacheConfig &config);

  const SharedCacheConfig &getConfig() const { return config; }

  /// The value of `key`; std::nullopt when there is none, when it is larger
  /// than maxValueBytes (the connection is dropped unread), when the
  /// server is unavailable, or, with a trust list, when it is not signed
  /// for `key` by a trusted key (one warning naming the server, the entry
  /// and the signer). A signature envelope is removed.
  std::optional<std::string> getValue(llvm::StringRef key);
  /// SET `key` `value` (a whole value: readers see the old or the new one),
  /// signed for `key` with a signing key. Values over maxValueBytes are not
  /// sent. Failures only warn (once); a server that refuses writes (a
  /// read-only ACL user) is not written to again.
  void setValue(llvm::StringRef key, llvm::StringRef value);

  /// Single flight: SET `lock` NX PX lockTime. True when this process now
  /// holds `lock`; false when someone else does or the server is
  /// unavailable (then `available` is false).
  bool tryLock(llvm::StringRef lock, bool &available);
  /// Releases `lock` if this process holds it (compare and delete).
  void unlock(llvm::StringRef lock);
  /// Whether `key` exists; std::nullopt when the server is unavailable.
  std::optional<bool> exists(llvm::StringRef key);
  /// Opens a connection now, when none is open, so that the first command
  /// does not wait for the handshake. Fails as a command would.
  void connectAhead();

  /// Credits the budget with a hit of this tier that saved a build of
  /// `saved`, or with a build of `built` whose entry it keeps for others.
  void creditHit(std::chrono::steady_clock::duration saved);
  void creditStoredBuild(std::chrono::steady_clock::duration built);

  /// False while the server is considered unavailable, and for good once
  /// the budget is spent.
  bool isAvailable();
  /// False once the server refused a write (a read-only ACL user).
  bool isWritable();

  /// This process's one warning about the tier (unreachable, failing,
  /// refusing stores, too slow for its budget), once; then nothing.
  std::vector<std::string> takeWarnings();

  explicit SharedCacheTier(const SharedCacheConfig &config);

private:
  friend struct SharedCacheRegistry;
  enum class Outcome { Reply, TooLarge, Unavailable };
  /// Runs one command within the budget.
  Outcome run(llvm::ArrayRef<llvm::StringRef> args, unsigned accepted,
              uint64_t maxReplyBytes, RedisReply &reply);
  /// Runs one command on an idle or new connection within `timeout`.
  llvm::Expected<RedisReply>
  runOnConnection(llvm::ArrayRef<llvm::StringRef> args, unsigned accepted,
                  uint64_t maxReplyBytes, std::chrono::milliseconds timeout);
  /// How many connections this tier opens at most.
  size_t getMaxConnections() const;
  /// An idle connection, or a new one while fewer than the most are open,
  /// waiting for one to be returned until `deadline`.
  llvm::Expected<std::unique_ptr<RedisConnection>>
  checkOutConnection(std::chrono::steady_clock::time_point deadline);
  /// Returns a checked-out connection: kept idle, or null when dropped.
  void checkInConnection(std::unique_ptr<RedisConnection> connection);
  void markFailed(const std::string &message, bool permanent);
  /// An error reply: a refused write (NOPERM) stops writing.
  void noteErrorReply(llvm::StringRef command, llvm::StringRef message);
  void refuseValue(llvm::StringRef key, const OpenedValue &opened);
  void warnOnce(const std::string &message);
  void dropConnectionsAfterFork();

  SharedCacheConfig config;
  SharedCacheBudget budget;
  std::mutex mutex;
  std::vector<std::unique_ptr<RedisConnection>> idle;
  /// Connections checked out (in use, or connecting).
  size_t busy = 0;
  /// Signalled when a checked-out connection is returned or dropped.
  std::condition_variable returned;
  std::chrono::steady_clock::time_point unavailableUntil{};
  bool warned = false;
  /// The server refused a write: no more writes or locks.
  bool writesRefused = false;
  /// The one warning about a value's signature.
  bool warnedSignature = false;
  std::vector<std::string> warnings;
  /// Locks this process holds, with their tokens.
  llvm::StringMap<std::string> locks;
  int ownerPid;
};

/// A compiler-identity record that another machine can verify: the
/// identity, what selected the compiler (`context`) and the contents
/// (size and BLAKE3) of every file the compiler had mapped.
std::string encodeSharedIdentity(llvm::StringRef context,
                                 llvm::StringRef identity,
                                 llvm::ArrayRef<std::string> files,
                                 std::string &error);
/// The identity of `record` if its context is `context` and every file it
/// names is, on this machine, a regular file of the recorded size and
/// contents; its file list in `files`.
std::optional<std::string>
verifySharedIdentity(llvm::StringRef record, llvm::StringRef context,
                     std::vector<std::string> &files);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_SHAREDCACHE_H
