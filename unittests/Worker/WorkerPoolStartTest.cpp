//===- WorkerPoolStartTest.cpp - Workers that die or stall at start -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Start faults (test/Inputs/Worker/start-fault.sh around fake-worker.py or
// the real xpu-spirv-emitter): one start killed or stopped before its hello
// costs its job a retry, never a job; a worker that can never start fails
// every job fast; and whatever a worker forked goes when the worker does.
//
//===----------------------------------------------------------------------===//

#include "WorkerTestSupport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <csignal>
#include <thread>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::test;

namespace {

using Clock = std::chrono::steady_clock;

/// Workers started through start-fault.sh with `fault` at start number
/// `at`, around `worker`; the starts are counted in a fresh directory.
class StartFaults {
public:
  StartFaults(StringRef fault, unsigned at, std::string worker = fakeWorker())
      : faultEnv("XPU_START_FAULT", fault.str()),
        atEnv("XPU_START_FAULT_AT", std::to_string(at)),
        workerEnv("XPU_START_WORKER", worker),
        countEnv("XPU_START_COUNT_DIR", makeCountDir()) {}
  ~StartFaults() { (void)sys::fs::remove_directories(countDir); }

  /// Starts so far, the faulty one included.
  unsigned getStarts() const {
    unsigned starts = 0;
    while (sys::fs::exists(countDir + "/" + std::to_string(starts + 1)))
      ++starts;
    return starts;
  }

  static std::string getWrapper() { return workerInput("start-fault.sh"); }

private:
  std::string makeCountDir() {
    SmallString<128> dir;
    EXPECT_FALSE(sys::fs::createUniqueDirectory("worker-starts", dir));
    countDir = dir.str().str();
    return countDir;
  }

  std::string countDir;
  ScopedEnv faultEnv, atEnv, workerEnv, countEnv;
};

Expected<std::unique_ptr<WorkerPool>>
faultyPool(unsigned jobs, uint64_t startupMs = kDefaultStartupMs,
           unsigned maxJobsPerWorker = 0, WorkerLimits limits = {}) {
  return WorkerPool::create(jobs, limits, StartFaults::getWrapper(),
                            /*idleMs=*/uint64_t(0), startupMs,
                            WorkerProgram::CompileWorker, maxJobsPerWorker);
}

/// Runs `count` jobs from `threads` threads; returns each failure.
std::vector<std::string>
runJobs(WorkerPool &pool, unsigned count, unsigned threads,
        const WorkerRequest &job = request("add.spv")) {
  std::vector<std::string> failures(count);
  std::vector<std::thread> runners;
  for (unsigned t = 0; t < threads; ++t)
    runners.emplace_back([&, t] {
      for (unsigned i = t; i < count; i += threads) {
        Expected<WorkerResponse> response = pool.run(job);
        if (!response)
          failures[i] = toString(response.takeError());
        else if (!response->succeeded)
          failures[i] = "not compiled: " + response->log;
      }
    });
  for (std::thread &runner : runners)
    runner.join();
  llvm::erase_if(failures, [](const std::string &f) { return f.empty(); });
  return failures;
}

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Was: the job the start was meant for failed, and every job after it for
// the next 10 s ("not retried for a few seconds"): 12/12 modules.
TEST(WorkerPoolStarts, WorkerKilledBeforeHelloAtAnyStartCostsNoJob) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    for (unsigned at = 1; at <= 3; ++at) {
      StartFaults faults("die", at);
      // Two jobs per worker: six jobs start at least three workers.
      Expected<std::unique_ptr<WorkerPool>> pool =
          faultyPool(jobs, kDefaultStartupMs, /*maxJobsPerWorker=*/2);
      ASSERT_OK(pool);
      std::vector<std::string> failures = runJobs(**pool, 6, jobs);
      EXPECT_EQ(join(failures, "\n"), "") << "jobs=" << jobs << " at=" << at;
      EXPECT_GT(faults.getStarts(), at) << "jobs=" << jobs << " at=" << at;
    }
  }
}

// Was: every job waited for the stalled start's 60 s limit and failed,
// though the other worker had started.
TEST(WorkerPoolStarts, StalledStartLeavesTheJobsToTheOtherWorker) {
  for (unsigned at : {1u, 2u}) {
    auto start = Clock::now();
    StartFaults faults("stop", at);
    {
      Expected<std::unique_ptr<WorkerPool>> pool = faultyPool(2);
      ASSERT_OK(pool);
      std::vector<std::string> failures = runJobs(**pool, 8, 2);
      EXPECT_EQ(join(failures, "\n"), "") << "at=" << at;
      // The stalled start (still within its limit) is killed here.
    }
    EXPECT_LT(secondsSince(start), 30) << "at=" << at;
  }
}

// With one worker there is no other to take the job: the stalled start
// costs its start-up limit, and the job then runs on a new worker with its
// whole time limit (which counts from the job's start, not from the wait).
TEST(WorkerPoolStarts, StalledStartWithOneWorkerIsRetried) {
  StartFaults faults("stop", 1);
  WorkerLimits limits;
  limits.timeoutMs = 2000;
  Expected<std::unique_ptr<WorkerPool>> pool =
      faultyPool(1, /*startupMs=*/4000, /*maxJobsPerWorker=*/0, limits);
  ASSERT_OK(pool);
  std::vector<std::string> failures = runJobs(**pool, 3, 1);
  EXPECT_EQ(join(failures, "\n"), "");
  EXPECT_EQ(faults.getStarts(), 2u);
}

