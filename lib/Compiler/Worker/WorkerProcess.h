//===- WorkerProcess.h - One worker process and its channel
//-----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Compiler/Worker: the host side of one worker process
// (WorkerProcess.cpp: starting and stopping it; WorkerChannel.cpp: one
// request/reply exchange under a deadline), used by the pool (WorkerPool.cpp)
// and found by WorkerLocation.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_WORKER_WORKERPROCESS_H
#define XPUCODEGEN_LIB_TARGET_WORKER_WORKERPROCESS_H

#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Compiler/Worker/WorkerProtocol.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace mlir::xpu::detail {

namespace proto = mlir::xpu::protocol;

using Clock = std::chrono::steady_clock;

/// What messages call a process of each WorkerProgram.
inline llvm::StringRef describeProgram(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "SPIR-V emitter"
                                                : "compiler worker";
}
/// Start-up (loading and warming IGC) is not a job: it gets at least this
/// long regardless of the per-job limit.
inline constexpr uint64_t kMinStartupMs = 60000;
/// How much of a worker's stderr to keep for error messages.
inline constexpr size_t kStderrTailBytes = 8192;
/// How long an orderly shutdown may take before SIGKILL.
inline constexpr auto kShutdownGrace = std::chrono::seconds(2);

inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The start-up limit of the shared pools: $XPU_CODEGEN_WORKER_STARTUP_MS
/// (0: none), else kDefaultStartupMs (WorkerLimits.cpp).
uint64_t getSharedStartupMs();

inline std::optional<Clock::time_point> deadlineAfter(uint64_t ms) {
  if (ms == 0)
    return std::nullopt;
  return Clock::now() + std::chrono::milliseconds(ms);
}

/// A fresh request id (never 0, the hello's).
inline uint64_t nextRequestId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

/// A file descriptor closed on destruction.
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd(fd) {}
  UniqueFd(UniqueFd &&other) : fd(std::exchange(other.fd, -1)) {}
  UniqueFd &operator=(UniqueFd &&other) {
    reset(std::exchange(other.fd, -1));
    return *this;
  }
  ~UniqueFd() { reset(); }
  int get() const { return fd; }
  void reset(int newFd = -1) {
    if (fd >= 0)
      ::close(fd);
    fd = newFd;
  }

private:
  int fd = -1;
};

/// One worker process and its channel. Not thread-safe: the pool hands a
/// worker to one job at a time.
class WorkerProcess {
public:
  /// Starts the process; it is not ready before awaitHello() succeeded.
  static llvm::Expected<std::unique_ptr<WorkerProcess>>
  launch(const std::string &path, const WorkerLimits &limits,
         WorkerProgram program, const CompilerInstallation &compiler);

  /// Waits for the worker's hello; a worker that sends anything else, or
  /// nothing in time, is killed and the error says so.
  llvm::Error awaitHello(uint64_t startupMs);

  ~WorkerProcess() {
    // In a forked child the process, its channel and its directory are the
    // parent's: leave them alone (the descriptors are only copies).
    if (!isOwner())
      return;
    beginShutdown();
    finishShutdown();
  }

  /// Closes the channel; an idle worker then exits on its own.
  void beginShutdown() { channel.reset(); }
  /// Kills the process and whatever it forked now (from another thread:
  /// the owner of the job or start then sees it die).
  void cancel() const { killGroup(); }
  /// True in the process that started this worker (not a forked child).
  bool isOwner() const { return ownerPid == ::getpid(); }

  /// When the worker last finished a job.
  Clock::time_point idleSince = Clock::now();
  /// Waits for the worker (SIGKILL after a grace period) and cleans up.
  void finishShutdown();

  bool isAlive() const { return pid > 0; }
  /// Jobs this process has been given.
  unsigned jobsRun = 0;
  pid_t getPid() const { return pid; }
  /// False if the process has exited while idle (reaps it), or has said
  /// anything while nobody asked (kills it: an idle worker is silent, and
  /// an unsolicited frame must never pass for the next job's reply).
  bool checkIdle();

  llvm::Expected<WorkerResponse> compile(const WorkerRequest &request);
  llvm::Expected<std::string> identity(WorkerBackend backend);

private:
  WorkerProcess(pid_t pid, UniqueFd channel, UniqueFd errPipe,
                const WorkerLimits &limits, std::string workDir,
                WorkerProgram program)
      : pid(pid), channel(std::move(channel)), errPipe(std::move(errPipe)),
        limits(limits), workDir(std::move(workDir)),
        what(describeProgram(program).str()) {}

  /// Sends `out` (may be empty) and waits for the frame answering request
  /// `id` (0: the hello) until `deadline`. Any failure, including a frame
  /// for another request, leaves the worker dead and reaped.
  llvm::Expected<proto::Frame>
  transact(llvm::StringRef out, uint64_t id,
           std::optional<Clock::time_point> deadline, uint64_t limitMs,
           bool startup);

  /// SIGKILL to the worker's process group (it leads one of its own), under
  /// reapMutex: never once the process is reaped.
  void killGroup() const;
  /// killGroup with reapMutex held.
  void killGroupLocked() const;
  /// Error for a worker that died on its own; reaps it.
  llvm::Error diedError(bool startup);
  /// Kills, reaps and returns an error with `message`.
  llvm::Error killWith(const llvm::Twine &message);
  /// Reads what the worker wrote to stderr so far (non-blocking).
  void drainStderr();
  /// Reaps the process, waiting at most `grace` before SIGKILL. Returns the
  /// wait status, or std::nullopt when unavailable.
  std::optional<int> reap(Clock::duration grace);
  void removeWorkDir();
  void cleanUpAfterExit();
  std::string describeStatus(std::optional<int> status);

  /// The worker's pid, -1 once reaped. Read by other threads (cancel()).
  std::atomic<pid_t> pid;
  /// Held while the process is signalled and while it is reaped, so that a
  /// cancel() from another thread never signals a pid (or a process group)
  /// the kernel has already given to an unrelated process: the reaping
  /// thread sets pid to -1 before it lets go.
  mutable std::mutex reapMutex;
  pid_t ownerPid = ::getpid();
  UniqueFd channel;
  UniqueFd errPipe;
  WorkerLimits limits;
  /// The worker's private working directory, made by the host before the
  /// worker starts, so that it is removed however early the worker dies.
  std::string workDir;
  std::string stderrTail;
  /// Peak resident set size of the reaped process (wait4).
  long peakRssKiB = 0;
  proto::FrameDecoder decoder;
  /// What messages call this process ("compiler worker", "SPIR-V emitter").
  std::string what;
};

/// Regular files mapped into process `pid`, sorted and unique.
std::vector<std::string> getMappedFiles(pid_t pid);

/// Where a worker of `program` may be, in search order (WorkerLocation.cpp).
std::vector<std::string> workerCandidates(WorkerProgram program);

} // namespace mlir::xpu::detail

#endif // XPUCODEGEN_LIB_TARGET_WORKER_WORKERPROCESS_H
