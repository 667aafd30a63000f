//===- SharedCache.cpp - Redis tier behind the local cache ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/SharedCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/BinaryByteStream.h"
#include "llvm/Support/BinaryStreamReader.h"
#include "llvm/Support/BinaryStreamWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <fcntl.h>
#include <pthread.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;
using Clock = std::chrono::steady_clock;

namespace {
/// How long an unavailable server is left alone before the next try.
constexpr auto kRetryAfter = std::chrono::seconds(30);
/// Idle connections kept per tier.
constexpr size_t kMaxIdle = 16;
} // namespace

//===----------------------------------------------------------------------===//
// The process-wide tiers
//===----------------------------------------------------------------------===//

namespace mlir::xpu {
/// Tiers by URL and settings, never destroyed. A forked child never uses
/// its parent's connections (they share sockets): fork() holds every tier's
/// lock, and the child drops the connections it inherited.
struct SharedCacheRegistry {
  std::mutex mutex;
  StringMap<std::shared_ptr<SharedCacheTier>> tiers;

  static SharedCacheRegistry &get() {
    static SharedCacheRegistry *registry = [] {
      static SharedCacheRegistry *created = new SharedCacheRegistry();
      ::pthread_atfork(
          [] {
            created->mutex.lock();
            for (auto &entry : created->tiers)
              entry.second->mutex.lock();
          },
          [] {
            for (auto &entry : created->tiers)
              entry.second->mutex.unlock();
            created->mutex.unlock();
          },
          [] {
            for (auto &entry : created->tiers) {
              entry.second->dropConnectionsAfterFork();
              entry.second->mutex.unlock();
            }
            created->mutex.unlock();
          });
      return created;
    }();
    return *registry;
  }
};
} // namespace mlir::xpu

std::shared_ptr<SharedCacheTier>
SharedCacheTier::get(const SharedCacheConfig &config) {
  SharedCacheRegistry &registry = SharedCacheRegistry::get();
  std::string id = getSharedCacheConfigId(config);
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::shared_ptr<SharedCacheTier> &tier = registry.tiers[id];
  if (!tier)
    tier = std::make_shared<SharedCacheTier>(config);
  return tier;
}

SharedCacheTier::SharedCacheTier(const SharedCacheConfig &config)
    : config(config), budget(config.budgetAllowance), ownerPid(::getpid()) {}

void SharedCacheTier::dropConnectionsAfterFork() {
  // The sockets are the parent's too: close only this process's
  // descriptors (nothing is sent), and forget the parent's locks. The
  // parent's other threads, and the connections they held, are not here.
  idle.clear();
  busy = 0;
  locks.clear();
  ownerPid = ::getpid();
}

void SharedCacheTier::warnOnce(const std::string &message) {
  if (std::exchange(warned, true))
    return;
  warnings.push_back(message);
}

void SharedCacheTier::markFailed(const std::string &message, bool permanent) {
  idle.clear();
  // Refused credentials stay refused: no retry.
  unavailableUntil =
      permanent ? Clock::time_point::max() : Clock::now() + kRetryAfter;
  // (`message` names the server, never the password.)
  warnOnce("shared compile cache unavailable (" + message +
           "): using the local cache only");
}

void SharedCacheTier::noteErrorReply(StringRef command, StringRef message) {
  // An ACL user without write permission (NOPERM) or a server that is
  // read-only (a replica): reads go on, writes and locks stop.
  bool writeRefused =
      command != "GET" && command != "EXISTS" &&
      (message.starts_with("NOPERM") || message.starts_with("READONLY"));
  if (writeRefused) {
    writesRefused = true;
    warnOnce(formatv("shared compile cache {0} refused {1} ({2}): reading "
                     "only; builds of this process are not shared",
                     config.url.str(), command, message)
                 .str());
    return;
  }
  warnOnce(formatv("shared compile cache {0} refused {1} ({2}): builds "
                   "that need it are not shared",
                   config.url.str(), command, message)
               .str());
}

bool SharedCacheTier::isAvailable() {
  std::lock_guard<std::mutex> lock(mutex);
  return Clock::now() >= unavailableUntil && !budget.isSpent();
}

void SharedCacheTier::creditHit(Clock::duration saved) {
  budget.creditHit(saved);
}

void SharedCacheTier::creditStoredBuild(Clock::duration built) {
  budget.creditStoredBuild(built);
}

std::vector<std::string> SharedCacheTier::takeWarnings() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::exchange(warnings, {});
}