TEST(WorkerPoolStarts, WorkerThatAlwaysDiesFailsEveryJobFast) {
  for (unsigned jobs : {1u, 2u}) {
    StartFaults faults("always-die", 0);
    Expected<std::unique_ptr<WorkerPool>> pool = faultyPool(jobs);
    ASSERT_OK(pool);
    auto start = Clock::now();
    std::vector<std::string> failures = runJobs(**pool, 12, jobs);
    ASSERT_EQ(failures.size(), 12u);
    for (const std::string &failure : failures)
      EXPECT_TRUE(StringRef(failure).starts_with(
                      "compiler worker failed to start: killed by signal "
                      "9") &&
                  StringRef(failure).contains("a retry among them"))
          << failure;
    // Each job its start and a retry at most, however many jobs.
    EXPECT_LE(faults.getStarts(), 2 * jobs);
    // No job waits for a start-up limit (60 s) or a back-off; generous for
    // a loaded machine.
    EXPECT_LT(secondsSince(start), 45);
  }
}

// The SPIR-V emitter pool is the same machinery.
TEST(WorkerPoolStarts, EmitterKilledBeforeHelloCostsNoModule) {
  StartFaults faults("die", 2,
                     findWorkerExecutable(WorkerProgram::SPIRVEmitter));
  WorkerLimits limits;
  limits.memoryMiB = 0;
  Expected<std::unique_ptr<WorkerPool>> pool = WorkerPool::create(
      1, limits, StartFaults::getWrapper(), /*idleMs=*/uint64_t(0),
      kDefaultStartupMs, WorkerProgram::SPIRVEmitter, /*maxJobsPerWorker=*/1);
  ASSERT_OK(pool);
  std::string ir = "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n";
  WorkerRequest emit;
  emit.backend = WorkerBackend::LLVMSPIRV;
  emit.device = "spirv64-unknown-unknown";
  emit.options = "-O0";
  emit.spirv.assign(ir.begin(), ir.end());
  std::vector<std::string> failures = runJobs(**pool, 3, 1, emit);
  EXPECT_EQ(join(failures, "\n"), "");
  EXPECT_EQ(faults.getStarts(), 4u);
}

//===----------------------------------------------------------------------===//
// Process groups: a worker's children go with it
//===----------------------------------------------------------------------===//

/// A child start-fault.sh recorded: its pid and start time (/proc/PID/stat
/// field 22), so that a pid the kernel gave to another process is never
/// taken for it (nor signalled).
struct RecordedChild {
  pid_t pid;
  std::string startTime;
};

/// Whether `child` is a live process (not gone, not a zombie, not another
/// process under a reused pid).
bool isRunning(const RecordedChild &child) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> stat = MemoryBuffer::getFileAsStream(
      "/proc/" + std::to_string(child.pid) + "/stat");
  if (!stat)
    return false;
  // "pid (comm) S ...": the state follows the last ')', the start time is
  // the 20th field after it.
  StringRef text = (*stat)->getBuffer();
  SmallVector<StringRef> fields;
  text.substr(text.rfind(')') + 1).split(fields, ' ', -1, /*KeepEmpty=*/false);
  return fields.size() > 19 && fields[0] != "Z" &&
         fields[19] == child.startTime;
}

/// The children in `file`, "pid starttime" a line, once each is written.
std::vector<RecordedChild> readChildren(StringRef file) {
  std::vector<RecordedChild> children;
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(file);
  if (!text)
    return children;
  SmallVector<StringRef> lines;
  (*text)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [pidText, startTime] = line.trim().split(' ');
    if (pid_t pid; !pidText.getAsInteger(10, pid) && pid > 0)
      children.push_back({pid, startTime.trim().str()});
  }
  return children;
}

/// Waits (up to a minute: a loaded machine) for every child in `file` to be
/// gone; kills survivors.
bool childrenGone(StringRef file) {
  std::vector<RecordedChild> children = readChildren(file);
  EXPECT_FALSE(children.empty());
  auto giveUp = Clock::now() + std::chrono::seconds(60);
  while (llvm::any_of(children, isRunning) && Clock::now() < giveUp)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  bool gone = llvm::none_of(children, isRunning);
  for (const RecordedChild &child : children)
    if (isRunning(child))
      ::kill(child.pid, SIGKILL);
  return gone;
}

/// A file that start-fault.sh appends the pids of the workers' children to.
struct ChildPids {
  ChildPids() : path(makePath()), env("XPU_START_CHILD_PIDS", path) {}
  ~ChildPids() { (void)sys::fs::remove(path); }
  static std::string makePath() {
    SmallString<128> file;
    EXPECT_FALSE(sys::fs::createTemporaryFile("worker-children", "txt", file));
    return file.str().str();
  }
  std::string path;
  ScopedEnv env;
};

TEST(WorkerPoolProcessGroup, TimedOutJobTakesTheWorkersChildren) {
  ChildPids children;
  ScopedEnv mode("XPU_FAKE_WORKER", "hang");
  StartFaults faults("none", 0);
  WorkerLimits limits;
  limits.timeoutMs = 500;
  Expected<std::unique_ptr<WorkerPool>> pool = faultyPool(1, 60000, 0, limits);
  ASSERT_OK(pool);
  Expected<WorkerResponse> response = (*pool)->run(request("add.spv"));
  EXPECT_NE(errorText(response).find("exceeded the 500 ms time limit"),
            std::string::npos)
      << errorText(response);
  EXPECT_TRUE(childrenGone(children.path));
}

TEST(WorkerPoolProcessGroup, StoppedWorkersTakeTheirChildren) {
  ChildPids children;
  StartFaults faults("none", 0);
  {
    Expected<std::unique_ptr<WorkerPool>> pool = faultyPool(2);
    ASSERT_OK(pool);
    EXPECT_EQ(join(runJobs(**pool, 4, 2), "\n"), "");
  } // The workers exit when their channel closes; their children with them.
  EXPECT_TRUE(childrenGone(children.path));
}

} // namespace
