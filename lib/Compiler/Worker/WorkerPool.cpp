//===- WorkerPool.cpp - Pools of isolated worker processes ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Worker processes started in the background while jobs wait for them,
// handed to one job at a time, reaped when idle, and shared per program,
// limits and compiler in a process.
//
//===----------------------------------------------------------------------===//

#include "WorkerProcess.h"
#include "WorkerStartFailures.h"

#include "XPUCodegen/Support/CheckedThread.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <tuple>

using namespace llvm;

namespace mlir::xpu {

using namespace detail;

namespace {

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
      // A start in progress would hold this for the whole start-up limit.
      for (WorkerProcess *worker : startingWorkers)
        worker->cancel();
    }
    available.notify_all();
    reaperWake.notify_all();
    if (reaper.joinable())
      reaper.join();
    joinThreads(/*all=*/true);
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

  bool prestart(std::optional<WorkerBackend> identityOf,
                size_t builds) override {
    if (!isOwner())
      return false;
    joinThreads(/*all=*/false);
    std::lock_guard<std::mutex> lock(mutex);
    size_t wanted = std::min<size_t>(maxWorkers, builds);
    if (idle.size() + busy + startsInFlight >= wanted || cancelled ||
        stopping || startFailures.isBlocked(Clock::now()))
      return false;
    launchStarts(wanted - idle.size() - busy);
    if (identityOf)
      // Without a thread for it, the driver asks when it needs the identity.
      consumeError(startThread([this, backend = *identityOf] {
        consumeError(getCompilerIdentity(backend).takeError());
      }));
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
    return unsigned(idle.size() + busy);
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
      for (WorkerProcess *worker : startingWorkers)
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
  /// Runs `job` on a worker of its own (acquireWorker) and gives the worker
  /// back after.
  template <typename T>
  Expected<T> withWorker(function_ref<Expected<T>(WorkerProcess &)> job) {
    if (!isOwner())
      return makeError(formatv("this {1} pool belongs to process "
                               "{0}, not to this forked child",
                               ownerPid, describeProgram(program)));
    joinThreads(/*all=*/false);
    Expected<std::unique_ptr<WorkerProcess>> acquired = acquireWorker();
    if (!acquired)
      return acquired.takeError();
    std::unique_ptr<WorkerProcess> worker = std::move(*acquired);
    {
      std::lock_guard<std::mutex> lock(mutex);
      running.insert(worker.get());
      if (cancelled)
        worker->cancel();
    }
    scope_exit release([&] { releaseWorker(std::move(worker)); });
    ++worker->jobsRun;
    // The job's time limit starts now, on this worker: never while it
    // waited for one.
    return job(*worker);
  }

  /// Takes a worker for a job: an idle one, else the first one that a start
  /// in the background brings up. Starts are launched while waiting jobs
  /// outnumber the starts in flight and the pool has room, so a job never
  /// waits for one particular start (a stalled one holds only its slot) and
  /// a failed start is replaced. A job fails only when the pool shuts down,
  /// or when starts are blocked (WorkerStartFailures) and no worker is left
  /// to wait for.
  Expected<std::unique_ptr<WorkerProcess>> acquireWorker() {
    std::unique_lock<std::mutex> lock(mutex);
    ++waiting;
    scope_exit leave([&] { --waiting; }); // Under the lock.
    for (;;) {
      if (cancelled || stopping)
        return makeError(describeProgram(program) +
                         " pool is shut down (the process is exiting)");
      if (!idle.empty()) {
        std::unique_ptr<WorkerProcess> worker = std::move(idle.back());
        idle.pop_back();
        ++busy;
        lock.unlock();
        // One that died while idle (killed from outside) is replaced
        // rather than failing the job.
        bool alive = worker->checkIdle();
        if (!alive)
          worker.reset();
        lock.lock();
        if (alive)
          return std::move(worker);
        --busy;
        continue;
      }
      if (!startFailures.isBlocked(Clock::now())) {
        launchStarts(waiting);
        // A start that got no thread failed at once: look again (its
        // retry, then the block) instead of waiting for a notice that has
        // already been given.
        if (startsInFlight == 0 && busy == 0)
          continue;
        available.wait(lock);
        continue;
      }
      if (busy == 0 && startsInFlight == 0)
        return makeError(startFailures.describe());
      available.wait_until(lock, startFailures.getBlockedUntil());
    }
  }

  /// Gives a job's worker back (idle for the next job), or stops it when
  /// it died, the pool shuts down or it has served its share of jobs.
  void releaseWorker(std::unique_ptr<WorkerProcess> worker) {
    std::unique_ptr<WorkerProcess> stopped; // Waited for outside the lock.
    std::lock_guard<std::mutex> lock(mutex);
    running.erase(worker.get());
    --busy;
    bool retire = maxJobsPerWorker && worker->jobsRun >= maxJobsPerWorker;
    if (worker->isAlive() && !retire && !cancelled && !stopping) {
      worker->idleSince = Clock::now();
      idle.push_back(std::move(worker));
      startReaper();
      reaperWake.notify_all();
    } else {
      worker->beginShutdown();
      stopped = std::move(worker);
    }
    available.notify_all();
  }

  /// Launches starts in the background (under the lock) until `wanted`
  /// are in flight or the pool is full.
  void launchStarts(size_t wanted) {
    while (startsInFlight < wanted &&
           idle.size() + busy + startsInFlight < maxWorkers) {
      bool retry = startFailures.isRetry();
      if (Error error = startThread([this, retry] { runStart(retry); })) {
        // No thread, no start: a failed start, so waiting jobs get the
        // cause instead of the host aborting.
        startFailures.recordFailure(toString(std::move(error)), retry);
        available.notify_all();
        return;
      }
      ++startsInFlight;
    }
  }

  /// One start in the background: the new worker goes idle for whichever
  /// job comes first, or the failure is recorded (and the start replaced by
  /// the next job that waits).
  void runStart(bool retry) {
    Expected<std::unique_ptr<WorkerProcess>> worker = startWorker();
    std::unique_ptr<WorkerProcess> unwanted; // Waited for outside the lock.
    std::lock_guard<std::mutex> lock(mutex);
    --startsInFlight;
    if (!worker) {
      startFailures.recordFailure(toString(worker.takeError()), retry);
    } else if (cancelled || stopping) {
      ++started;
      unwanted = std::move(*worker);
      unwanted->beginShutdown();
    } else {
      ++started;
      startFailures.recordSuccess();
      (*worker)->idleSince = Clock::now();
      idle.push_back(std::move(*worker));
      startReaper();
      reaperWake.notify_all();
    }
    available.notify_all();
  }

  /// Launches a worker and waits for its hello; cancel() and the pool's
  /// destructor kill it meanwhile.
  Expected<std::unique_ptr<WorkerProcess>> startWorker() {
    Expected<std::unique_ptr<WorkerProcess>> worker =
        WorkerProcess::launch(path, limits, program, compiler);
    if (!worker)
      return worker.takeError();
    WorkerProcess *process = worker->get();
    {
      std::lock_guard<std::mutex> lock(mutex);
      startingWorkers.insert(process);
      if (cancelled || stopping)
        process->cancel();
    }
    Error error = process->awaitHello(startupMs);
    {
      std::lock_guard<std::mutex> lock(mutex);
      startingWorkers.erase(process);
    }
    if (error)
      return std::move(error);
    return worker;
  }

  /// Runs `body` on a thread of the pool's (call under the lock);
  /// joinThreads() joins it once it has returned.
  /// An error when the process may not create another thread.
  Error startThread(std::function<void()> body) {
    unsigned id = nextThreadId++;
    Expected<CheckedThread> thread =
        CheckedThread::start([this, id, body = std::move(body)] {
          body();
          std::lock_guard<std::mutex> lock(mutex);
          finishedThreads.push_back(id);
        });
    if (!thread)
      return thread.takeError();
    threads.emplace(id, std::move(*thread));
    return Error::success();
  }

  /// Joins the pool's threads that have returned, or all of them.
  void joinThreads(bool all) {
    std::vector<CheckedThread> done;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (all) {
        for (auto &entry : threads)
          done.push_back(std::move(entry.second));
        threads.clear();
      } else {
        for (unsigned id : finishedThreads) {
          auto it = threads.find(id);
          done.push_back(std::move(it->second));
          threads.erase(it);
        }
      }
      finishedThreads.clear();
    }
    for (CheckedThread &thread : done)
      thread.join();
  }

