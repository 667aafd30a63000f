//===- CheckedThreadTest.cpp - A thread whose start may fail --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/CheckedThread.h"

#include "gtest/gtest.h"

#include <atomic>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::xpu;

namespace {

TEST(CheckedThread, RunsTheBodyAndJoins) {
  std::atomic<int> ran{0};
  llvm::Expected<CheckedThread> thread =
      CheckedThread::start([&] { ran = 42; });
  ASSERT_TRUE(bool(thread)) << llvm::toString(thread.takeError());
  EXPECT_TRUE(thread->joinable());
  thread->join();
  EXPECT_FALSE(thread->joinable());
  EXPECT_EQ(ran.load(), 42);
}

TEST(CheckedThread, MovesOwnership) {
  llvm::Expected<CheckedThread> thread = CheckedThread::start([] {});
  ASSERT_TRUE(bool(thread)) << llvm::toString(thread.takeError());
  CheckedThread moved = std::move(*thread);
  EXPECT_FALSE(thread->joinable());
  EXPECT_TRUE(moved.joinable());
  moved.join();
}

/// A pids cgroup (v1) that admits one task, for root, whom RLIMIT_NPROC
/// does not bind; empty when none can be made.
std::string makeOneTaskCgroup() {
  std::string dir =
      "/sys/fs/cgroup/pids/xpu-checked-thread-" + std::to_string(::getpid());
  if (::mkdir(dir.c_str(), 0755) != 0)
    return "";
  std::ofstream(dir + "/pids.max") << "1\n";
  return dir;
}

TEST(CheckedThread, AFailedStartIsAnErrorNotAnAbort) {
  // In a child, whose limit reaches nothing else: with no room for another
  // task, start() says so, where std::thread would throw and abort this
  // -fno-exceptions code.
  std::string cgroup = ::getuid() == 0 ? makeOneTaskCgroup() : "";
  if (::getuid() == 0 && cgroup.empty())
    GTEST_SKIP() << "root without a pids cgroup to limit the child";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (cgroup.empty()) {
      struct rlimit none = {0, 0};
      ::setrlimit(RLIMIT_NPROC, &none);
    } else {
      std::ofstream(cgroup + "/cgroup.procs") << ::getpid() << "\n";
    }
    llvm::Expected<CheckedThread> thread = CheckedThread::start([] {});
    if (thread)
      ::_exit(2);
    std::string message = llvm::toString(thread.takeError());
    ::_exit(message.find("cannot create a thread") == 0 ? 0 : 3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  if (!cgroup.empty())
    ::rmdir(cgroup.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of a signal";
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "2: the thread started despite the limit; 3: another error";
}

} // namespace
