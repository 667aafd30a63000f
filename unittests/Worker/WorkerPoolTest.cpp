//===- WorkerPoolTest.cpp - Worker pool tests with the real compiler ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// These tests run the real IGC (libocloc) in real xpu-compile-worker
// processes: valid kernels, spilling kernels, inputs that make IGC exit()
// or abort(), runaway inputs, and limits. test/Inputs/Worker holds the SPIR-V
// and how it was made.
//
//===----------------------------------------------------------------------===//

#include "WorkerTestSupport.h"

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::test;

namespace {

/// The number in IGC's "spilled around N" build log line (0 if none).
unsigned spillFigure(StringRef log) {
  size_t at = log.find("spilled around ");
  unsigned figure = 0;
  if (at != StringRef::npos)
    (void)log.drop_front(at + strlen("spilled around "))
        .take_while([](char c) { return c >= '0' && c <= '9'; })
        .getAsInteger(10, figure);
  return figure;
}

/// Asserts that a valid kernel still compiles on `pool` (it survived).
void expectStillCompiles(WorkerPool &pool) {
  Expected<WorkerResponse> next = pool.run(request("add.spv"));
  ASSERT_OK(next);
  EXPECT_TRUE(next->succeeded) << next->log;
  EXPECT_TRUE(isZebin(next->binary));
}

/// Shared by the tests that do not need special limits, so most tests pay
/// for worker start-up once.
class WorkerPoolTest : public testing::Test {
protected:
  static void SetUpTestSuite() {
    if (!haveOcloc())
      return;
    Expected<std::unique_ptr<WorkerPool>> created =
        WorkerPool::create(/*maxWorkers=*/2, WorkerLimits{});
    if (!created) {
      ADD_FAILURE() << toString(created.takeError());
      return;
    }
    pool = created->release();
  }
  static void TearDownTestSuite() {
    delete pool;
    pool = nullptr;
  }
  void SetUp() override {
    if (!haveOcloc())
      GTEST_SKIP() << "libocloc.so not installed";
    ASSERT_NE(pool, nullptr);
  }

