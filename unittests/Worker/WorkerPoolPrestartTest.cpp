//===- WorkerPoolPrestartTest.cpp - Workers started before a job ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// WorkerPool::prestart with the real compiler: the workers it starts, the
// identity query it makes once, and start failures left for the first job.
//
//===----------------------------------------------------------------------===//

#include "WorkerTestSupport.h"

#include <chrono>
#include <thread>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::test;

namespace {

/// Waits (up to a minute) until `pool` has `count` workers alive.
bool waitForWorkers(const WorkerPool &pool, unsigned count) {
  for (int i = 0; i < 600 && pool.getWorkersAlive() < count; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return pool.getWorkersAlive() >= count;
}

TEST(WorkerPoolPrestart, StartsEveryWorkerAndAsksTheIdentityOnce) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(2, WorkerLimits{}, "", /*idleMs=*/uint64_t(0));
  ASSERT_OK(pool);
  EXPECT_TRUE((*pool)->prestart(WorkerBackend::Ocloc, /*builds=*/2));
  // Waits for the prestart's identity query instead of asking again.
  Expected<std::string> identity =
      (*pool)->getCompilerIdentity(WorkerBackend::Ocloc);
  ASSERT_OK(identity);
  ASSERT_TRUE(waitForWorkers(**pool, 2));
  EXPECT_EQ((*pool)->getWorkersStarted(), 2u);
  EXPECT_FALSE((*pool)->getCompilerIdentityFiles(WorkerBackend::Ocloc).empty());

  // Jobs then run on the prestarted workers; a second prestart does nothing.
  EXPECT_FALSE((*pool)->prestart(WorkerBackend::Ocloc, /*builds=*/2));
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  ASSERT_OK(response);
  EXPECT_TRUE(response->succeeded) << response->log;
  EXPECT_EQ((*pool)->getWorkersStarted(), 2u);
}

TEST(WorkerPoolPrestart, StartsAgainOnceIdleWorkersAreReaped) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(2, WorkerLimits{}, "", /*idleMs=*/uint64_t(300));
  ASSERT_OK(pool);
  EXPECT_TRUE((*pool)->prestart(WorkerBackend::Ocloc, /*builds=*/2));
  ASSERT_TRUE(waitForWorkers(**pool, 2));
  // A full pool starts nothing more.
  EXPECT_FALSE((*pool)->prestart(WorkerBackend::Ocloc, /*builds=*/2));
  for (int i = 0; i < 200 && (*pool)->getWorkersAlive(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ((*pool)->getWorkersAlive(), 0u);
  // Reaped: a later run (e.g. the next compile of a Python process) gets
  // its workers started early again; the identity is already known.
  EXPECT_TRUE((*pool)->prestart(WorkerBackend::Ocloc, /*builds=*/2));
  ASSERT_TRUE(waitForWorkers(**pool, 2));
  EXPECT_EQ((*pool)->getWorkersStarted(), 4u);
}

TEST(WorkerPoolPrestart, StartsNoMoreWorkersThanBuilds) {
  if (!haveOcloc())
    GTEST_SKIP() << "libocloc.so not installed";
  // jobs=48 for one module: one worker, not 48.
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(48, WorkerLimits{}, "", /*idleMs=*/uint64_t(0));
  ASSERT_OK(pool);
  EXPECT_TRUE((*pool)->prestart(std::nullopt, /*builds=*/1));
  ASSERT_TRUE(waitForWorkers(**pool, 1));
  EXPECT_FALSE((*pool)->prestart(std::nullopt, /*builds=*/1));
  EXPECT_FALSE((*pool)->prestart(std::nullopt, /*builds=*/0));
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  ASSERT_OK(response);
  EXPECT_EQ((*pool)->getWorkersStarted(), 1u);
}

TEST(WorkerPoolPrestart, StartFailureIsTheFirstJobsError) {
  // /bin/true exits at once without saying hello: the prestart's failure is
  // not lost, the first job reports it.
  Expected<std::unique_ptr<WorkerPool>> pool =
      WorkerPool::create(1, WorkerLimits{}, "/bin/true");
  ASSERT_OK(pool);
  EXPECT_TRUE((*pool)->prestart(std::nullopt, /*builds=*/1));
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  ASSERT_FALSE(response);
  EXPECT_NE(errorText(response).find("compiler worker failed to start"),
            std::string::npos)
      << errorText(response);
}

} // namespace