SharedCacheTier::Outcome SharedCacheTier::run(ArrayRef<StringRef> args,
                                              unsigned accepted,
                                              uint64_t maxReplyBytes,
                                              RedisReply &reply) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (ownerPid != ::getpid())
      dropConnectionsAfterFork();
    if (Clock::now() < unavailableUntil)
      return Outcome::Unavailable;
  }
  Clock::time_point start = Clock::now();
  std::optional<std::chrono::milliseconds> allowed = budget.begin(start);
  if (!allowed)
    return Outcome::Unavailable;
  Expected<RedisReply> result =
      runOnConnection(args, accepted, maxReplyBytes, *allowed);
  Clock::time_point end = Clock::now();
  bool spentNow = budget.end(start, end);
  // A slow server that ran into the budget is not a failing one.
  bool ranIntoBudget = end - start >= *allowed;
  std::lock_guard<std::mutex> lock(mutex);
  if (spentNow) {
    idle.clear();
    warned = true;
    warnings.push_back(formatv("shared compile cache {0} is too slow: {1}; "
                               "using the local cache only from now on",
                               config.url.str(), budget.describe())
                           .str());
  }
  if (!result) {
    Outcome outcome = Outcome::Unavailable;
    handleAllErrors(
        result.takeError(),
        [&](const RedisReplyTooLargeError &) { outcome = Outcome::TooLarge; },
        [&](const RedisAuthError &error) {
          markFailed(error.message, /*permanent=*/true);
        },
        [&](const ErrorInfoBase &error) {
          if (!spentNow && !ranIntoBudget)
            markFailed(error.message(), /*permanent=*/false);
        });
    return outcome;
  }
  reply = std::move(*result);
  if (reply.kind == RedisReply::Kind::Error)
    noteErrorReply(args.front(), reply.str);
  return Outcome::Reply;
}

size_t SharedCacheTier::getMaxConnections() const {
  // A TLS handshake costs milliseconds of key exchange and certificate
  // checks, more than the short commands of this tier: with TLS, commands
  // take turns on one connection.
  return config.url.tls ? 1 : kMaxIdle;
}

Expected<std::unique_ptr<RedisConnection>>
SharedCacheTier::checkOutConnection(Clock::time_point deadline) {
  {
    std::unique_lock<std::mutex> lock(mutex);
    if (!returned.wait_until(lock, deadline, [&] {
          return !idle.empty() || busy + idle.size() < getMaxConnections();
        }))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("{0}: timed out waiting for a connection", config.url.str()));
    // The connection waited for failed: the tier is left alone for a
    // while, not tried once per waiting thread.
    if (Clock::now() < unavailableUntil)
      return createStringError(inconvertibleErrorCode(),
                               formatv("{0}: unavailable", config.url.str()));
    ++busy;
    if (!idle.empty()) {
      std::unique_ptr<RedisConnection> connection = std::move(idle.back());
      idle.pop_back();
      return std::move(connection);
    }
  }
  RedisTimeouts timeouts = config.timeouts;
  timeouts.connect = std::min(
      timeouts.connect,
      std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()));
  Expected<std::unique_ptr<RedisConnection>> connected =
      RedisConnection::connect(config.url, timeouts, config.security.tls);
  if (!connected)
    checkInConnection(nullptr);
  return connected;
}

void SharedCacheTier::checkInConnection(
    std::unique_ptr<RedisConnection> connection) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    --busy;
    if (connection && idle.size() < kMaxIdle && ownerPid == ::getpid() &&
        !budget.isSpent())
      idle.push_back(std::move(connection));
  }
  returned.notify_one();
}

Expected<RedisReply>
SharedCacheTier::runOnConnection(ArrayRef<StringRef> args, unsigned accepted,
                                 uint64_t maxReplyBytes,
                                 std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  Expected<std::unique_ptr<RedisConnection>> connection =
      checkOutConnection(deadline);
  if (!connection)
    return connection.takeError();
  if (args.empty()) { // Connecting ahead: no command.
    checkInConnection(std::move(*connection));
    return RedisReply();
  }
  Expected<RedisReply> result =
      (*connection)
          ->command(args, accepted, maxReplyBytes,
                    std::chrono::ceil<std::chrono::milliseconds>(deadline -
                                                                 Clock::now()));
  // A connection that failed mid-command is out of step: drop it.
  checkInConnection(result ? std::move(*connection) : nullptr);
  return result;
}

void SharedCacheTier::refuseValue(StringRef key, const OpenedValue &opened) {
  std::lock_guard<std::mutex> lock(mutex);
  if (std::exchange(warnedSignature, true))
    return;
  std::string why;
  switch (opened.status) {
  case SealStatus::Unsigned:
    why = "is not signed";
    break;
  case SealStatus::UntrustedKey:
    why = "is signed by " + opened.signer + ", a key not in cache-trust";
    break;
  default:
    why = "has a signature by " + opened.signer +
          " that does not cover it (altered, or copied from another key)";
    break;
  }
  warnings.push_back(formatv("shared compile cache {0}: entry '{1}' {2}; not "
                             "used (built here instead)",
                             config.url.str(), key, why)
                         .str());
}