  static WorkerPool *pool;
};

WorkerPool *WorkerPoolTest::pool = nullptr;

TEST_F(WorkerPoolTest, CompilesValidKernelToZebin) {
  Expected<WorkerResponse> response = pool->run(request("add.spv"));
  ASSERT_OK(response);
  EXPECT_TRUE(response->succeeded) << response->log;
  EXPECT_EQ(response->returnCode, 0);
  EXPECT_TRUE(isZebin(response->binary));
  EXPECT_EQ(response->log.find("spilled"), std::string::npos);
  EXPECT_GT(response->compileMs, 0);
  EXPECT_LT(response->compileMs, 60000);

  // Recompiles are byte-identical.
  Expected<WorkerResponse> again = pool->run(request("add.spv"));
  ASSERT_OK(again);
  EXPECT_EQ(again->binary, response->binary);
}

TEST_F(WorkerPoolTest, SpillWarningInSmallGRFMode) {
  Expected<WorkerResponse> small =
      pool->run(request("spill.spv", "-cl-intel-128-GRF-per-thread"));
  ASSERT_OK(small);
  EXPECT_TRUE(small->succeeded) << small->log;
  EXPECT_TRUE(isZebin(small->binary));
  EXPECT_NE(small->log.find("spilled around"), std::string::npos) << small->log;

  // Per-call options take effect: large GRF mode spills less.
  Expected<WorkerResponse> large =
      pool->run(request("spill.spv", "-cl-intel-256-GRF-per-thread"));
  ASSERT_OK(large);
  EXPECT_TRUE(large->succeeded) << large->log;
  EXPECT_NE(small->log.find("allocated 128 regs"), std::string::npos);
  EXPECT_NE(large->log.find("allocated 256 regs"), std::string::npos)
      << large->log;
  EXPECT_LT(spillFigure(large->log), spillFigure(small->log));
}

TEST_F(WorkerPoolTest, UnknownDeviceIsACleanFailure) {
  WorkerRequest req = request("add.spv");
  req.device = "no-such-gpu";
  Expected<WorkerResponse> response = pool->run(req);
  ASSERT_OK(response);
  EXPECT_FALSE(response->succeeded);
  EXPECT_NE(response->returnCode, 0);
  EXPECT_TRUE(response->binary.empty());
  EXPECT_NE(response->log.find("no-such-gpu"), std::string::npos)
      << response->log;
}

TEST_F(WorkerPoolTest, GarbageThenNextJobSucceeds) {
  WorkerRequest req = request("add.spv");
  req.spirv.assign(333, '\x5a');
  Expected<WorkerResponse> response = pool->run(req);
  // Either IGC rejects it cleanly or the worker dies; never a success.
  if (response)
    EXPECT_FALSE(response->succeeded);
  else
    EXPECT_NE(errorText(response).find("compiler worker"), std::string::npos);
  expectStillCompiles(*pool);
}

// Found by test/Inputs/Worker/find_fatal_corruptions.py: IGC calls
// exit(1).
TEST_F(WorkerPoolTest, CompilerExitIsAnErrorAndPoolSurvives) {
  Expected<WorkerResponse> response = pool->run(request("corrupt-exit.spv"));
  ASSERT_FALSE(response);
  std::string message = errorText(response);
  EXPECT_NE(message.find("compiler worker exited with status 1"),
            std::string::npos)
      << message;
  expectStillCompiles(*pool);
}

// Found by test/Inputs/Worker/find_fatal_corruptions.py: IGC crashes into
// abort().
TEST_F(WorkerPoolTest, CompilerAbortIsAnErrorAndPoolSurvives) {
  Expected<WorkerResponse> response = pool->run(request("corrupt-abort.spv"));
  ASSERT_FALSE(response);
  std::string message = errorText(response);
  EXPECT_NE(message.find("compiler worker killed by signal 6 ("),
            std::string::npos)
      << message;
  expectStillCompiles(*pool);
}

TEST_F(WorkerPoolTest, CompilerChatterNeverReachesHostStreams) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Expected<WorkerResponse> crashed = pool->run(request("corrupt-exit.spv"));
  Expected<WorkerResponse> garbage = [&] {
    WorkerRequest req = request("add.spv");
    req.spirv.assign(64, '\x01');
    return pool->run(req);
  }();
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  consumeError(crashed.takeError());
  consumeError(garbage.takeError());
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

// Without a Level Zero driver (no GPU here; lit does not pass
// ZE_ENABLE_ALT_DRIVERS through), the Level Zero backend fails zeInit in the
// worker: a clean error for every Level Zero job, and the worker stays up.
TEST_F(WorkerPoolTest, LevelZeroWithoutDriverIsACleanError) {
  if (std::getenv("ZE_ENABLE_ALT_DRIVERS"))
    GTEST_SKIP() << "a Level Zero driver is configured";
  WorkerRequest req = request("add.spv");
  req.backend = WorkerBackend::LevelZero;
  Expected<WorkerResponse> response = pool->run(req);
  if (response)
    GTEST_SKIP() << "a Level Zero device is present";
  std::string text = errorText(response);
  EXPECT_TRUE(text.find("zeInit failed") != std::string::npos ||
              text.find("no Level Zero device") != std::string::npos)
      << text;
  expectStillCompiles(*pool);
}

TEST_F(WorkerPoolTest, CompilerIdentityIsStable) {
  Expected<std::string> identity =
      pool->getCompilerIdentity(WorkerBackend::Ocloc);
  ASSERT_OK(identity);
  EXPECT_TRUE(StringRef(*identity).starts_with("ocloc ")) << *identity;
  EXPECT_EQ(identity->find("unknown"), std::string::npos) << *identity;
  EXPECT_NE(identity->find("(API 1."), std::string::npos) << *identity;
  EXPECT_NE(identity->find(" libraries "), std::string::npos) << *identity;

  // A different pool (fresh worker processes) reports the same identity.
  Expected<std::unique_ptr<WorkerPool>> other = WorkerPool::create(1);
  ASSERT_OK(other);
  Expected<std::string> again =
      (*other)->getCompilerIdentity(WorkerBackend::Ocloc);
  ASSERT_OK(again);
  EXPECT_EQ(*again, *identity);
}

TEST_F(WorkerPoolTest, ConcurrentRunsFromFourThreads) {
  Expected<WorkerResponse> reference = pool->run(request("add.spv"));
  ASSERT_OK(reference);
  WorkerRequest req = request("add.spv");
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) {
        Expected<WorkerResponse> response = pool->run(req);
        if (!response)
          failures[t] += toString(response.takeError()) + "\n";
        else if (!response->succeeded || response->binary != reference->binary)
          failures[t] += "wrong result: " + response->log + "\n";
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &failure : failures)
    EXPECT_EQ(failure, "");
  EXPECT_EQ(pool->getMaxWorkers(), 2u);
}

