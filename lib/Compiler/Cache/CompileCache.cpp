//===- CompileCache.cpp - Persistent content-addressed build cache --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Cache/LocalCacheSafety.h"
#include "XPUCodegen/Support/BinaryFields.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;

namespace {
/// Entry layout (little endian):
///   magic[8] version:u32 keySize:u32 key payloadSize:u64 payload
///   checksum:xxh3-128 (16 bytes) over everything before it.
constexpr char kMagic[8] = {'X', 'P', 'U', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kEntryVersion = 1;
constexpr size_t kChecksumSize = 16;
/// Entries live under a directory of their layout version, so a future
/// layout never reads (or deletes) these. Flat, with LLVM's cache file
/// prefix, so llvm::pruneCache bounds it.
constexpr StringLiteral kLayoutDir = "v2";
constexpr StringLiteral kEntryPrefix = "llvmcache-";
/// Entries larger than this are not ours (a native binary is megabytes at
/// most): a miss, never read.
constexpr uint64_t kMaxEntrySize = uint64_t(1) << 30;
/// Bump when BuildAttempt's serialized fields change.
constexpr uint32_t kBuildPayloadVersion = 2;
constexpr uint32_t kIdentityPayloadVersion = 1;

bool isValidKey(StringRef key) {
  return key.size() >= 4 && key.size() <= 128 && llvm::all_of(key, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::string checksum(StringRef data) {
  XXH128_hash_t hash = xxh3_128bits(arrayRefFromStringRef(data));
  char bytes[kChecksumSize];
  support::endian::write64le(bytes, hash.low64);
  support::endian::write64le(bytes + 8, hash.high64);
  return std::string(bytes, kChecksumSize);
}

std::string getEnv(const char *name) {
  std::optional<std::string> value = sys::Process::GetEnv(name);
  return value ? *value : std::string();
}
} // namespace

std::optional<std::string>
CompileCache::resolveDirectory(llvm::StringRef option) {
  std::string dir = option.str();
  if (dir.empty())
    dir = getEnv("XPU_CODEGEN_CACHE_DIR");
  if (dir == "none")
    return std::nullopt;
  if (!dir.empty())
    return dir;
  SmallString<256> path;
  std::string xdg = getEnv("XDG_CACHE_HOME");
  // The XDG spec says relative values are invalid and must be ignored.
  if (!xdg.empty() && sys::path::is_absolute(xdg)) {
    path = xdg;
  } else {
    if (!sys::path::home_directory(path))
      return std::nullopt;
    sys::path::append(path, ".cache");
  }
  sys::path::append(path, "xpu-codegen");
  return std::string(path);
}

CompileCache::CompileCache(llvm::StringRef directory,
                           std::shared_ptr<SharedCacheTier> shared)
    : directory(directory.str()), shared(std::move(shared)),
      localWarnings(LocalCacheWarnings::get(directory)) {}

bool CompileCache::isDirectoryTrusted() const {
  SmallString<256> layoutDir(directory);
  sys::path::append(layoutDir, kLayoutDir);
  if (Error error = checkCacheDirectories(directory, layoutDir)) {
    localWarnings->refuse(std::move(error));
    return false;
  }
  return true;
}

std::string CompileCache::getEntryPath(llvm::StringRef key) const {
  SmallString<256> path(directory);
  sys::path::append(path, kLayoutDir, (kEntryPrefix + key).str());
  return std::string(path);
}

/// The contents of the regular file at `path`, or std::nullopt. Whatever is
/// there is untrusted: a symlink (to /dev/zero, say) is not followed, a FIFO
/// never blocks, a device or a huge (sparse) file is never read, a file
/// another user can write is refused (`warnings`).
static std::unique_ptr<MemoryBuffer>
readRegularFile(const std::string &path, LocalCacheWarnings &warnings) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return nullptr;
  sys::fs::file_t file = sys::fs::convertFDToNativeFile(fd);
  scope_exit closeFile([&] { sys::fs::closeFile(file); });
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      uint64_t(st.st_size) > kMaxEntrySize)
    return nullptr;
  if (Error error = checkNotForeignWritable(st, path, "cache entry")) {
    warnings.refuse(std::move(error));
    return nullptr;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getOpenFile(
      file, path, uint64_t(st.st_size), /*RequiresNullTerminator=*/false);
  if (!buffer)
    return nullptr;
  return std::move(*buffer);
}

std::optional<StringRef> CompileCache::decodeEntry(StringRef data,
                                                   StringRef key) {
  if (data.size() < kChecksumSize)
    return std::nullopt;
  StringRef body = data.drop_back(kChecksumSize);
  if (checksum(body) != data.take_back(kChecksumSize))
    return std::nullopt;
  BinaryFieldReader reader(body);
  if (reader.readRaw(sizeof(kMagic)) != StringRef(kMagic, sizeof(kMagic)) ||
      reader.readU32() != kEntryVersion)
    return std::nullopt;
  uint32_t keySize = reader.readU32();
  if (reader.readRaw(keySize) != key)
    return std::nullopt;
  StringRef payload = reader.readBytes();
  if (!reader.atEnd())
    return std::nullopt;
  return payload;
}

std::string CompileCache::encodeEntry(StringRef key, StringRef payload) {
  BinaryFieldWriter writer;
  writer.writeRaw(StringRef(kMagic, sizeof(kMagic)));
  writer.write<uint32_t>(kEntryVersion);
  writer.write<uint32_t>(key.size());
  writer.writeRaw(key);
  writer.writeBytes(payload);
  std::string data = writer.take();
  data += checksum(data);
  return data;
}

std::optional<std::string>
CompileCache::lookupLocal(llvm::StringRef key) const {
  if (!isValidKey(key) || !isDirectoryTrusted())
    return std::nullopt;
  std::unique_ptr<MemoryBuffer> file =
      readRegularFile(getEntryPath(key), *localWarnings);
  if (!file)
    return std::nullopt;
  if (std::optional<StringRef> payload = decodeEntry(file->getBuffer(), key))
    return payload->str();
  return std::nullopt;
}

void CompileCache::prune(uint64_t maxSizeBytes) const {
  CachePruningPolicy policy;
  policy.MaxSizeBytes = maxSizeBytes;
  SmallString<256> path(directory);
  sys::path::append(path, kLayoutDir);
  if (sys::fs::is_directory(path) && isDirectoryTrusted())
    (void)pruneCache(path, policy);
}

llvm::Error CompileCache::storeLocal(llvm::StringRef key,
                                     llvm::StringRef payload) const {
  if (!isValidKey(key))
    return createStringError(inconvertibleErrorCode(),
                             "invalid cache key '" + key + "'");
  // A directory another user can write is not used (one warning).
  if (!isDirectoryTrusted())
    return Error::success();
  std::string path = getEntryPath(key);
  StringRef shard = sys::path::parent_path(path);
  // Never group- or world-writable, whatever the umask allows.
  if (std::error_code ec = sys::fs::create_directories(
          shard, /*IgnoreExisting=*/true,
          sys::fs::perms(sys::fs::all_all & ~sys::fs::group_write &
                         ~sys::fs::others_write)))
    return createStringError(ec, "cannot create cache directory '" + shard +
                                     "': " + ec.message());

  std::string data = encodeEntry(key, payload);

  // A unique name in the same directory: rename() is atomic only within a
  // file system, and concurrent writers must not share a temporary file.
  int fd;
  SmallString<256> temp;
  if (std::error_code ec = sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%%%%%", fd, temp, sys::fs::OF_None, 0644))
    return createStringError(ec, "cannot create a cache file in '" + shard +
                                     "': " + ec.message());
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << data;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      sys::fs::remove(temp);
      return createStringError(ec, "cannot write cache file '" + temp +
                                       "': " + ec.message());
    }
  }
  if (std::error_code ec = sys::fs::rename(temp, path)) {
    sys::fs::remove(temp);
    return createStringError(ec, "cannot rename '" + temp + "' to '" + path +
                                     "': " + ec.message());
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Compiler identities
//===----------------------------------------------------------------------===//

static std::string getIdentityKey(StringRef context) {
  SHA256 hash;
  hash.update("xpu-compiler-identity-v1");
  hash.update(ArrayRef<uint8_t>{0});
  hash.update(context);
  return toHex(hash.final(), /*LowerCase=*/true);
}

/// What identifies one file's version without reading it.
static std::optional<std::string> getFileStamp(StringRef path) {
  sys::fs::file_status status;
  if (sys::fs::status(path, status))
    return std::nullopt;
  return formatv("{0}:{1}:{2}", status.getSize(),
                 status.getLastModificationTime().time_since_epoch().count(),
                 status.getUniqueID().getFile())
      .str();
}

std::optional<std::string>
CompileCache::lookupCompilerIdentity(llvm::StringRef context,
                                     bool portable) const {
  std::optional<std::string> payload = lookupLocal(getIdentityKey(context));
  if (!payload)
    return portable ? lookupSharedIdentity(context) : std::nullopt;
  BinaryFieldReader reader(*payload);
  if (reader.readU32() != kIdentityPayloadVersion)
    return std::nullopt;
  if (reader.readBytes() != context)
    return std::nullopt;
  std::string identity = reader.readBytes().str();
  uint64_t count = reader.readU64();
  // No files means nothing to check against: never trust such an entry.
  if (reader.failed() || count == 0 || identity.empty())
    return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    StringRef path = reader.readBytes();
    StringRef stamp = reader.readBytes();
    if (reader.failed())
      return std::nullopt;
    std::optional<std::string> current = getFileStamp(path);
    if (!current || *current != stamp)
      return std::nullopt;
  }
  if (!reader.atEnd())
    return std::nullopt;
  return identity;
}

llvm::Error CompileCache::storeCompilerIdentity(
    llvm::StringRef context, llvm::StringRef identity,
    llvm::ArrayRef<std::string> files, bool portable) const {
  llvm::Error error = storeLocalIdentity(context, identity, files);
  if (portable)
    storeSharedIdentity(context, identity, files);
  return error;
}

llvm::Error
CompileCache::storeLocalIdentity(llvm::StringRef context,
                                 llvm::StringRef identity,
                                 llvm::ArrayRef<std::string> files) const {
  if (files.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no files to check a cached identity against");
  BinaryFieldWriter writer;
  writer.write<uint32_t>(kIdentityPayloadVersion);
  writer.writeBytes(context);
  writer.writeBytes(identity);
  writer.write<uint64_t>(files.size());
  for (const std::string &file : files) {
    std::optional<std::string> stamp = getFileStamp(file);
    if (!stamp)
      return createStringError(inconvertibleErrorCode(),
                               "cannot stat '" + file + "'");
    writer.writeBytes(file);
    writer.writeBytes(*stamp);
  }
  return storeLocal(getIdentityKey(context), writer.take());
}

//===----------------------------------------------------------------------===//
// BuildAttempt payloads
//===----------------------------------------------------------------------===//

std::string mlir::xpu::serializeBuildAttempt(const BuildAttempt &attempt) {
  BinaryFieldWriter writer;
  writer.write<uint32_t>(kBuildPayloadVersion);
  writer.write<uint8_t>(uint8_t(attempt.mode));
  writer.writeBytes(attempt.buildFlags);
  writer.writeBytes(StringRef(attempt.binary.data(), attempt.binary.size()));
  writer.writeBytes(attempt.log);
  writer.write<uint64_t>(attempt.kernels.size());
  for (const KernelMeasurement &kernel : attempt.kernels) {
    writer.writeBytes(kernel.name);
    for (int64_t value :
         {kernel.grfCount, kernel.simd, kernel.spillSize, kernel.privateSize,
          kernel.scratchSize, kernel.nSpills})
      writer.write<int64_t>(value);
    writer.writeBytes(kernel.spillNote);
  }
  writer.write<int64_t>(attempt.spillSize);
  writer.writeF64(attempt.compileMs);
  return writer.take();
}

llvm::Expected<BuildAttempt>
mlir::xpu::deserializeBuildAttempt(llvm::StringRef payload) {
  auto malformed = [](const Twine &what) {
    return createStringError(inconvertibleErrorCode(),
                             "malformed cached build: " + what);
  };
  BinaryFieldReader reader(payload);
  if (reader.readU32() != kBuildPayloadVersion)
    return malformed("unknown version");
  BuildAttempt attempt;
  uint8_t mode = reader.readU8();
  if (mode >= kNumBuildGRFs)
    return malformed("unknown GRF mode");
  attempt.mode = BuildGRF(mode);
  attempt.buildFlags = reader.readBytes().str();
  StringRef binary = reader.readBytes();
  attempt.binary.assign(binary.begin(), binary.end());
  attempt.log = reader.readBytes().str();
  // A kernel takes at least 64 bytes (an empty name, six fields and an empty
  // note).
  uint64_t count = reader.readCount(64);
  if (reader.failed())
    return malformed("truncated");
  attempt.kernels.resize(count);
  for (KernelMeasurement &kernel : attempt.kernels) {
    kernel.name = reader.readBytes().str();
    for (int64_t *field :
         {&kernel.grfCount, &kernel.simd, &kernel.spillSize,
          &kernel.privateSize, &kernel.scratchSize, &kernel.nSpills})
      *field = reader.readI64();
    kernel.spillNote = reader.readBytes().str();
  }
  attempt.spillSize = reader.readI64();
  attempt.compileMs = reader.readF64();
  if (!reader.atEnd())
    return malformed("truncated or trailing bytes");
  if (attempt.binary.empty())
    return malformed("no binary");
  return attempt;
}

//===----------------------------------------------------------------------===//
// The shared tier
//===----------------------------------------------------------------------===//

// Redis keys: a namespace, the layout of what is stored, and the local key.
static std::string getSharedEntryKey(StringRef key) {
  return ("xpu-codegen:v1:entry:" + key).str();
}
static std::string getSharedLockKey(StringRef key) {
  return ("xpu-codegen:v1:lock:" + key).str();
}
static std::string getSharedIdentityKey(StringRef context) {
  return "xpu-codegen:v1:identity:" + getIdentityKey(context);
}

llvm::Expected<std::optional<CompileCache>>
CompileCache::open(llvm::StringRef cacheDir, llvm::StringRef cacheUrl,
                   const SharedCacheSecurity &security) {
  llvm::Expected<std::optional<SharedCacheConfig>> shared =
      resolveSharedCache(cacheUrl, security);
  if (!shared)
    return shared.takeError();
  std::optional<std::string> directory = resolveDirectory(cacheDir);
  if (!directory)
    return std::nullopt;
  return CompileCache(*directory,
                      *shared ? SharedCacheTier::get(**shared) : nullptr);
}

std::optional<std::string>
CompileCache::lookupShared(llvm::StringRef key) const {
  if (!shared || !isValidKey(key))
    return std::nullopt;
  std::optional<std::string> value = shared->getValue(getSharedEntryKey(key));
  if (!value)
    return std::nullopt;
  // Exactly what a local entry must pass; anything else is a miss, and the
  // build that follows overwrites it in both tiers.
  std::optional<StringRef> payload = decodeEntry(*value, key);
  if (!payload)
    return std::nullopt;
  std::string result = payload->str();
  // Best effort: the next run finds it locally.
  consumeError(storeLocal(key, result));
  return result;
}

std::optional<std::string> CompileCache::lookup(llvm::StringRef key,
                                                bool *fromShared) const {
  if (fromShared)
    *fromShared = false;
  if (std::optional<std::string> payload = lookupLocal(key))
    return payload;
  std::optional<std::string> payload = lookupShared(key);
  if (fromShared)
    *fromShared = payload.has_value();
  return payload;
}

std::optional<std::string> CompileCache::lookupOrClaim(llvm::StringRef key,
                                                       bool *fromShared) const {
  if (std::optional<std::string> payload = lookup(key, fromShared))
    return payload;
  if (!shared || !isValidKey(key) || shared->getConfig().lockTime.count() == 0)
    return std::nullopt;
  std::string lock = getSharedLockKey(key);
  bool available;
  // Claimed: unless its builder stored it and let go between our lookup
  // and the claim (then it is there now).
  auto claimed = [&] {
    if (std::optional<std::string> payload = lookupShared(key)) {
      releaseClaim(key);
      if (fromShared)
        *fromShared = true;
      return payload;
    }
    return std::optional<std::string>();
  };
  if (shared->tryLock(lock, available))
    return claimed();
  if (!available)
    return std::nullopt;
  // Someone else builds it: poll for their entry, a bounded time. A lock
  // that goes away without an entry (their build failed, or they died and
  // it expired) is ours to take.
  auto deadline =
      std::chrono::steady_clock::now() + shared->getConfig().lockTime;
  auto interval = std::chrono::milliseconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(interval);
    interval = std::min(interval * 2, std::chrono::milliseconds(200));
    if (std::optional<std::string> payload = lookupShared(key)) {
      if (fromShared)
        *fromShared = true;
      return payload;
    }
    std::optional<bool> locked = shared->exists(lock);
    if (!locked)
      return std::nullopt;
    if (!*locked && shared->tryLock(lock, available))
      return claimed();
    if (!available)
      return std::nullopt;
  }
  return std::nullopt;
}

void CompileCache::releaseClaim(llvm::StringRef key) const {
  if (shared)
    shared->unlock(getSharedLockKey(key));
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::StringRef payload) const {
  llvm::Error error = storeLocal(key, payload);
  if (shared && isValidKey(key)) {
    shared->setValue(getSharedEntryKey(key), encodeEntry(key, payload));
    shared->unlock(getSharedLockKey(key));
  }
  return error;
}

std::vector<std::string> CompileCache::takeWarnings() const {
  std::vector<std::string> warnings = localWarnings->take();
  if (shared)
    append_range(warnings, shared->takeWarnings());
  return warnings;
}

static std::chrono::steady_clock::duration toDuration(double ms) {
  // Measured times are finite and bounded; anything else earns nothing.
  if (!(ms > 0) || ms > 1e9)
    return {};
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double, std::milli>(ms));
}

void CompileCache::creditSharedHit(double savedMs) const {
  if (shared)
    shared->creditHit(toDuration(savedMs));
}

void CompileCache::connectSharedAhead() const {
  if (shared)
    shared->connectAhead();
}

void CompileCache::creditStoredBuild(double builtMs) const {
  if (shared)
    shared->creditStoredBuild(toDuration(builtMs));
}

std::optional<std::string>
CompileCache::lookupSharedIdentity(llvm::StringRef context) const {
  if (!shared)
    return std::nullopt;
  std::string key = getIdentityKey(context);
  std::optional<std::string> value =
      shared->getValue(getSharedIdentityKey(context));
  if (!value)
    return std::nullopt;
  std::optional<StringRef> record = decodeEntry(*value, key);
  if (!record)
    return std::nullopt;
  std::vector<std::string> files;
  std::optional<std::string> identity =
      verifySharedIdentity(*record, context, files);
  if (!identity)
    return std::nullopt;
  // Verified by contents once; from now on by stamps, locally.
  consumeError(storeLocalIdentity(context, *identity, files));
  return identity;
}

void CompileCache::storeSharedIdentity(
    llvm::StringRef context, llvm::StringRef identity,
    llvm::ArrayRef<std::string> files) const {
  if (!shared)
    return;
  std::string error;
  std::string record = encodeSharedIdentity(context, identity, files, error);
  if (record.empty())
    return;
  std::string key = getIdentityKey(context);
  shared->setValue(getSharedIdentityKey(context), encodeEntry(key, record));
}
