//===- WorkerPool.cpp - Pools of isolated worker processes
//------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Worker processes started on demand, handed to one job at a time, reaped
// when idle, and shared per program, limits and compiler in a process.
//
//===----------------------------------------------------------------------===//

#include "WorkerProcess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define DEBUG_TYPE "xpu-worker"

using namespace llvm;

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Threading.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <tuple>

namespace mlir::xpu {

using namespace detail;

namespace {

/// How long a failed start makes later starts fail at once.
constexpr auto kStartupRetryDelay = std::chrono::seconds(10);

class WorkerPoolImpl final : public WorkerPool {
public:
  WorkerPoolImpl(unsigned maxWorkers, WorkerLimits limits, std::string path,
                 uint64_t idleMs, uint64_t startupMs, WorkerProgram program,
                 unsigned maxJobsPerWorker, CompilerInstallation compiler)
      : maxWorkers(maxWorkers), limits(limits), path(std::move(path)),
        idleMs(idleMs), startupMs(startupMs), program(program),
        maxJobsPerWorker(maxJobsPerWorker), compiler(std::move(compiler)) {}

  const CompilerInstallation &getCompiler() const override { return compiler; }

  ~WorkerPoolImpl() override {
    if (!isOwner())
      return; // A forked child's copy: nothing here is the child's.
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    reaperWake.notify_all();
    if (reaper.joinable())
      reaper.join();
    for (std::thread &starter : starters)
      starter.join();
    // Close every channel first so the workers exit in parallel.
    for (auto &worker : idle)
      worker->beginShutdown();
    idle.clear();
  }

  Expected<WorkerResponse> run(const WorkerRequest &request) override {
    return withWorker<WorkerResponse>(
        [&](WorkerProcess &worker) { return worker.compile(request); });
  }

  Expected<std::string> getCompilerIdentity(WorkerBackend backend) override {
    unsigned index = unsigned(backend);
    // One query at a time per backend: a caller that finds one running
    // (a prestart's) waits for its answer instead of asking another worker.
    std::lock_guard<std::mutex> querying(identityQueries[index]);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (identities[index])
        return *identities[index];
    }
    std::vector<std::string> files;
    Expected<std::string> identity =
        withWorker<std::string>([&](WorkerProcess &worker) {
          Expected<std::string> result = worker.identity(backend);
          // The worker has loaded the compiler by now: its mappings name
          // every file the identity depends on.
          if (result)
            files = getMappedFiles(worker.getPid());
          return result;
        });
    if (identity) {
      std::lock_guard<std::mutex> lock(mutex);
      identities[index] = *identity;
      identityFiles[index] = std::move(files);
    }
    return identity;
  }

  bool prestart(std::optional<WorkerBackend> identityOf) override {
    std::vector<std::thread> finished;
    {
      std::lock_guard<std::mutex> lock(mutex);
      size_t present = idle.size() + busy;
      if (startersRunning || present >= maxWorkers || cancelled || stopping ||
          !isOwner())
        return false;
      // The threads of an earlier prestart have all returned: join them
      // (outside the lock) instead of keeping one per call.
      finished = std::move(starters);
      starters.clear();
      size_t count = maxWorkers - present;
      startersRunning = count;
      for (size_t i = 0; i < count; ++i)
        starters.emplace_back([this, identityOf, ask = i == 0] {
          runStarter(ask ? identityOf : std::nullopt);
        });
    }
    for (std::thread &thread : finished)
      thread.join();
    return true;
  }

  std::vector<std::string>
  getCompilerIdentityFiles(WorkerBackend backend) override {
    std::lock_guard<std::mutex> lock(mutex);
    return identityFiles[unsigned(backend)];
  }

  unsigned getWorkersStarted() const override { return started.load(); }

  unsigned getMaxWorkers() const override {
    std::lock_guard<std::mutex> lock(mutex);
    return maxWorkers;
  }

  unsigned getWorkersAlive() const override {
    std::lock_guard<std::mutex> lock(mutex);
    return unsigned(idle.size() + running.size());
  }