// Own pools from here on: limits that no other test wants.

TEST(WorkerPoolLimits, TimeLimitKillsTheJobAndPoolSurvives) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  // slow.spv takes IGC about 4 s; add.spv about 40 ms.
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{/*memoryMiB=*/8192,
                                         /*timeoutMs=*/1500});
  ASSERT_OK(pool);
  Expected<WorkerResponse> response =
      (*pool)->run(request("slow.spv", "-cl-intel-128-GRF-per-thread"));
  ASSERT_FALSE(response);
  std::string message = errorText(response);
  // Start-up does not count against the job's limit, so this is the job,
  // killed at its limit (a loaded machine only makes IGC slower).
  EXPECT_NE(message.find("compiler worker exceeded the 1500 ms time limit"),
            std::string::npos)
      << message;
  expectStillCompiles(**pool);
}

TEST(WorkerPoolLimits, TinyTimeLimit) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{/*memoryMiB=*/0, /*timeoutMs=*/1});
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("spill.spv"));
  ASSERT_FALSE(response);
  EXPECT_NE(errorText(response).find("exceeded the 1 ms time limit"),
            std::string::npos);
}

TEST(WorkerPoolLimits, MemoryLimitIsAnError) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  // Enough to load and warm IGC, far too little for runaway.spv (one
  // flipped byte that makes IGC allocate many gigabytes).
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{/*memoryMiB=*/1024,
                                         /*timeoutMs=*/60000});
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("runaway.spv"));
  ASSERT_FALSE(response);
  std::string message = errorText(response);
  EXPECT_NE(message.find("the 1024 MiB memory limit"), std::string::npos)
      << message;
  expectStillCompiles(**pool);
}

TEST(WorkerPoolLimits, MemoryLimitTooSmallToStart) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{/*memoryMiB=*/16,
                                         /*timeoutMs=*/60000});
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  ASSERT_FALSE(response);
  std::string message = errorText(response);
  EXPECT_NE(message.find("16 MiB"), std::string::npos) << message;
}

TEST(WorkerPoolDiscovery, HonoursEnvironmentOverride) {
  const char *saved = std::getenv("XPU_CODEGEN_WORKER");
  std::string savedValue = saved ? saved : "";

  ::unsetenv("XPU_CODEGEN_WORKER");
  std::string found = findWorkerExecutable();
  // The test binary lives in build/bin next to the worker.
  EXPECT_EQ(sys::path::filename(found), "xpu-compile-worker") << found;
  EXPECT_TRUE(sys::fs::can_execute(found)) << found;

  ::setenv("XPU_CODEGEN_WORKER", "/nonexistent/xpu-compile-worker", 1);
  EXPECT_EQ(findWorkerExecutable(), "/nonexistent/xpu-compile-worker");
  Expected<std::unique_ptr<WorkerPool>> pool = WorkerPool::create(1);
  ASSERT_FALSE(pool);
  EXPECT_NE(errorText(pool).find("XPU_CODEGEN_WORKER"), std::string::npos);

  ::setenv("XPU_CODEGEN_WORKER", found.c_str(), 1);
  EXPECT_EQ(findWorkerExecutable(), found);

  if (saved)
    ::setenv("XPU_CODEGEN_WORKER", savedValue.c_str(), 1);
  else
    ::unsetenv("XPU_CODEGEN_WORKER");
}

TEST(WorkerPoolDiscovery, MissingCompilerLibraryIsACleanError) {
  const char *saved = std::getenv("XPU_CODEGEN_OCLOC_LIBRARY");
  std::string savedValue = saved ? saved : "";
  // Workers inherit the environment at spawn time.
  ::setenv("XPU_CODEGEN_OCLOC_LIBRARY", "/nonexistent/libocloc.so", 1);
  Expected<std::unique_ptr<WorkerPool>> pool = WorkerPool::create(1);
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  Expected<std::string> identity =
      (*pool)->getCompilerIdentity(WorkerBackend::Ocloc);
  if (saved)
    ::setenv("XPU_CODEGEN_OCLOC_LIBRARY", savedValue.c_str(), 1);
  else
    ::unsetenv("XPU_CODEGEN_OCLOC_LIBRARY");
  ASSERT_FALSE(response);
  EXPECT_NE(errorText(response).find(
                "cannot load the ocloc library '/nonexistent/libocloc.so'"),
            std::string::npos);
  EXPECT_FALSE(identity);
  consumeError(identity.takeError());
}