std::optional<std::string> SharedCacheTier::getValue(StringRef key) {
  RedisReply reply;
  // Room for a signature envelope beyond the largest value.
  if (run({"GET", key}, RedisString | RedisNil, config.maxValueBytes + 1024,
          reply) != Outcome::Reply ||
      reply.kind != RedisReply::Kind::String)
    return std::nullopt;
  OpenedValue opened = openSealedValue(config.trust.get(), key, reply.str);
  if (opened.status != SealStatus::Accepted) {
    refuseValue(key, opened);
    return std::nullopt;
  }
  if (opened.value.size() > config.maxValueBytes)
    return std::nullopt;
  if (opened.value.size() == reply.str.size())
    return std::move(reply.str);
  return opened.value.str();
}

void SharedCacheTier::setValue(StringRef key, StringRef value) {
  if (value.size() > config.maxValueBytes || !isWritable())
    return;
  std::string sealed;
  if (config.signer)
    sealed = config.signer->seal(key, value);
  RedisReply reply;
  (void)run({"SET", key, config.signer ? StringRef(sealed) : value},
            RedisStatus, 64 * 1024, reply);
}

bool SharedCacheTier::isWritable() {
  std::lock_guard<std::mutex> lock(mutex);
  return !writesRefused;
}

std::optional<bool> SharedCacheTier::exists(StringRef key) {
  RedisReply reply;
  if (run({"EXISTS", key}, RedisInteger, 64 * 1024, reply) != Outcome::Reply ||
      reply.kind != RedisReply::Kind::Integer)
    return std::nullopt;
  return reply.integer != 0;
}

void SharedCacheTier::connectAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (busy || !idle.empty())
      return;
  }
  RedisReply reply;
  (void)run({}, RedisStatus, 0, reply);
}

bool SharedCacheTier::tryLock(StringRef lock, bool &available) {
  // Who cannot write cannot claim a build either: build without waiting.
  available = isWritable();
  if (!available)
    return false;
  static std::mutex randomMutex;
  std::string token;
  {
    std::lock_guard<std::mutex> guard(randomMutex);
    static std::mt19937_64 random(std::random_device{}());
    token = formatv("{0:x}-{1:x16}{2:x16}", ::getpid(), random(), random());
  }
  std::string ms = std::to_string(config.lockTime.count());
  RedisReply reply;
  Outcome outcome = run({"SET", lock, token, "NX", "PX", ms},
                        RedisStatus | RedisNil, 64 * 1024, reply);
  if (outcome != Outcome::Reply || reply.kind == RedisReply::Kind::Error) {
    available = false;
    return false;
  }
  if (!reply.isStatus("OK"))
    return false;
  std::lock_guard<std::mutex> guard(mutex);
  locks[lock] = std::move(token);
  return true;
}

void SharedCacheTier::unlock(StringRef lock) {
  std::string token;
  {
    std::lock_guard<std::mutex> guard(mutex);
    auto it = locks.find(lock);
    if (it == locks.end())
      return;
    token = std::move(it->second);
    locks.erase(it);
  }
  // Delete the lock only if it is still ours (it may have expired and been
  // taken by another process).
  static constexpr StringLiteral kCompareAndDelete =
      "if redis.call('get', KEYS[1]) == ARGV[1] then "
      "return redis.call('del', KEYS[1]) else return 0 end";
  RedisReply reply;
  (void)run({"EVAL", kCompareAndDelete, "1", lock, token}, RedisInteger,
            64 * 1024, reply);
}

//===----------------------------------------------------------------------===//
// Shared compiler identities
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kSharedIdentityVersion = 1;
/// Bounds of a record: the compiler maps tens of files.
constexpr uint32_t kMaxIdentityFiles = 4096;
constexpr uint32_t kMaxString = 64 * 1024;
/// Larger files are not libraries we would read.
constexpr uint64_t kMaxIdentityFileSize = uint64_t(4) << 30;
constexpr uint64_t kMaxIdentityBytes = uint64_t(8) << 30;

/// Size and BLAKE3 of the regular file at `path`. The path may come from
/// the server: a symlink, a FIFO, a device or a huge file is never read.
std::optional<std::pair<uint64_t, std::string>>
getFileDigest(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  sys::fs::file_t file = sys::fs::convertFDToNativeFile(fd);
  scope_exit closeFile([&] { sys::fs::closeFile(file); });
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      uint64_t(st.st_size) > kMaxIdentityFileSize)
    return std::nullopt;
  uint64_t size = uint64_t(st.st_size);
  BLAKE3 hasher;
  if (size) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getOpenFile(
        file, path, size, /*RequiresNullTerminator=*/false);
    if (!buffer)
      return std::nullopt;
    hasher.update((*buffer)->getBuffer());
  }
  BLAKE3Result<> digest = hasher.final();
  return std::make_pair(size, std::string(digest.begin(), digest.end()));
}

