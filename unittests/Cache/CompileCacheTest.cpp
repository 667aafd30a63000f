//===- CompileCacheTest.cpp - Tests for the persistent build cache --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;

namespace {

std::string keyFor(StringRef name) {
  return toHex(SHA256::hash(arrayRefFromStringRef(name)), /*LowerCase=*/true);
}

/// A payload that depends only on the key, as a real build does.
std::string payloadFor(StringRef key, size_t size = 3000) {
  std::string payload;
  payload.reserve(size);
  for (size_t i = 0; payload.size() < size; ++i)
    payload += (key + Twine(i)).str();
  payload.resize(size);
  return payload;
}

class TempDir {
public:
  TempDir() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("xpu-cache-test", path));
  }
  ~TempDir() { sys::fs::remove_directories(path); }
  StringRef str() const { return path; }

private:
  SmallString<128> path;
};

/// Sets an environment variable for the scope of a test.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (previous)
      ::setenv(name, previous->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};

std::string readFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
  return file ? (*file)->getBuffer().str() : std::string();
}

void writeFile(StringRef path, StringRef data) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << data;
}

/// Files under `dir` whose name contains ".tmp-".
size_t countTempFiles(StringRef dir) {
  size_t count = 0;
  std::error_code ec;
  for (sys::fs::recursive_directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (StringRef(it->path()).contains(".tmp-"))
      ++count;
  return count;
}

TEST(CompileCache, MissThenHit) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("a");
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_FALSE(errorToBool(cache.store(key, "payload")));
  std::optional<std::string> hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(*hit, "payload");
  // Flat, named as LLVM's cache pruning expects.
  EXPECT_EQ(cache.getEntryPath(key),
            (dir.str() + "/v2/llvmcache-" + key).str());
  EXPECT_FALSE(cache.lookup(keyFor("b")));
  // Replacing an entry.
  ASSERT_FALSE(errorToBool(cache.store(key, "second")));
  EXPECT_EQ(*cache.lookup(key), "second");
  // Empty payloads round-trip too.
  ASSERT_FALSE(errorToBool(cache.store(keyFor("empty"), "")));
  EXPECT_EQ(*cache.lookup(keyFor("empty")), "");
  EXPECT_EQ(countTempFiles(dir.str()), 0u);
}

TEST(CompileCache, InvalidKeys) {
  TempDir dir;
  CompileCache cache(dir.str());
  for (StringRef key : {"", "abc", "../../etc/passwd", "ABCDEF", "abcd/ef"}) {
    EXPECT_FALSE(cache.lookup(key)) << key.str();
    EXPECT_TRUE(errorToBool(cache.store(key, "x"))) << key.str();
  }
}

TEST(CompileCache, FlippedBytesAreMisses) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("flip");
  std::string payload = payloadFor(key, 200);
  ASSERT_FALSE(errorToBool(cache.store(key, payload)));
  std::string path = cache.getEntryPath(key);
  std::string good = readFile(path);
  ASSERT_FALSE(good.empty());
  // Every byte of the entry matters: header, key, payload and checksum.
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x01;
    writeFile(path, bad);
    EXPECT_FALSE(cache.lookup(key)) << "flipped byte " << i;
  }
  // The next store replaces the corrupt entry.
  ASSERT_FALSE(errorToBool(cache.store(key, payload)));
  EXPECT_EQ(*cache.lookup(key), payload);
}

TEST(CompileCache, TruncatedAndExtendedAreMisses) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("truncate");
  std::string payload = payloadFor(key, 100);
  ASSERT_FALSE(errorToBool(cache.store(key, payload)));
  std::string path = cache.getEntryPath(key);
  std::string good = readFile(path);
  for (size_t size = 0; size < good.size(); ++size) {
    writeFile(path, StringRef(good).take_front(size));
    EXPECT_FALSE(cache.lookup(key)) << "truncated to " << size;
  }
  writeFile(path, good + "x");
  EXPECT_FALSE(cache.lookup(key));
  writeFile(path, good);
  EXPECT_EQ(*cache.lookup(key), payload);
}