  void growTo(unsigned workers) {
    std::lock_guard<std::mutex> lock(mutex);
    if (workers > maxWorkers) {
      maxWorkers = workers;
      available.notify_all();
    }
  }

  /// See WorkerPool::cancelShared.
  void cancel() {
    std::vector<std::unique_ptr<WorkerProcess>> stopped;
    {
      std::lock_guard<std::mutex> lock(mutex);
      cancelled = true;
      for (WorkerProcess *worker : running)
        worker->cancel();
      stopped = std::move(idle);
      idle.clear();
    }
    available.notify_all();
    for (auto &worker : stopped)
      worker->beginShutdown();
  }

  bool isOwner() const { return ownerPid == ::getpid(); }

private:
  /// One prestart thread: the identity query first when asked (it starts a
  /// worker unless the pool knows the answer), then a worker for nothing
  /// (an idle one if there is, else a new one), left idle.
  void runStarter(std::optional<WorkerBackend> identityOf) {
    if (identityOf)
      consumeError(getCompilerIdentity(*identityOf).takeError());
    consumeError(withWorker<bool>([](WorkerProcess &) -> Expected<bool> {
                   return true;
                 }).takeError());
    std::lock_guard<std::mutex> lock(mutex);
    --startersRunning;
  }

  /// Runs `job` on an idle (or freshly spawned) worker, holding one of the
  /// `maxWorkers` slots. A worker that died during the job is dropped.
  template <typename T>
  Expected<T> withWorker(function_ref<Expected<T>(WorkerProcess &)> job) {
    if (!isOwner())
      return makeError(formatv("this {1} pool belongs to process "
                               "{0}, not to this forked child",
                               ownerPid, describeProgram(program)));
    std::unique_ptr<WorkerProcess> worker;
    {
      std::unique_lock<std::mutex> lock(mutex);
      available.wait(lock, [&] { return cancelled || busy < maxWorkers; });
      if (cancelled)
        return makeError(describeProgram(program) +
                         " pool is shut down (the process "
                         "is exiting)");
      ++busy;
      if (!idle.empty()) {
        worker = std::move(idle.back());
        idle.pop_back();
      }
    }
    WorkerProcess *current = nullptr;
    // A worker that has served its share of jobs is stopped (outside the
    // lock: it exits when its channel closes) instead of going idle.
    std::unique_ptr<WorkerProcess> retired;
    auto releaseSlot = make_scope_exit([&] {
      std::lock_guard<std::mutex> lock(mutex);
      running.erase(current);
      if (worker && maxJobsPerWorker && worker->jobsRun >= maxJobsPerWorker) {
        worker->beginShutdown();
        retired = std::move(worker);
      }
      if (worker && worker->isAlive() && !cancelled) {
        worker->idleSince = Clock::now();
        idle.push_back(std::move(worker));
        startReaper();
        reaperWake.notify_all();
      }
      --busy;
      available.notify_one();
    });
    // A worker that died while idle (killed from outside) is replaced
    // rather than failing the job.
    if (worker && !worker->checkIdle())
      worker.reset();
    if (!worker) {
      Expected<std::unique_ptr<WorkerProcess>> spawned = spawnWorker();
      if (!spawned)
        return spawned.takeError();
      worker = std::move(*spawned);
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      current = worker.get();
      running.insert(current);
      if (cancelled)
        worker->cancel();
    }
    ++worker->jobsRun;
    return job(*worker);
  }

