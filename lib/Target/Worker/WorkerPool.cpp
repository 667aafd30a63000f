//===- WorkerPool.cpp - Isolated native compiler worker processes ---------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Host side of the compiler workers: spawning (posix_spawn, never a bare
// fork in a multithreaded host), one request/reply exchange at a time with
// a wall-clock deadline enforced by poll() and SIGKILL, and turning a dead
// worker into an error that names the cause.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Worker/WorkerPool.h"
#include "XPUCodegen/Target/Worker/WorkerProtocol.h"
#include "llvm/Support/Process.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <optional>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>

#define DEBUG_TYPE "xpu-worker"

extern char **environ;

using namespace llvm;
namespace proto = mlir::xpu::protocol;

namespace mlir::xpu {

namespace {

/// What messages call a process of each WorkerProgram.
llvm::StringRef describeProgram(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "SPIR-V emitter"
                                                : "compiler worker";
}
/// Start-up (loading and warming IGC) is not a job: it gets at least this
/// long regardless of the per-job limit.
constexpr uint64_t kMinStartupMs = 60000;
/// How much of a worker's stderr to keep for error messages.
constexpr size_t kStderrTailBytes = 8192;
/// How long an orderly shutdown may take before SIGKILL.
constexpr auto kShutdownGrace = std::chrono::seconds(2);

using Clock = std::chrono::steady_clock;

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

std::optional<Clock::time_point> deadlineAfter(uint64_t ms) {
  if (ms == 0)
    return std::nullopt;
  return Clock::now() + std::chrono::milliseconds(ms);
}

/// A fresh request id (never 0, the hello's).
uint64_t nextRequestId() {
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

/// Moves `fd` above the standard descriptors (dup2 onto itself would not
/// clear close-on-exec), keeping it close-on-exec.
Expected<UniqueFd> aboveStdio(int fd) {
  UniqueFd owned(fd);
  if (fd > 2)
    return std::move(owned);
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (moved < 0)
    return makeError(Twine("fcntl failed: ") + std::strerror(errno));
  return UniqueFd(moved);
}

/// The last few non-empty lines of a worker's stderr, for error messages.
std::string summarizeStderr(StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string summary;
  for (StringRef line :
       llvm::drop_begin(lines, lines.size() > 3 ? lines.size() - 3 : 0)) {
    line = line.trim();
    if (line.empty())
      continue;
    if (!summary.empty())
      summary += " | ";
    summary += line.take_front(200).str();
  }
  return summary;
}

bool mentionsOutOfMemory(StringRef text) {
  return text.contains("bad_alloc") || text.contains("out of memory") ||
         text.contains("Out of memory") ||
         text.contains("Cannot allocate memory") ||
         text.contains("LLVM ERROR: out of memory");
}

/// Variables that select `compiler` in a worker: the libocloc to load and,
/// for a root without its own loader, the root's library directories first.
std::vector<std::string>
getCompilerEnvironment(const CompilerInstallation &compiler) {
  std::vector<std::string> vars;
  if (compiler.isSystem())
    return vars;
  vars.push_back("XPU_CODEGEN_OCLOC_LIBRARY=" + compiler.oclocLibrary);
  // Pools the worker makes itself (the offline Level Zero driver's) use the
  // same compiler.
  vars.push_back(kCompilerRootEnvVar.str() + "=" + compiler.root);
  if (!compiler.loader.empty())
    return vars;
  std::string path = llvm::join(compiler.libraryDirs, ":");
  if (std::optional<std::string> inherited =
          sys::Process::GetEnv("LD_LIBRARY_PATH"))
    path += ":" + *inherited;
  vars.push_back("LD_LIBRARY_PATH=" + path);
  return vars;
}

/// One worker process and its channel. Not thread-safe: the pool hands a
/// worker to one job at a time.
class WorkerProcess {
public:
  static Expected<std::unique_ptr<WorkerProcess>>
  spawn(const std::string &path, const WorkerLimits &limits, uint64_t startupMs,
        WorkerProgram program, const CompilerInstallation &compiler);

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
  /// Kills the process now (from another thread: the owner of the job
  /// then sees it die).
  void cancel() const {
    if (isOwner() && pid > 0)
      ::kill(pid, SIGKILL);
  }
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

  Expected<WorkerResponse> compile(const WorkerRequest &request);
  Expected<std::string> identity(WorkerBackend backend);

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
  Expected<proto::Frame> transact(StringRef out, uint64_t id,
                                  std::optional<Clock::time_point> deadline,
                                  uint64_t limitMs, bool startup);

  /// Error for a worker that died on its own; reaps it.
  Error diedError(bool startup);
  /// Kills, reaps and returns an error with `message`.
  Error killWith(const Twine &message);
  /// Reads what the worker wrote to stderr so far (non-blocking).
  void drainStderr();
  /// Reaps the process, waiting at most `grace` before SIGKILL. Returns the
  /// wait status, or std::nullopt when unavailable.
  std::optional<int> reap(Clock::duration grace);
  void removeWorkDir();
  void cleanUpAfterExit();
  std::string describeStatus(std::optional<int> status);

  pid_t pid;
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

Expected<std::unique_ptr<WorkerProcess>>
WorkerProcess::spawn(const std::string &path, const WorkerLimits &limits,
                     uint64_t startupMs, WorkerProgram program,
                     const CompilerInstallation &compiler) {
  std::string what = describeProgram(program).str();
  // The private working directory: made here, so the host knows it from the
  // start and removes it even when the worker dies before saying hello.
  SmallString<128> tmpl;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmpl);
  sys::path::append(tmpl, getWorkerProgramName(program) + Twine("-XXXXXX"));
  std::string workDir = tmpl.str().str();
  if (!::mkdtemp(workDir.data()))
    return makeError("cannot create a " + what +
                     " directory: " + std::strerror(errno));
  auto removeDir = make_scope_exit([&] {
    (void)sys::fs::remove_directories(workDir, /*IgnoreErrors=*/true);
  });

  // A socket rather than pipes: send(MSG_NOSIGNAL) makes a dead worker an
  // EPIPE instead of a SIGPIPE in the host. Close-on-exec so that a worker
  // spawned concurrently by another thread does not inherit this one's
  // channel (which would hide this worker's EOF).
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return makeError("cannot create a " + what +
                     " channel: " + std::strerror(errno));
  UniqueFd hostEnd(sv[0]);
  Expected<UniqueFd> childEnd = aboveStdio(sv[1]);
  if (!childEnd)
    return childEnd.takeError();
  int ep[2];
  if (::pipe2(ep, O_CLOEXEC) != 0)
    return makeError("cannot create a " + what +
                     " pipe: " + std::strerror(errno));
  UniqueFd errRead(ep[0]);
  Expected<UniqueFd> errWrite = aboveStdio(ep[1]);
  if (!errWrite)
    return errWrite.takeError();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  scope_exit destroyActions(
      [&] { posix_spawn_file_actions_destroy(&actions); });
  posix_spawn_file_actions_adddup2(&actions, childEnd->get(), 0);
  posix_spawn_file_actions_adddup2(&actions, childEnd->get(), 1);
  posix_spawn_file_actions_adddup2(&actions, errWrite->get(), 2);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
  // The host's other descriptors (pipes of its own children, ...) that lack
  // close-on-exec must not be held open by a long-lived worker.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif

  // Default signal dispositions and an empty mask in the worker, whatever
  // the host has set up.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  scope_exit destroyAttr([&] { posix_spawnattr_destroy(&attr); });
  sigset_t noSignals, allSignals;
  sigemptyset(&noSignals);
  sigfillset(&allSignals);
  sigdelset(&allSignals, SIGKILL);
  sigdelset(&allSignals, SIGSTOP);
  posix_spawnattr_setsigmask(&attr, &noSignals);
  posix_spawnattr_setsigdefault(&attr, &allSignals);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::string memoryArg = "--memory-mib=" + std::to_string(limits.memoryMiB);
  std::string dirArg = "--work-dir=" + workDir;
  // A compiler with its own runtime: the worker runs on that runtime,
  // started through the compiler's loader.
  std::string loaderPath = compiler.getLoaderLibraryPath();
  SmallVector<char *> argv;
  if (!compiler.loader.empty()) {
    argv.push_back(const_cast<char *>(compiler.loader.c_str()));
    argv.push_back(const_cast<char *>("--library-path"));
    argv.push_back(loaderPath.data());
  }
  argv.push_back(const_cast<char *>(path.c_str()));
  if (limits.memoryMiB)
    argv.push_back(memoryArg.data());
  argv.push_back(dirArg.data());
  argv.push_back(nullptr);

  // The host's environment, except that a sanitizer runtime preloaded into
  // a sanitized host (tools/ci-sanitize) is not preloaded into the worker:
  // it could not reserve its shadow memory under the worker's RLIMIT_AS.
  std::vector<std::string> envStrings = getCompilerEnvironment(compiler);
  for (char **entry = environ; *entry; ++entry) {
    StringRef var = *entry;
    if (!compiler.isSystem() &&
        (var.starts_with("XPU_CODEGEN_OCLOC_LIBRARY=") ||
         var.starts_with("LD_LIBRARY_PATH=") ||
         var.starts_with((kCompilerRootEnvVar + "=").str())))
      continue; // Replaced by the compiler's own.
    if (!var.consume_front("LD_PRELOAD=")) {
      envStrings.push_back(*entry);
      continue;
    }
    SmallVector<StringRef> libraries, kept;
    var.split(libraries, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef library : libraries) {
      StringRef name = sys::path::filename(library.trim());
      if (!name.starts_with("libasan") && !name.starts_with("libubsan") &&
          !name.starts_with("libtsan") && !name.starts_with("libclang_rt."))
        kept.push_back(library);
    }
    if (!kept.empty())
      envStrings.push_back("LD_PRELOAD=" + llvm::join(kept, ":"));
  }
  SmallVector<char *> envp;
  for (std::string &var : envStrings)
    envp.push_back(var.data());
  envp.push_back(nullptr);

  pid_t pid;
  int rc =
      ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
  if (rc != 0)
    return makeError(formatv(
        "cannot start {2} '{0}'{3}: {1}", path, std::strerror(rc), what,
        compiler.loader.empty() ? std::string()
                                : " through '" + compiler.loader + "'"));
  childEnd->reset();
  errWrite->reset();
  LLVM_DEBUG(dbgs() << "xpu-worker: spawned " << path << " pid " << pid
                    << "\n");

  for (int fd : {hostEnd.get(), errRead.get()})
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  removeDir.release(); // The worker owns it now.
  std::unique_ptr<WorkerProcess> worker(new WorkerProcess(
      pid, std::move(hostEnd), std::move(errRead), limits, workDir, program));

  Expected<proto::Frame> hello =
      worker->transact("", /*id=*/0, deadlineAfter(startupMs), startupMs,
                       /*startup=*/true);
  if (!hello)
    return hello.takeError();
  if (hello->kind != proto::MessageKind::Hello)
    return worker->killWith(what + " failed to start: it sent " +
                            Twine(unsigned(hello->kind)) + " instead of hello");
  Expected<proto::HelloMessage> message = proto::decodeHello(hello->payload);
  if (!message)
    return worker->killWith(
        what + " failed to start: " + toString(message.takeError()));
  return std::move(worker);
}

Expected<proto::Frame>
WorkerProcess::transact(StringRef out, uint64_t id,
                        std::optional<Clock::time_point> deadline,
                        uint64_t limitMs, bool startup) {
  if (!isAlive())
    return makeError(what + " is not running");
  drainStderr();
  stderrTail.clear();
  size_t written = 0;
  char buf[65536];
  for (;;) {
    Expected<std::optional<proto::Frame>> frame = decoder.take();
    if (!frame)
      return killWith(
          what + " sent a malformed reply: " + toString(frame.takeError()));
    if (*frame && (*frame)->id != id)
      return killWith(formatv("{2} sent a reply to request {0} "
                              "while request {1} was pending (a stale or "
                              "unsolicited reply)",
                              (*frame)->id, id, what));
    if (*frame)
      return std::move(**frame);

    int timeout = -1;
    if (deadline) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline -
                                                               Clock::now());
      if (left.count() <= 0)
        return killWith(formatv("{2} exceeded the {0} ms time "
                                "limit{1}",
                                limitMs, startup ? " while starting" : "",
                                what));
      timeout = int(std::min<int64_t>(left.count(), 1 << 30));
    }
    struct pollfd fds[2] = {
        {channel.get(), short(POLLIN | (written < out.size() ? POLLOUT : 0)),
         0},
        {errPipe.get(), POLLIN, 0}};
    int n = ::poll(fds, 2, timeout);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return killWith("poll on " + what + " failed: " + std::strerror(errno));
    }
    if (n == 0)
      continue; // The deadline check above fires.