TEST(CompileCache, EntryUnderAnotherKeyIsAMiss) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string a = keyFor("a"), b = keyFor("b");
  ASSERT_FALSE(errorToBool(cache.store(a, "binary of a")));
  // A valid entry for `a` copied to where `b` lives (a renamed or misfiled
  // entry) must not be returned for `b`.
  ASSERT_FALSE(sys::fs::create_directories(
      sys::path::parent_path(cache.getEntryPath(b))));
  ASSERT_FALSE(
      sys::fs::copy_file(cache.getEntryPath(a), cache.getEntryPath(b)));
  EXPECT_FALSE(cache.lookup(b));
  ASSERT_FALSE(errorToBool(cache.store(b, "binary of b")));
  EXPECT_EQ(*cache.lookup(b), "binary of b");
  EXPECT_EQ(*cache.lookup(a), "binary of a");
}

TEST(CompileCache, GarbageIsAMiss) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("garbage");
  std::string path = cache.getEntryPath(key);
  ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(path)));
  // The strings outlive the loop: a temporary std::string in the range
  // initializer would be destroyed before the body reads it (C++17).
  const std::string allOnes(4096, '\xff');
  for (StringRef garbage :
       {StringRef(""), StringRef("XPUCACHE"), StringRef("not a cache entry"),
        StringRef(allOnes)}) {
    writeFile(path, garbage);
    EXPECT_FALSE(cache.lookup(key));
  }
  // A directory where the entry should be is a miss, not a crash.
  ASSERT_FALSE(sys::fs::remove(path));
  ASSERT_FALSE(sys::fs::create_directory(path));
  EXPECT_FALSE(cache.lookup(key));
}

// What sits where an entry should be is untrusted: a FIFO hung the
// compile forever, a symlink to /dev/zero ran the host out of memory, a
// sparse 8 GiB file cost 71 s. All are fast misses, never followed or read.
TEST(CompileCache, NonRegularEntriesAreFastMisses) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("hostile");
  std::string path = cache.getEntryPath(key);
  ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(path)));
  auto timedMiss = [&](const char *what) {
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(cache.lookup(key)) << what;
    // Generous for a loaded machine: reading them took minutes or ever.
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(20))
        << what;
    // sys::fs::remove refuses FIFOs.
    if (::unlink(path.c_str()) != 0)
      (void)::rmdir(path.c_str());
  };
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  timedMiss("FIFO");
  ASSERT_FALSE(sys::fs::create_link("/dev/zero", path));
  timedMiss("symlink to /dev/zero");
  // A symlink to a valid entry is not followed either.
  std::string other = cache.getEntryPath(keyFor("other"));
  ASSERT_FALSE(errorToBool(cache.store(key, "payload")));
  ASSERT_FALSE(sys::fs::rename(path, other));
  ASSERT_FALSE(sys::fs::create_link(other, path));
  timedMiss("symlink to an entry");
  {
    int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t(8) << 30), 0); // 8 GiB, sparse.
    ::close(fd);
  }
  timedMiss("sparse 8 GiB file");
  ASSERT_FALSE(sys::fs::create_directory(path));
  timedMiss("directory");
}

TEST(CompileCache, DecodeEntryChecksKeyAndChecksum) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string key = keyFor("decode");
  ASSERT_FALSE(errorToBool(cache.store(key, "payload")));
  std::string entry;
  {
    auto buffer = MemoryBuffer::getFile(cache.getEntryPath(key));
    ASSERT_TRUE(bool(buffer));
    entry = (*buffer)->getBuffer().str();
  }
  EXPECT_EQ(CompileCache::decodeEntry(entry, key),
            std::optional<StringRef>("payload"));
  EXPECT_FALSE(CompileCache::decodeEntry(entry, keyFor("another")));
  EXPECT_FALSE(CompileCache::decodeEntry(StringRef(entry).drop_back(), key));
}