  /// Starts a worker, unless one failed to start moments ago: then that
  /// error again, at once (a worker that never says hello would otherwise
  /// cost the whole start-up limit per module).
  Expected<std::unique_ptr<WorkerProcess>> spawnWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (startFailure && Clock::now() < startFailure->second)
        return makeError(startFailure->first +
                         " (not retried for a few seconds)");
    }
    Expected<std::unique_ptr<WorkerProcess>> spawned =
        WorkerProcess::spawn(path, limits, startupMs, program, compiler);
    std::lock_guard<std::mutex> lock(mutex);
    if (!spawned) {
      std::string message = toString(spawned.takeError());
      startFailure.emplace(message, Clock::now() + kStartupRetryDelay);
      return makeError(message);
    }
    startFailure.reset();
    ++started;
    return spawned;
  }

  /// Starts the thread that stops idle workers (once, under the mutex).
  void startReaper() {
    if (idleMs == 0 || reaper.joinable() || stopping)
      return;
    reaper = std::thread([this] { reapIdleWorkers(); });
  }

  /// Stops workers idle for longer than idleMs, until the pool goes.
  void reapIdleWorkers() {
    auto limit = std::chrono::milliseconds(idleMs);
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      auto now = Clock::now();
      std::vector<std::unique_ptr<WorkerProcess>> expired;
      std::optional<Clock::time_point> next;
      for (auto it = idle.begin(); it != idle.end();) {
        if (now - (*it)->idleSince >= limit) {
          expired.push_back(std::move(*it));
          it = idle.erase(it);
          continue;
        }
        Clock::time_point due = (*it)->idleSince + limit;
        next = next ? std::min(*next, due) : due;
        ++it;
      }
      if (!expired.empty()) {
        lock.unlock();
        for (auto &worker : expired)
          worker->beginShutdown();
        expired.clear(); // Waits for each to exit.
        lock.lock();
        continue;
      }
      if (next)
        reaperWake.wait_until(lock, *next);
      else
        reaperWake.wait(lock);
    }
  }

  mutable std::mutex mutex;
  std::condition_variable available;
  std::condition_variable reaperWake;
  unsigned maxWorkers;
  unsigned busy = 0;
  bool cancelled = false;
  bool stopping = false;
  std::vector<std::unique_ptr<WorkerProcess>> idle;
  /// Workers running a job (owned by the job's thread), for cancel().
  llvm::SmallPtrSet<WorkerProcess *, 8> running;
  std::optional<std::string> identities[kNumWorkerBackends];
  std::vector<std::string> identityFiles[kNumWorkerBackends];
  std::mutex identityQueries[kNumWorkerBackends];
  /// The threads of the last prestart() (joined by the next one or when the
  /// pool goes; shared pools never go), and how many have not returned.
  std::vector<std::thread> starters;
  size_t startersRunning = 0;
  std::atomic<unsigned> started{0};
  /// The last start-up failure and until when it is repeated.
  std::optional<std::pair<std::string, Clock::time_point>> startFailure;
  std::thread reaper;
  const pid_t ownerPid = ::getpid();
  const WorkerLimits limits;
  const std::string path;
  const uint64_t idleMs;
  const uint64_t startupMs;
  const WorkerProgram program;
  const unsigned maxJobsPerWorker;
  const CompilerInstallation compiler;
};

} // namespace

WorkerPool::~WorkerPool() = default;

Error checkWorkerLimits(const WorkerLimits &limits) {
  if (limits.memoryMiB > kMaxMemoryMiB)
    return makeError(formatv("memory limit of {0} MiB is out of range (at "
                             "most {1}; 0: none)",
                             limits.memoryMiB, kMaxMemoryMiB));
  if (limits.timeoutMs > kMaxTimeoutMs)
    return makeError(formatv("time limit of {0} ms is out of range (at most "
                             "{1}; 0: none)",
                             limits.timeoutMs, kMaxTimeoutMs));
  return Error::success();
}