// The compiler root is resolved at the run's edge (CompileSession, the
// Level Zero offline driver), never by the pool: a pool given no
// installation runs the system's compiler whatever the environment names,
// and one given an installation runs that one.
TEST(WorkerPoolDiscovery, ThePoolReadsNoCompilerRoot) {
  const char *saved = std::getenv("XPU_CODEGEN_COMPILER_ROOT");
  std::string savedValue = saved ? saved : "";
  ::setenv("XPU_CODEGEN_COMPILER_ROOT", "/nonexistent/compiler-root", 1);
  Expected<std::unique_ptr<WorkerPool>> pool = WorkerPool::create(1);
  CompilerInstallation named;
  named.root = "/resolved/elsewhere";
  Expected<std::unique_ptr<WorkerPool>> given =
      WorkerPool::create(1, {}, "", {}, kDefaultStartupMs,
                         WorkerProgram::CompileWorker, 0, &named);
  if (saved)
    ::setenv("XPU_CODEGEN_COMPILER_ROOT", savedValue.c_str(), 1);
  else
    ::unsetenv("XPU_CODEGEN_COMPILER_ROOT");
  ASSERT_OK(pool);
  EXPECT_TRUE((*pool)->getCompiler().isSystem()) << (*pool)->getCompiler().root;
  ASSERT_OK(given);
  EXPECT_EQ((*given)->getCompiler().root, "/resolved/elsewhere");
}