// The cache is bounded with LLVM's pruning: beyond the size, least recently
// used entries go.
TEST(CompileCache, PruneBoundsTheSize) {
  TempDir dir;
  CompileCache cache(dir.str());
  std::string payload(64 << 10, 'x');
  for (int i = 0; i < 32; ++i)
    ASSERT_FALSE(
        errorToBool(cache.store(keyFor("prune" + std::to_string(i)), payload)));
  cache.prune(/*maxSizeBytes=*/512 << 10);
  uint64_t total = 0;
  unsigned entries = 0;
  std::error_code ec;
  SmallString<128> layout(dir.str());
  sys::path::append(layout, "v2");
  for (sys::fs::directory_iterator it(layout, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (!sys::path::filename(it->path()).starts_with("llvmcache-"))
      continue;
    sys::fs::file_status status;
    ASSERT_FALSE(sys::fs::status(it->path(), status));
    total += status.getSize();
    ++entries;
  }
  EXPECT_LE(total, uint64_t(512) << 10);
  EXPECT_GT(entries, 0u);
}

TEST(CompileCache, UnwritableDirectoryIsAnError) {
  TempDir dir;
  SmallString<128> file(dir.str());
  sys::path::append(file, "file");
  writeFile(file, "x");
  // The cache root is a regular file: stores fail, lookups miss.
  CompileCache cache(file);
  EXPECT_TRUE(errorToBool(cache.store(keyFor("k"), "x")));
  EXPECT_FALSE(cache.lookup(keyFor("k")));
}

TEST(CompileCache, ConcurrentThreads) {
  TempDir dir;
  CompileCache cache(dir.str());
  constexpr int kThreads = 8, kKeys = 16, kRounds = 20;
  std::vector<std::string> keys;
  for (int i = 0; i < kKeys; ++i)
    keys.push_back(keyFor("shared" + std::to_string(i)));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        for (const std::string &key : keys) {
          // Readers see nothing or the whole entry, never a torn one.
          if (std::optional<std::string> hit = cache.lookup(key))
            if (*hit != payloadFor(key))
              ++wrong;
          if (errorToBool(cache.store(key, payloadFor(key))))
            ++wrong;
        }
        std::string own = keyFor("own" + std::to_string(t));
        if (errorToBool(cache.store(own, payloadFor(own))))
          ++wrong;
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong.load(), 0);
  for (const std::string &key : keys)
    EXPECT_EQ(cache.lookup(key), payloadFor(key));
  for (int t = 0; t < kThreads; ++t) {
    std::string own = keyFor("own" + std::to_string(t));
    EXPECT_EQ(cache.lookup(own), payloadFor(own));
  }
  EXPECT_EQ(countTempFiles(dir.str()), 0u);
}

/// The body of one writer process of ConcurrentProcesses. Disabled, so that
/// no run lists it as a skipped test; that test runs it in its children.
TEST(CompileCacheChild, DISABLED_Writer) {
  const char *dir = std::getenv("XPU_CACHE_TEST_CHILD_DIR");
  const char *id = std::getenv("XPU_CACHE_TEST_CHILD_ID");
  if (!dir || !id)
    GTEST_SKIP() << "only run by CompileCache.ConcurrentProcesses";
  CompileCache cache(dir);
  int wrong = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 16; ++i) {
      std::string key = keyFor("shared" + std::to_string(i));
      if (std::optional<std::string> hit = cache.lookup(key))
        if (*hit != payloadFor(key, 20000))
          ++wrong;
      if (errorToBool(cache.store(key, payloadFor(key, 20000))))
        ++wrong;
    }
    std::string own = keyFor(std::string("process") + id);
    if (errorToBool(cache.store(own, payloadFor(own, 20000))))
      ++wrong;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(CompileCache, ConcurrentProcesses) {
  TempDir dir;
  static int anchor;
  std::string self = sys::fs::getMainExecutable(nullptr, &anchor);
  ASSERT_FALSE(self.empty());
  constexpr int kProcesses = 4;
  std::vector<sys::ProcessInfo> children;
  for (int p = 0; p < kProcesses; ++p) {
    // A child runs its one test only: the sharding and JSON output a test
    // runner (lit) asked of this process are not for it.
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
      if (!StringRef(*e).starts_with("GTEST_"))
        env.push_back(*e);
    env.push_back(("XPU_CACHE_TEST_CHILD_DIR=" + dir.str()).str());
    env.push_back("XPU_CACHE_TEST_CHILD_ID=" + std::to_string(p));
    std::vector<StringRef> envRefs(env.begin(), env.end());
    StringRef args[] = {self, "--gtest_also_run_disabled_tests",
                        "--gtest_filter=CompileCacheChild.DISABLED_Writer"};
    std::string error;
    // Children report through their exit status; their output would be
    // mistaken for ours.
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(""),
                                            std::nullopt};
    children.push_back(
        sys::ExecuteNoWait(self, args, envRefs, redirects, 0, &error));
    ASSERT_NE(children.back().Pid, 0) << error;
  }
  for (sys::ProcessInfo &child : children) {
    sys::ProcessInfo done = sys::Wait(child, std::nullopt);
    EXPECT_EQ(done.ReturnCode, 0);
  }
  CompileCache cache(dir.str());
  for (int i = 0; i < 16; ++i) {
    std::string key = keyFor("shared" + std::to_string(i));
    EXPECT_EQ(cache.lookup(key), payloadFor(key, 20000));
  }
  for (int p = 0; p < kProcesses; ++p) {
    std::string own = keyFor("process" + std::to_string(p));
    EXPECT_EQ(cache.lookup(own), payloadFor(own, 20000));
  }
  EXPECT_EQ(countTempFiles(dir.str()), 0u);
}