Error writeString(BinaryStreamWriter &writer, StringRef text) {
  if (Error error = writer.writeInteger<uint32_t>(text.size()))
    return error;
  return writer.writeFixedString(text);
}

bool readString(BinaryStreamReader &reader, StringRef &text) {
  uint32_t size;
  if (errorToBool(reader.readInteger(size)) || size > kMaxString)
    return false;
  return !errorToBool(reader.readFixedString(text, size));
}
} // namespace

std::string mlir::xpu::encodeSharedIdentity(StringRef context,
                                            StringRef identity,
                                            ArrayRef<std::string> files,
                                            std::string &error) {
  if (files.empty() || files.size() > kMaxIdentityFiles) {
    error = "no files or too many files to identify the compiler by";
    return {};
  }
  AppendingBinaryByteStream stream(llvm::endianness::little);
  BinaryStreamWriter writer(stream);
  auto write = [&]() -> Error {
    if (Error e = writer.writeInteger<uint32_t>(kSharedIdentityVersion))
      return e;
    if (Error e = writeString(writer, context))
      return e;
    if (Error e = writeString(writer, identity))
      return e;
    if (Error e = writer.writeInteger<uint32_t>(files.size()))
      return e;
    for (const std::string &path : files) {
      std::optional<std::pair<uint64_t, std::string>> digest =
          getFileDigest(path);
      if (!digest)
        return createStringError(inconvertibleErrorCode(),
                                 "cannot read '" + path + "'");
      if (Error e = writeString(writer, path))
        return e;
      if (Error e = writer.writeInteger<uint64_t>(digest->first))
        return e;
      if (Error e = writer.writeFixedString(digest->second))
        return e;
    }
    return Error::success();
  };
  if (Error e = write()) {
    error = toString(std::move(e));
    return {};
  }
  ArrayRef<uint8_t> data = stream.data();
  return std::string(data.begin(), data.end());
}

std::optional<std::string>
mlir::xpu::verifySharedIdentity(StringRef record, StringRef context,
                                std::vector<std::string> &files) {
  BinaryStreamReader reader(record, llvm::endianness::little);
  uint32_t version = 0, count = 0;
  StringRef storedContext, identity;
  if (errorToBool(reader.readInteger(version)) ||
      version != kSharedIdentityVersion || !readString(reader, storedContext) ||
      storedContext != context || !readString(reader, identity) ||
      identity.empty() || errorToBool(reader.readInteger(count)) ||
      count == 0 || count > kMaxIdentityFiles)
    return std::nullopt;
  std::vector<std::pair<std::string, std::pair<uint64_t, std::string>>> listed;
  for (uint32_t i = 0; i < count; ++i) {
    StringRef path, digest;
    uint64_t size;
    if (!readString(reader, path) || errorToBool(reader.readInteger(size)) ||
        errorToBool(reader.readFixedString(digest, 32)))
      return std::nullopt;
    // Only absolute paths without NULs: what /proc/<pid>/maps lists.
    if (!sys::path::is_absolute(path) || path.contains('\0'))
      return std::nullopt;
    listed.push_back({path.str(), {size, digest.str()}});
  }
  if (reader.bytesRemaining() != 0)
    return std::nullopt;
  // A record from the server decides what is read: every path once, and
  // no more bytes in all than a compiler has.
  llvm::StringSet<> seen;
  uint64_t total = 0;
  for (const auto &entry : listed) {
    total += entry.second.first;
    if (!seen.insert(entry.first).second ||
        entry.second.first > kMaxIdentityFileSize || total > kMaxIdentityBytes)
      return std::nullopt;
  }
  // Sizes first: a mismatch costs no reading.
  for (const auto &[path, expected] : listed) {
    sys::fs::file_status status;
    if (sys::fs::status(path, status, /*Follow=*/false) ||
        status.type() != sys::fs::file_type::regular_file ||
        status.getSize() != expected.first)
      return std::nullopt;
  }
  for (const auto &[path, expected] : listed) {
    std::optional<std::pair<uint64_t, std::string>> digest =
        getFileDigest(path);
    if (!digest || *digest != expected)
      return std::nullopt;
  }
  files.clear();
  for (auto &entry : listed)
    files.push_back(std::move(entry.first));
  return identity.str();
}