    if (fds[1].revents)
      drainStderr();
    if (fds[0].revents & POLLOUT) {
      ssize_t sent = ::send(channel.get(), out.data() + written,
                            out.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent > 0)
        written += size_t(sent);
      else if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
               errno != EINTR)
        return diedError(startup);
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t got = ::recv(channel.get(), buf, sizeof(buf), MSG_DONTWAIT);
      if (got > 0)
        decoder.feed(StringRef(buf, size_t(got)));
      else if (got == 0 ||
               (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        return diedError(startup);
    }
  }
}

void WorkerProcess::drainStderr() {
  char buf[4096];
  while (errPipe.get() >= 0) {
    ssize_t got = ::read(errPipe.get(), buf, sizeof(buf));
    if (got > 0) {
      stderrTail.append(buf, size_t(got));
      if (stderrTail.size() > 2 * kStderrTailBytes)
        stderrTail.erase(0, stderrTail.size() - kStderrTailBytes);
      continue;
    }
    if (got < 0 && errno == EINTR)
      continue;
    if (got == 0) // The worker closed stderr (it is exiting).
      errPipe.reset();
    return;
  }
}

std::optional<int> WorkerProcess::reap(Clock::duration grace) {
  if (pid <= 0 || !isOwner())
    return std::nullopt;
  auto giveUp = Clock::now() + grace;
  int status = 0;
  struct rusage usage = {};
  scope_exit recordUsage([&] { peakRssKiB = usage.ru_maxrss; });
  for (;;) {
    pid_t r = ::wait4(pid, &status, WNOHANG, &usage);
    if (r == pid)
      break;
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) { // ECHILD: someone else reaped it (SIGCHLD ignored).
      pid = -1;
      cleanUpAfterExit();
      return std::nullopt;
    }
    if (Clock::now() >= giveUp) {
      ::kill(pid, SIGKILL);
      while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pid = -1;
  cleanUpAfterExit();
  return status;
}

void WorkerProcess::cleanUpAfterExit() {
  channel.reset();
  // Whatever the worker printed before dying is in the pipe now.
  drainStderr();
  errPipe.reset();
  removeWorkDir();
}

void WorkerProcess::removeWorkDir() {
  // The worker removes its directory on an orderly exit; this catches
  // crashes, kills and workers that died before starting. Never in a forked
  // child: the directory belongs to the parent's live worker.
  if (isOwner() && !workDir.empty() && sys::fs::exists(workDir))
    (void)sys::fs::remove_directories(workDir, /*IgnoreErrors=*/true);
  workDir.clear();
}

std::string WorkerProcess::describeStatus(std::optional<int> status) {
  std::string memoryLimit =
      limits.memoryMiB ? formatv("the {0} MiB memory limit", limits.memoryMiB)
                       : std::string();
  std::string cause;
  if (!status) {
    cause = "exited (status unavailable)";
  } else if (WIFEXITED(*status)) {
    int code = WEXITSTATUS(*status);
    if (code == proto::kExitOutOfMemory && limits.memoryMiB)
      cause = "exceeded " + memoryLimit + " (allocation failed)";
    else if (code == proto::kExitOutOfMemory)
      cause = "ran out of memory (allocation failed)";
    else if (code == proto::kExitSetupFailure)
      cause =
          "could not set itself up (exit status " + std::to_string(code) + ")";
    else
      cause = "exited with status " + std::to_string(code);
  } else if (WIFSIGNALED(*status)) {
    int sig = WTERMSIG(*status);
    const char *name = ::strsignal(sig);
    cause = formatv("killed by signal {0} ({1})", sig, name ? name : "unknown");
    // Under RLIMIT_AS, IGC's failed allocations can end as an abort
    // (uncaught bad_alloc) or a crash on a null pointer: name the limit,
    // with the peak resident size as evidence either way.
    if (limits.memoryMiB && mentionsOutOfMemory(stderrTail))
      cause = "exceeded " + memoryLimit + " (" + cause + ")";
    else if (limits.memoryMiB &&
             (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS))
      cause += formatv(" (peak resident memory {0} MiB, memory limit {1} "
                       "MiB)",
                       (peakRssKiB + 1023) / 1024, limits.memoryMiB);
  }
  return cause;
}

Error WorkerProcess::diedError(bool startup) {
  pid_t oldPid = pid;
  std::optional<int> status = reap(kShutdownGrace);
  std::string message =
      formatv("{2}{0} {1}", startup ? " failed to start:" : "",
              describeStatus(status), what);
  std::string detail = summarizeStderr(stderrTail);
  if (!detail.empty())
    message += ": " + detail;
  LLVM_DEBUG(dbgs() << "xpu-worker: pid " << oldPid << " died: " << message
                    << "\n");
  (void)oldPid;
  return makeError(message);
}

Error WorkerProcess::killWith(const Twine &message) {
  if (pid > 0 && isOwner()) {
    ::kill(pid, SIGKILL);
    reap(kShutdownGrace);
  }
  return makeError(message);
}

void WorkerProcess::finishShutdown() {
  if (pid > 0)
    reap(kShutdownGrace);
}

bool WorkerProcess::checkIdle() {
  if (pid <= 0 || !isOwner())
    return false;
  int status;
  pid_t r = ::waitpid(pid, &status, WNOHANG);
  if (r == 0) {
    struct pollfd fd = {channel.get(), POLLIN, 0};
    if (decoder.pendingBytes() == 0 && ::poll(&fd, 1, 0) == 0)
      return true;
    consumeError(killWith(what + " spoke while idle"));
    return false;
  }
  if (r == pid) {
    pid = -1;
    cleanUpAfterExit();
  } else {
    reap(Clock::duration::zero());
  }
  return false;
}

Expected<WorkerResponse> WorkerProcess::compile(const WorkerRequest &request) {
  uint64_t id = nextRequestId();
  std::string frame = proto::encodeFrame(proto::MessageKind::CompileRequest,
                                         proto::encodeRequest(request), id);
  Expected<proto::Frame> reply =
      transact(frame, id, deadlineAfter(limits.timeoutMs), limits.timeoutMs,
               /*startup=*/false);
  if (!reply)
    return reply.takeError();
  if (reply->kind == proto::MessageKind::Error) {
    Expected<std::string> text = proto::decodeString(reply->payload);
    if (!text)
      return killWith(what +
                      " sent a malformed error: " + toString(text.takeError()));
    return makeError(*text);
  }
  if (reply->kind != proto::MessageKind::CompileResponse)
    return killWith(what + " sent message kind " +
                    Twine(unsigned(reply->kind)) +
                    " in reply to a compile request");
  Expected<WorkerResponse> response = proto::decodeResponse(reply->payload);
  if (!response)
    return killWith(
        what + " sent a malformed reply: " + toString(response.takeError()));
  return response;
}

Expected<std::string> WorkerProcess::identity(WorkerBackend backend) {
  uint64_t id = nextRequestId();
  std::string frame = proto::encodeFrame(proto::MessageKind::IdentityRequest,
                                         proto::encodeBackend(backend), id);
  // Identifying may hash the compiler libraries: not a job, no job limit.
  uint64_t limitMs =
      limits.timeoutMs ? std::max(limits.timeoutMs, kMinStartupMs) : 0;
  Expected<proto::Frame> reply =
      transact(frame, id, deadlineAfter(limitMs), limitMs, /*startup=*/false);
  if (!reply)
    return reply.takeError();
  if (reply->kind != proto::MessageKind::IdentityResponse &&
      reply->kind != proto::MessageKind::Error)
    return killWith(what + " sent message kind " +
                    Twine(unsigned(reply->kind)) +
                    " in reply to an identity request");
  Expected<std::string> text = proto::decodeString(reply->payload);
  if (!text)
    return killWith(what +
                    " sent a malformed reply: " + toString(text.takeError()));
  if (reply->kind == proto::MessageKind::Error)
    return makeError(*text);
  return text;
}

/// Regular files mapped into process `pid`, sorted and unique.
std::vector<std::string> getMappedFiles(pid_t pid) {
  std::vector<std::string> files;
  ErrorOr<std::unique_ptr<MemoryBuffer>> maps =
      MemoryBuffer::getFileAsStream("/proc/" + std::to_string(pid) + "/maps");
  if (!maps)
    return files;
  SmallVector<StringRef> lines;
  (*maps)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    // "address perms offset dev inode path"; the path is the sixth field
    // and starts with '/' for files (not [heap], [vdso], ...).
    size_t slash = line.find('/');
    if (slash == StringRef::npos)
      continue;
    StringRef path = line.substr(slash).rtrim();
    if (!path.ends_with(" (deleted)") && sys::fs::is_regular_file(path))
      files.push_back(path.str());
  }
  llvm::sort(files);
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

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

/// Directories, relative to a directory holding XPUCodegen code, where the
/// worker is in the build and install trees: configured by
/// lib/Target/Worker/CMakeLists.txt from the install layout (":"-separated).
#ifndef XPU_WORKER_RELATIVE_DIRS
#define XPU_WORKER_RELATIVE_DIRS "../bin"
#endif
/// The configured install directory of the worker (absolute).
#ifndef XPU_WORKER_INSTALL_DIR
#define XPU_WORKER_INSTALL_DIR ""
#endif

std::mutex registeredMutex;
std::vector<std::string> &registeredWorkers() {
  static std::vector<std::string> paths;
  return paths;
}

void addCandidate(std::vector<std::string> &candidates, StringRef dir,
                  StringRef sub, StringRef name) {
  if (dir.empty())
    return;
  SmallString<256> candidate(dir);
  sys::path::append(candidate, sub, name);
  sys::path::remove_dots(candidate, /*remove_dot_dot=*/true);
  if (!llvm::is_contained(candidates, candidate.str()))
    candidates.push_back(candidate.str().str());
}

/// Where a worker may be, in search order: next to (or in the configured
/// relative directories of) the object holding this code and the main
/// executable, then the paths registered by the program, then the configured
/// install directory.
std::vector<std::string> workerCandidates(WorkerProgram program) {
  StringRef name = getWorkerProgramName(program);
  std::vector<std::string> bases;
  Dl_info info;
  if (::dladdr(reinterpret_cast<void *>(&findWorkerExecutable), &info) &&
      info.dli_fname && *info.dli_fname)
    bases.push_back(info.dli_fname);
  static int anchor;
  bases.push_back(sys::fs::getMainExecutable(nullptr, &anchor));

  SmallVector<StringRef, 4> relativeDirs;
  StringRef(XPU_WORKER_RELATIVE_DIRS)
      .split(relativeDirs, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);

  std::vector<std::string> candidates;
  for (const std::string &base : bases) {
    if (base.empty())
      continue;
    SmallString<256> object(base);
    (void)sys::fs::make_absolute(object);
    SmallVector<SmallString<256>, 2> dirs{
        SmallString<256>(sys::path::parent_path(object))};
    // Also relative to where a symlinked library really lives.
    SmallString<256> real;
    if (!sys::fs::real_path(object, real))
      dirs.emplace_back(sys::path::parent_path(real));
    for (const SmallString<256> &dir : dirs) {
      addCandidate(candidates, dir, "", name);
      for (StringRef sub : relativeDirs)
        addCandidate(candidates, dir, sub, name);
    }
  }
  {
    std::lock_guard<std::mutex> lock(registeredMutex);
    // Registered paths name the compiler worker; the package's other
    // programs are installed beside it.
    for (const std::string &path : registeredWorkers()) {
      if (program == WorkerProgram::CompileWorker) {
        if (!llvm::is_contained(candidates, path))
          candidates.push_back(path);
        continue;
      }
      addCandidate(candidates, sys::path::parent_path(path), "", name);
    }
  }
  addCandidate(candidates, XPU_WORKER_INSTALL_DIR, "", name);
  return candidates;
}

} // namespace

WorkerPool::~WorkerPool() = default;

void registerWorkerExecutable(StringRef path) {
  if (path.empty())
    return;
  std::lock_guard<std::mutex> lock(registeredMutex);
  if (!llvm::is_contained(registeredWorkers(), path))
    registeredWorkers().push_back(path.str());
}

StringRef getWorkerProgramName(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "xpu-spirv-emitter"
                                                : "xpu-compile-worker";
}

StringRef getWorkerProgramEnvVar(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "XPU_CODEGEN_SPIRV_EMITTER"
                                                : "XPU_CODEGEN_WORKER";
}

std::string findWorkerExecutable(WorkerProgram program) {
  if (const char *env =
          std::getenv(getWorkerProgramEnvVar(program).str().c_str());
      env && *env)
    return env;
  for (const std::string &candidate : workerCandidates(program))
    if (sys::fs::can_execute(candidate) && !sys::fs::is_directory(candidate))
      return candidate;
  return "";
}

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