TEST(CompileCache, ResolveDirectory) {
  ScopedEnv noCacheDir("XPU_CODEGEN_CACHE_DIR", nullptr);
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg/cache");
  ScopedEnv home("HOME", "/home/someone");

  // Explicit option first; "none" disables.
  EXPECT_EQ(CompileCache::resolveDirectory("/explicit"), "/explicit");
  EXPECT_EQ(CompileCache::resolveDirectory("none"), std::nullopt);
  // Then XDG_CACHE_HOME.
  EXPECT_EQ(CompileCache::resolveDirectory(""), "/xdg/cache/xpu-codegen");
  {
    // Then the environment variable, which may also disable.
    ScopedEnv env("XPU_CODEGEN_CACHE_DIR", "/from/env");
    EXPECT_EQ(CompileCache::resolveDirectory(""), "/from/env");
    EXPECT_EQ(CompileCache::resolveDirectory("/explicit"), "/explicit");
    ScopedEnv none("XPU_CODEGEN_CACHE_DIR", "none");
    EXPECT_EQ(CompileCache::resolveDirectory(""), std::nullopt);
  }
  {
    // Then ~/.cache; a relative XDG_CACHE_HOME is ignored (XDG spec).
    ScopedEnv relative("XDG_CACHE_HOME", "relative");
    EXPECT_EQ(CompileCache::resolveDirectory(""),
              "/home/someone/.cache/xpu-codegen");
    ScopedEnv unset("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(CompileCache::resolveDirectory(""),
              "/home/someone/.cache/xpu-codegen");
  }
}

BuildAttempt makeAttempt() {
  BuildAttempt attempt;
  attempt.mode = BuildGRF::Large;
  attempt.buildFlags = "-cl-intel-256-GRF-per-thread";
  attempt.binary = {'\x7f', 'E', 'L', 'F', '\0', '\xff', '\x01'};
  attempt.log = "warning: kernel k  compiled SIMD16 allocated 256 regs and "
                "spilled around 10\n";
  KernelMeasurement k1;
  k1.name = "k";
  k1.grfCount = 256;
  k1.simd = 16;
  k1.spillSize = 640;
  k1.privateSize = 64;
  k1.scratchSize = 1024;
  k1.nSpills = 10;
  KernelMeasurement k2;
  k2.name = "other";
  k2.grfCount = 256;
  k2.simd = 32;
  attempt.kernels = {k1, k2};
  attempt.spillSize = 640;
  attempt.compileMs = 41.25;
  attempt.cache = "miss";
  return attempt;
}

