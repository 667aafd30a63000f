//===- CompileCache.cpp - Persistent content-addressed build cache --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Cache/CompileCache.h"

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
constexpr uint32_t kBuildPayloadVersion = 1;
constexpr uint32_t kIdentityPayloadVersion = 1;

bool isValidKey(StringRef key) {
  return key.size() >= 4 && key.size() <= 128 && llvm::all_of(key, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

/// Little-endian writer for payloads.
class Writer {
public:
  void u8(uint8_t value) { out.push_back(char(value)); }
  void u32(uint32_t value) {
    char bytes[4];
    support::endian::write32le(bytes, value);
    out.append(bytes, 4);
  }
  void u64(uint64_t value) {
    char bytes[8];
    support::endian::write64le(bytes, value);
    out.append(bytes, 8);
  }
  void i64(int64_t value) { u64(uint64_t(value)); }
  void bytes(StringRef value) {
    u64(value.size());
    out.append(value.data(), value.size());
  }
  std::string take() { return std::move(out); }
  std::string out;
};

/// Bounds-checked reader: any read past the end sets `failed` and yields
/// zeros, so a truncated payload can never index out of range.
class Reader {
public:
  explicit Reader(StringRef data) : data(data) {}
  bool failed = false;
  bool atEnd() const { return pos == data.size(); }
  StringRef take(uint64_t size) {
    if (failed || size > data.size() - pos) {
      failed = true;
      return {};
    }
    StringRef result = data.substr(pos, size);
    pos += size;
    return result;
  }
  uint8_t u8() {
    StringRef b = take(1);
    return failed ? 0 : uint8_t(b[0]);
  }
  uint32_t u32() {
    StringRef b = take(4);
    return failed ? 0 : support::endian::read32le(b.data());
  }
  uint64_t u64() {
    StringRef b = take(8);
    return failed ? 0 : support::endian::read64le(b.data());
  }
  int64_t i64() { return int64_t(u64()); }
  StringRef bytes() { return take(u64()); }

private:
  StringRef data;
  size_t pos = 0;
};

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

CompileCache::CompileCache(llvm::StringRef directory)
    : directory(directory.str()) {}

std::string CompileCache::getEntryPath(llvm::StringRef key) const {
  SmallString<256> path(directory);
  sys::path::append(path, kLayoutDir, (kEntryPrefix + key).str());
  return std::string(path);
}

/// The contents of the regular file at `path`, or std::nullopt. Whatever is
/// there is untrusted: a symlink (to /dev/zero, say) is not followed, a FIFO
/// never blocks, a device or a huge (sparse) file is never read.
static std::unique_ptr<MemoryBuffer> readRegularFile(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return nullptr;
  sys::fs::file_t file = sys::fs::convertFDToNativeFile(fd);
  auto closeFile = make_scope_exit([&] { sys::fs::closeFile(file); });
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      uint64_t(st.st_size) > kMaxEntrySize)
    return nullptr;
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
  Reader reader(body);
  if (reader.take(sizeof(kMagic)) != StringRef(kMagic, sizeof(kMagic)) ||
      reader.u32() != kEntryVersion)
    return std::nullopt;
  uint32_t keySize = reader.u32();
  if (reader.take(keySize) != key)
    return std::nullopt;
  StringRef payload = reader.bytes();
  if (reader.failed || !reader.atEnd())
    return std::nullopt;
  return payload;
}

std::string CompileCache::encodeEntry(StringRef key, StringRef payload) {
  Writer writer;
  writer.out.append(kMagic, sizeof(kMagic));
  writer.u32(kEntryVersion);
  writer.u32(key.size());
  writer.out.append(key.data(), key.size());
  writer.bytes(payload);
  std::string data = writer.take();
  data += checksum(data);
  return data;
}

std::optional<std::string> CompileCache::lookup(llvm::StringRef key) const {
  if (!isValidKey(key))
    return std::nullopt;
  std::unique_ptr<MemoryBuffer> file = readRegularFile(getEntryPath(key));
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
  if (sys::fs::is_directory(path))
    (void)pruneCache(path, policy);
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::StringRef payload) const {
  if (!isValidKey(key))
    return createStringError(inconvertibleErrorCode(),
                             "invalid cache key '" + key + "'");
  std::string path = getEntryPath(key);
  StringRef shard = sys::path::parent_path(path);
  if (std::error_code ec = sys::fs::create_directories(shard))
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
CompileCache::lookupCompilerIdentity(llvm::StringRef context) const {
  std::optional<std::string> payload = lookup(getIdentityKey(context));
  if (!payload)
    return std::nullopt;
  Reader reader(*payload);
  if (reader.u32() != kIdentityPayloadVersion)
    return std::nullopt;
  if (reader.bytes() != context)
    return std::nullopt;
  std::string identity = reader.bytes().str();
  uint64_t count = reader.u64();
  // No files means nothing to check against: never trust such an entry.
  if (reader.failed || count == 0 || identity.empty())
    return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    StringRef path = reader.bytes();
    StringRef stamp = reader.bytes();
    if (reader.failed)
      return std::nullopt;
    std::optional<std::string> current = getFileStamp(path);
    if (!current || *current != stamp)
      return std::nullopt;
  }
  if (!reader.atEnd())
    return std::nullopt;
  return identity;
}

llvm::Error
CompileCache::storeCompilerIdentity(llvm::StringRef context,
                                    llvm::StringRef identity,
                                    llvm::ArrayRef<std::string> files) const {
  if (files.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no files to check a cached identity against");
  Writer writer;
  writer.u32(kIdentityPayloadVersion);
  writer.bytes(context);
  writer.bytes(identity);
  writer.u64(files.size());
  for (const std::string &file : files) {
    std::optional<std::string> stamp = getFileStamp(file);
    if (!stamp)
      return createStringError(inconvertibleErrorCode(),
                               "cannot stat '" + file + "'");
    writer.bytes(file);
    writer.bytes(*stamp);
  }
  return store(getIdentityKey(context), writer.take());
}

//===----------------------------------------------------------------------===//
// BuildAttempt payloads
//===----------------------------------------------------------------------===//

std::string mlir::xpu::serializeBuildAttempt(const BuildAttempt &attempt) {
  Writer writer;
  writer.u32(kBuildPayloadVersion);
  writer.u8(uint8_t(attempt.mode));
  writer.bytes(attempt.buildFlags);
  writer.bytes(StringRef(attempt.binary.data(), attempt.binary.size()));
  writer.bytes(attempt.log);
  writer.u64(attempt.kernels.size());
  for (const KernelMeasurement &kernel : attempt.kernels) {
    writer.bytes(kernel.name);
    writer.i64(kernel.grfCount);
    writer.i64(kernel.simd);
    writer.i64(kernel.spillSize);
    writer.i64(kernel.privateSize);
    writer.i64(kernel.scratchSize);
    writer.i64(kernel.nSpills);
  }
  writer.i64(attempt.spillSize);
  uint64_t ms;
  static_assert(sizeof(ms) == sizeof(attempt.compileMs));
  std::memcpy(&ms, &attempt.compileMs, sizeof(ms));
  writer.u64(ms);
  return writer.take();
}

llvm::Expected<BuildAttempt>
mlir::xpu::deserializeBuildAttempt(llvm::StringRef payload) {
  auto malformed = [](const Twine &what) {
    return createStringError(inconvertibleErrorCode(),
                             "malformed cached build: " + what);
  };
  Reader reader(payload);
  if (reader.u32() != kBuildPayloadVersion)
    return malformed("unknown version");
  BuildAttempt attempt;
  uint8_t mode = reader.u8();
  if (mode > uint8_t(BuildGRF::IGCAuto))
    return malformed("unknown GRF mode");
  attempt.mode = BuildGRF(mode);
  attempt.buildFlags = reader.bytes().str();
  StringRef binary = reader.bytes();
  attempt.binary.assign(binary.begin(), binary.end());
  attempt.log = reader.bytes().str();
  uint64_t count = reader.u64();
  // Each kernel takes at least 56 bytes: bound the count before reserving.
  if (reader.failed || count > payload.size() / 56)
    return malformed("truncated");
  attempt.kernels.resize(count);
  for (KernelMeasurement &kernel : attempt.kernels) {
    kernel.name = reader.bytes().str();
    kernel.grfCount = reader.i64();
    kernel.simd = reader.i64();
    kernel.spillSize = reader.i64();
    kernel.privateSize = reader.i64();
    kernel.scratchSize = reader.i64();
    kernel.nSpills = reader.i64();
  }
  attempt.spillSize = reader.i64();
  uint64_t ms = reader.u64();
  std::memcpy(&attempt.compileMs, &ms, sizeof(ms));
  if (reader.failed || !reader.atEnd())
    return malformed("truncated or trailing bytes");
  if (attempt.binary.empty())
    return malformed("no binary");
  return attempt;
}