  /// Starts the thread that stops idle workers (once, under the mutex).
  void startReaper() {
    if (idleMs == 0 || reaper.joinable() || stopping)
      return;
    // Without a reaper, idle workers live until the pool goes.
    Expected<CheckedThread> thread =
        CheckedThread::start([this] { reapIdleWorkers(); });
    if (thread)
      reaper = std::move(*thread);
    else
      consumeError(thread.takeError());
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
  /// Signalled whenever a worker goes idle or away, a start ends, or the
  /// pool grows or shuts down: what waiting jobs wait for.
  std::condition_variable available;
  std::condition_variable reaperWake;
  unsigned maxWorkers;
  /// Workers held by jobs, jobs waiting for one, starts not yet finished.
  size_t busy = 0, waiting = 0, startsInFlight = 0;
  bool cancelled = false;
  bool stopping = false;
  std::vector<std::unique_ptr<WorkerProcess>> idle;
  /// Workers running a job (owned by the job's thread) and workers being
  /// started (owned by their start's thread), for cancel().
  llvm::SmallPtrSet<WorkerProcess *, 8> running, startingWorkers;
  WorkerStartFailures startFailures;
  std::optional<std::string> identities[kNumWorkerBackends];
  std::vector<std::string> identityFiles[kNumWorkerBackends];
  std::mutex identityQueries[kNumWorkerBackends];
  /// The pool's threads (starts, prestart's identity query) by id, and the
  /// ids of those that have returned, to be joined.
  std::map<unsigned, CheckedThread> threads;
  std::vector<unsigned> finishedThreads;
  unsigned nextThreadId = 0;
  std::atomic<unsigned> started{0};
  CheckedThread reaper;
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

Expected<std::unique_ptr<WorkerPool>> WorkerPool::create(
    unsigned maxWorkers, WorkerLimits limits, std::string workerPath,
    std::optional<uint64_t> idleMs, uint64_t startupMs, WorkerProgram program,
    unsigned maxJobsPerWorker, const CompilerInstallation *resolvedCompiler) {
  if (Error error = checkWorkerLimits(limits))
    return std::move(error);
  // Only the compile worker loads a compiler: the one its caller resolved
  // (none named: the system's). The pool reads no root from anywhere.
  CompilerInstallation compiler;
  if (program == WorkerProgram::CompileWorker && resolvedCompiler)
    compiler = *resolvedCompiler;
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

Expected<WorkerPool &>
WorkerPool::getShared(unsigned maxWorkers, WorkerLimits limits,
                      WorkerProgram program, unsigned maxJobsPerWorker,
                      const CompilerInstallation *compiler) {
  // One shared pool per program, set of limits and compiler installation,
  // so that a caller's limits and compiler are always the ones its jobs
  // run under.
  std::string root =
      program == WorkerProgram::CompileWorker && compiler ? compiler->root : "";
  SharedPools &shared = getSharedPools();
  std::lock_guard<std::mutex> lock(shared.mutex);
  auto key = std::make_tuple(program, limits.memoryMiB, limits.timeoutMs, root);
  std::unique_ptr<WorkerPoolImpl> &pool = shared.pools[key];
  if (!pool) {
    Expected<std::unique_ptr<WorkerPool>> created =
        create(maxWorkers, limits, "", /*idleMs=*/{}, getSharedStartupMs(),
               program, maxJobsPerWorker, compiler);
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