TEST(BuildAttemptCodec, RoundTrip) {
  BuildAttempt attempt = makeAttempt();
  Expected<BuildAttempt> decoded =
      deserializeBuildAttempt(serializeBuildAttempt(attempt));
  ASSERT_TRUE(bool(decoded)) << toString(decoded.takeError());
  EXPECT_EQ(decoded->mode, attempt.mode);
  EXPECT_EQ(decoded->buildFlags, attempt.buildFlags);
  EXPECT_EQ(decoded->binary, attempt.binary);
  EXPECT_EQ(decoded->log, attempt.log);
  ASSERT_EQ(decoded->kernels.size(), 2u);
  EXPECT_EQ(decoded->kernels[0].name, "k");
  EXPECT_EQ(decoded->kernels[0].grfCount, 256);
  EXPECT_EQ(decoded->kernels[0].simd, 16);
  EXPECT_EQ(decoded->kernels[0].spillSize, 640);
  EXPECT_EQ(decoded->kernels[0].privateSize, 64);
  EXPECT_EQ(decoded->kernels[0].scratchSize, 1024);
  EXPECT_EQ(decoded->kernels[0].nSpills, 10);
  EXPECT_EQ(decoded->kernels[1].name, "other");
  EXPECT_EQ(decoded->kernels[1].simd, 32);
  EXPECT_EQ(decoded->spillSize, 640);
  EXPECT_EQ(decoded->compileMs, 41.25);
  // The cache status is the reader's, not stored.
  EXPECT_EQ(decoded->cache, "off");
}

TEST(BuildAttemptCodec, MalformedPayloadsAreErrors) {
  std::string good = serializeBuildAttempt(makeAttempt());
  for (size_t size = 0; size < good.size(); ++size)
    EXPECT_FALSE(bool(deserializeBuildAttempt(good.substr(0, size))))
        << "prefix " << size;
  EXPECT_FALSE(bool(deserializeBuildAttempt(good + "x")));
  // A huge kernel count must not allocate or read out of bounds.
  std::string hugeCount = good;
  // Offsets: version 4, mode 1, then three length-prefixed strings.
  BuildAttempt attempt = makeAttempt();
  size_t countOffset = 4 + 1 + 8 + attempt.buildFlags.size() + 8 +
                       attempt.binary.size() + 8 + attempt.log.size();
  for (int i = 0; i < 8; ++i)
    hugeCount[countOffset + i] = '\xff';
  EXPECT_FALSE(bool(deserializeBuildAttempt(hugeCount)));
  // Register-count builds (up to Regs192) are modes; one past them is not.
  std::string countMode = good;
  countMode[4] = static_cast<char>(BuildGRF::Regs192);
  EXPECT_TRUE(bool(deserializeBuildAttempt(countMode)));
  std::string badMode = good;
  badMode[4] = kNumBuildGRFs;
  EXPECT_FALSE(bool(deserializeBuildAttempt(badMode)));
}

TEST(CompilerIdentity, ReusedWhileFilesUnchanged) {
  TempDir dir;
  CompileCache cache(dir.str());
  SmallString<128> lib(dir.str());
  sys::path::append(lib, "libcompiler.so");
  writeFile(lib, "version 1");
  std::vector<std::string> files = {std::string(lib)};

  EXPECT_FALSE(cache.lookupCompilerIdentity("ocloc"));
  ASSERT_FALSE(
      errorToBool(cache.storeCompilerIdentity("ocloc", "ocloc 1.0", files)));
  EXPECT_EQ(cache.lookupCompilerIdentity("ocloc"), "ocloc 1.0");
  // Another context (backend, worker, environment) is another entry.
  EXPECT_FALSE(cache.lookupCompilerIdentity("level-zero"));
  // A changed library invalidates the identity.
  writeFile(lib, "version 2, longer");
  EXPECT_FALSE(cache.lookupCompilerIdentity("ocloc"));
  ASSERT_FALSE(
      errorToBool(cache.storeCompilerIdentity("ocloc", "ocloc 2.0", files)));
  EXPECT_EQ(cache.lookupCompilerIdentity("ocloc"), "ocloc 2.0");
  // So does a removed one.
  ASSERT_FALSE(sys::fs::remove(lib));
  EXPECT_FALSE(cache.lookupCompilerIdentity("ocloc"));
  // Without files there is nothing to validate against: not stored.
  EXPECT_TRUE(errorToBool(cache.storeCompilerIdentity("ocloc", "x", {})));
}

} // namespace