TEST(WorkerPoolDiscovery, BrokenWorkerIsAStartupError) {
  // /bin/true exits at once without saying hello.
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{}, "/bin/true");
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  ASSERT_FALSE(response);
  EXPECT_NE(errorText(response).find(
                "compiler worker failed to start: exited with status 0"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Misbehaving workers (test/Inputs/Worker/fake-worker.py speaks the protocol)
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<WorkerPool>> fakePool(uint64_t startupMs = 60000) {
  return WorkerPool::create(1, WorkerLimits{}, fakeWorker(),
                            /*idleMs=*/uint64_t(0), startupMs);
}

// An unsolicited extra reply must never pass for the next job's answer.
TEST(WorkerPoolHostile, ExtraReplyIsNotTheNextAnswer) {
  ScopedEnv mode("XPU_FAKE_WORKER", "extra-reply");
  Expected<std::unique_ptr<WorkerPool>> pool = fakePool();
  ASSERT_OK(pool);
  // The worker that spoke out of turn is replaced: either while idle (the
  // next job runs on a fresh worker) or when its stale frame arrives during
  // the next job (that job fails, naming why). Never the extra answer.
  unsigned answered = 0;
  for (int job = 0; job < 6; ++job) {
    Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
    if (!response) {
      EXPECT_NE(errorText(response).find("a stale or unsolicited reply"),
                std::string::npos)
          << errorText(response);
      continue;
    }
    EXPECT_EQ(response->compileMs, 12.5) << "job " << job;
    ++answered;
  }
  EXPECT_GE(answered, 3u);
}

TEST(WorkerPoolHostile, ReplyToAnotherRequestIsAnError) {
  ScopedEnv mode("XPU_FAKE_WORKER", "wrong-id");
  Expected<std::unique_ptr<WorkerPool>> pool = fakePool();
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  EXPECT_NE(errorText(response).find("a stale or unsolicited reply"),
            std::string::npos)
      << errorText(response);
}

// A NaN compile time became -9223372036854775808 ms in a report.
TEST(WorkerPoolHostile, NaNCompileTimeIsAnError) {
  ScopedEnv mode("XPU_FAKE_WORKER", "nan");
  Expected<std::unique_ptr<WorkerPool>> pool = fakePool();
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  EXPECT_NE(errorText(response).find("implausible compile response"),
            std::string::npos)
      << errorText(response);
}

// A worker that never says hello cost the whole start-up limit per module,
// serially: now one start-up and its retry, then the same error at once.
TEST(WorkerPoolHostile, SilentWorkerCostsOneStartup) {
  SmallString<128> log;
  ASSERT_FALSE(sys::fs::createTemporaryFile("fake-worker", "log", log));
  ScopedEnv mode("XPU_FAKE_WORKER", "silent");
  ScopedEnv logEnv("XPU_FAKE_WORKER_LOG", log.str().str());
  Expected<std::unique_ptr<WorkerPool>> pool = fakePool(/*startupMs=*/1000);
  ASSERT_OK(pool);
  for (int job = 0; job < 4; ++job) {
    Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
    EXPECT_NE(errorText(response).find("time limit while starting"),
              std::string::npos)
        << errorText(response);
  }
  EXPECT_EQ((*pool)->getWorkersStarted(), 0u);
  // The cost is counted in starts, not seconds: one line per start (a start
  // killed before it wrote its line counts as none). Was two per job.
  ErrorOr<std::unique_ptr<MemoryBuffer>> starts = MemoryBuffer::getFile(log);
  ASSERT_TRUE(bool(starts));
  SmallVector<StringRef> lines;
  (*starts)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  EXPECT_LE(lines.size(), 2u);
  (void)sys::fs::remove(log);
}

// The private directory of a worker that dies before saying hello leaked.
TEST(WorkerPoolHostile, EarlyDeathLeavesNoDirectory) {
  SmallString<128> log;
  ASSERT_FALSE(sys::fs::createTemporaryFile("fake-worker", "log", log));
  ScopedEnv mode("XPU_FAKE_WORKER", "die-early");
  ScopedEnv logEnv("XPU_FAKE_WORKER_LOG", log.str().str());
  Expected<std::unique_ptr<WorkerPool>> pool = fakePool();
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  EXPECT_NE(errorText(response).find("exited with status 3"), std::string::npos)
      << errorText(response);
  ErrorOr<std::unique_ptr<MemoryBuffer>> dirs = MemoryBuffer::getFile(log);
  ASSERT_TRUE(bool(dirs));
  // One line per start: the start and its retry.
  SmallVector<StringRef> lines;
  (*dirs)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  EXPECT_FALSE(lines.empty());
  for (StringRef dir : lines) {
    EXPECT_TRUE(dir.contains("xpu-compile-worker-")) << dir.str();
    EXPECT_FALSE(sys::fs::exists(dir)) << dir.str();
  }
  (void)sys::fs::remove(log);
}

} // namespace

// Idle workers (each holding the compiler) exit after the idle time.
TEST_F(WorkerPoolTest, IdleWorkersAreReaped) {
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{}, "", /*idleMs=*/uint64_t(300));
  ASSERT_OK(pool);
  Expected<WorkerResponse> first = (*pool)->run(request("add.spv"));
  ASSERT_OK(first);
  // Counted in starts: on a loaded machine the worker may already be gone.
  EXPECT_EQ((*pool)->getWorkersStarted(), 1u);
  for (int i = 0; i < 1200 && (*pool)->getWorkersAlive(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ((*pool)->getWorkersAlive(), 0u);
  Expected<WorkerResponse> second = (*pool)->run(request("add.spv"));
  ASSERT_OK(second);
  EXPECT_EQ((*pool)->getWorkersStarted(), 2u);
}

TEST_F(WorkerPoolTest, SharedPoolsHonourEachCallersLimits) {
  WorkerLimits generous{/*memoryMiB=*/4096, /*timeoutMs=*/300000};
  WorkerLimits strict{/*memoryMiB=*/4096, /*timeoutMs=*/1};
  Expected<WorkerPool &> first = WorkerPool::getShared(1, generous);
  ASSERT_TRUE(bool(first)) << toString(first.takeError());
  Expected<WorkerPool &> again = WorkerPool::getShared(1, generous);
  ASSERT_TRUE(bool(again)) << toString(again.takeError());
  EXPECT_EQ(&*first, &*again);

  // Different limits: a different pool, whose jobs really run under them.
  Expected<WorkerPool &> other = WorkerPool::getShared(1, strict);
  ASSERT_TRUE(bool(other)) << toString(other.takeError());
  EXPECT_NE(&*first, &*other);
  Expected<WorkerResponse> timedOut = other->run(request("spill.spv"));
  ASSERT_FALSE(bool(timedOut));
  EXPECT_NE(toString(timedOut.takeError()).find("time limit"),
            std::string::npos);
  Expected<WorkerResponse> fine = first->run(request("add.spv"));
  ASSERT_TRUE(bool(fine)) << toString(fine.takeError());
  EXPECT_TRUE(fine->succeeded);
}