Expected<std::unique_ptr<WorkerPool>>
WorkerPool::create(unsigned maxWorkers, WorkerLimits limits,
                   std::string workerPath, std::optional<uint64_t> idleMs,
                   uint64_t startupMs, WorkerProgram program,
                   unsigned maxJobsPerWorker, StringRef compilerRoot) {
  if (Error error = checkWorkerLimits(limits))
    return std::move(error);
  // Only the compile worker loads a compiler.
  CompilerInstallation compiler;
  if (program == WorkerProgram::CompileWorker) {
    Expected<CompilerInstallation> resolved =
        resolveCompilerRoot(getRequestedCompilerRoot(compilerRoot));
    if (!resolved)
      return resolved.takeError();
    compiler = std::move(*resolved);
  }
  StringRef what = describeProgram(program);
  StringRef envVar = getWorkerProgramEnvVar(program);
  if (workerPath.empty())
    workerPath = findWorkerExecutable(program);
  if (workerPath.empty())
    return makeError(formatv("cannot find the {2} executable "
                             "'{0}' (looked for {1}); set {3} "
                             "to its path",
                             getWorkerProgramName(program),
                             llvm::join(workerCandidates(program), ", "), what,
                             envVar));
  if (!sys::fs::can_execute(workerPath) || sys::fs::is_directory(workerPath))
    return makeError(formatv("{2} '{0}'{1} is not an executable "
                             "file",
                             workerPath,
                             std::getenv(envVar.str().c_str())
                                 ? " (from " + envVar.str() + ")"
                                 : std::string(),
                             what));
  if (maxWorkers == 0)
    maxWorkers =
        std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  if (!idleMs) {
    idleMs = kDefaultIdleMs;
    uint64_t value;
    if (const char *env = std::getenv("XPU_CODEGEN_WORKER_IDLE_MS");
        env && !StringRef(env).getAsInteger(10, value))
      idleMs = value;
  }
  return std::make_unique<WorkerPoolImpl>(
      maxWorkers, limits, std::move(workerPath), *idleMs, startupMs, program,
      maxJobsPerWorker, std::move(compiler));
}

namespace {
/// The shared pools, one per set of limits. Never destroyed: threads still
/// compiling when the process exits (Python daemon threads) must not find
/// them torn down by static destructors. Replaced wholesale in a forked
/// child, which must never use the parent's.
struct SharedPools {
  std::mutex mutex;
  pid_t owner = ::getpid();
  std::map<std::tuple<WorkerProgram, uint64_t, uint64_t, std::string>,
           std::unique_ptr<WorkerPoolImpl>>
      pools;
};

SharedPools *sharedPools = nullptr;
std::once_flag sharedPoolsOnce;

/// The shared pools of this process, created on first use.
SharedPools &getSharedPools() {
  std::call_once(sharedPoolsOnce, [] {
    sharedPools = new SharedPools();
    // Held across fork() so the child never inherits it locked; the child
    // then starts over with pools of its own (the parent's are leaked in
    // it, untouched).
    ::pthread_atfork([] { sharedPools->mutex.lock(); },
                     [] { sharedPools->mutex.unlock(); },
                     [] {
                       sharedPools->mutex.unlock();
                       for (auto &entry : sharedPools->pools)
                         (void)entry.second.release();
                       sharedPools->pools.clear();
                       sharedPools->owner = ::getpid();
                     });
  });
  return *sharedPools;
}
} // namespace

Expected<WorkerPool &> WorkerPool::getShared(unsigned maxWorkers,
                                             WorkerLimits limits,
                                             WorkerProgram program,
                                             unsigned maxJobsPerWorker,
                                             StringRef compilerRoot) {
  // One shared pool per program, set of limits and compiler, so that a
  // caller's limits and compiler are always the ones its jobs run under.
  std::string root;
  if (program == WorkerProgram::CompileWorker)
    root = getRequestedCompilerRoot(compilerRoot);
  SharedPools &shared = getSharedPools();
  std::lock_guard<std::mutex> lock(shared.mutex);
  auto key = std::make_tuple(program, limits.memoryMiB, limits.timeoutMs, root);
  std::unique_ptr<WorkerPoolImpl> &pool = shared.pools[key];
  if (!pool) {
    Expected<std::unique_ptr<WorkerPool>> created =
        create(maxWorkers, limits, "", /*idleMs=*/{}, kDefaultStartupMs,
               program, maxJobsPerWorker, root);
    if (!created) {
      // No empty slot left behind: cancelShared() visits every entry.
      shared.pools.erase(key);
      return created.takeError();
    }
    pool.reset(static_cast<WorkerPoolImpl *>(created->release()));
  } else {
    unsigned wanted = maxWorkers
                          ? maxWorkers
                          : llvm::hardware_concurrency().compute_thread_count();
    pool->growTo(wanted);
  }
  return *pool;
}

void WorkerPool::cancelShared() {
  SharedPools &shared = getSharedPools();
  std::lock_guard<std::mutex> lock(shared.mutex);
  for (auto &entry : shared.pools)
    entry.second->cancel();
}

} // namespace mlir::xpu
