//===- WorkerProcess.cpp - Starting and stopping one worker
//-----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Spawning (posix_spawn, never a bare fork in a multithreaded host, through
// the compiler's own loader where it has one), reaping, and turning a dead
// worker into an error that names the cause.
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
#include <thread>

#define DEBUG_TYPE "xpu-worker"

using namespace llvm;

extern char **environ;

namespace mlir::xpu::detail {

namespace {
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

} // namespace

namespace {
/// The host's and the worker's ends of a new worker's channel (a socket)
/// and stderr (a pipe).
struct WorkerPipes {
  UniqueFd hostEnd, childEnd, errRead, errWrite;
};

/// Makes the pipes. A socket rather than pipes for the channel:
/// send(MSG_NOSIGNAL) makes a dead worker an EPIPE instead of a SIGPIPE in
/// the host. Close-on-exec so that a worker spawned concurrently by another
/// thread does not inherit this one's channel (which would hide its EOF).
Expected<WorkerPipes> makeWorkerPipes(StringRef what) {
  WorkerPipes pipes;
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return makeError("cannot create a " + what +
                     " channel: " + std::strerror(errno));
  pipes.hostEnd.reset(sv[0]);
  Expected<UniqueFd> childEnd = aboveStdio(sv[1]);
  if (!childEnd)
    return childEnd.takeError();
  pipes.childEnd = std::move(*childEnd);
  int ep[2];
  if (::pipe2(ep, O_CLOEXEC) != 0)
    return makeError("cannot create a " + what +
                     " pipe: " + std::strerror(errno));
  pipes.errRead.reset(ep[0]);
  Expected<UniqueFd> errWrite = aboveStdio(ep[1]);
  if (!errWrite)
    return errWrite.takeError();
  pipes.errWrite = std::move(*errWrite);
  return std::move(pipes);
}

/// The private working directory: made by the host, so that it knows it
/// from the start and removes it even when the worker dies before hello.
Expected<std::string> makeWorkDir(WorkerProgram program) {
  SmallString<128> tmpl;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmpl);
  sys::path::append(tmpl, getWorkerProgramName(program) + Twine("-XXXXXX"));
  std::string workDir = tmpl.str().str();
  if (!::mkdtemp(workDir.data()))
    return makeError("cannot create a " + describeProgram(program) +
                     " directory: " + std::strerror(errno));
  return workDir;
}

/// Whether `path` is an ELF file, which a loader can run (a wrapper script,
/// `nice` or a sandbox set as XPU_CODEGEN_WORKER is not).
bool isELFFile(const std::string &path) {
  char magic[4] = {};
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  return fd.get() >= 0 && ::read(fd.get(), magic, 4) == 4 &&
         StringRef(magic, 4) == "\x7f"
                                "ELF";
}

/// How the worker reaches the compiler's own loader, when the compiler
/// brings one: the host starts it through the loader, or (a wrapper, which
/// the loader cannot run) the worker re-executes itself through it
/// (kWorkerLoaderEnvVar). Decided once per start.
enum class LoaderUse { None, ByHost, ByWorker };

LoaderUse getLoaderUse(const std::string &path,
                       const CompilerInstallation &compiler) {
  if (compiler.loader.empty())
    return LoaderUse::None;
  return isELFFile(path) ? LoaderUse::ByHost : LoaderUse::ByWorker;
}

/// The command line: the worker, through the compiler's own loader when the
/// host starts it so.
std::vector<std::string> getWorkerCommand(const std::string &path,
                                          const WorkerLimits &limits,
                                          StringRef workDir,
                                          const CompilerInstallation &compiler,
                                          LoaderUse loader) {
  std::vector<std::string> command;
  if (loader == LoaderUse::ByHost)
    command = {compiler.loader, "--library-path",
               compiler.getLoaderLibraryPath()};
  command.push_back(path);
  if (limits.memoryMiB)
    command.push_back("--memory-mib=" + std::to_string(limits.memoryMiB));
  command.push_back(("--work-dir=" + workDir).str());
  return command;
}

/// The host's environment with the compiler's variables, except that a
/// sanitizer runtime preloaded into a sanitized host (tools/ci-sanitize) is
/// not preloaded into the worker: it could not reserve its shadow memory
/// under the worker's RLIMIT_AS.
std::vector<std::string>
getWorkerEnvironment(const CompilerInstallation &compiler, LoaderUse loader) {
  std::vector<std::string> env = getCompilerEnvironment(compiler);
  if (loader == LoaderUse::ByWorker) {
    env.push_back((kWorkerLoaderEnvVar + "=" + compiler.loader).str());
    env.push_back(
        (kWorkerLoaderPathEnvVar + "=" + compiler.getLoaderLibraryPath())
            .str());
  }
  for (char **entry = environ; *entry; ++entry) {
    StringRef var = *entry;
    if (var.starts_with((kWorkerLoaderEnvVar + "=").str()) ||
        var.starts_with((kWorkerLoaderPathEnvVar + "=").str()))
      continue; // Only ever this compiler's.
    if (!compiler.isSystem() &&
        (var.starts_with("XPU_CODEGEN_OCLOC_LIBRARY=") ||
         var.starts_with("LD_LIBRARY_PATH=") ||
         var.starts_with((kCompilerRootEnvVar + "=").str())))
      continue; // Replaced by the compiler's own.
    if (!var.consume_front("LD_PRELOAD=")) {
      env.push_back(*entry);
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
      env.push_back("LD_PRELOAD=" + llvm::join(kept, ":"));
  }
  return env;
}

/// Null-terminated pointers into `strings` for exec.
SmallVector<char *> toExecVector(std::vector<std::string> &strings) {
  SmallVector<char *> pointers;
  for (std::string &string : strings)
    pointers.push_back(string.data());
  pointers.push_back(nullptr);
  return pointers;
}

/// posix_spawn of `command` with the pipes on stdin/stdout (the channel) and
/// stderr, default signal dispositions and an empty mask whatever the host
/// has set up, and no other descriptor inherited. Returns errno or 0.
int spawnWithPipes(std::vector<std::string> command,
                   std::vector<std::string> env, const WorkerPipes &pipes,
                   pid_t &pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  scope_exit destroyActions(
      [&] { posix_spawn_file_actions_destroy(&actions); });
  posix_spawn_file_actions_adddup2(&actions, pipes.childEnd.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, pipes.childEnd.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, pipes.errWrite.get(), 2);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
  // The host's other descriptors (pipes of its own children, ...) that lack
  // close-on-exec must not be held open by a long-lived worker.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
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
  // A process group of its own: whatever the compiler forks is killed with
  // the worker (killGroup), and a stopped worker left behind by a dead host
  // is an orphaned group, which the kernel hangs up.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETPGROUP);
  SmallVector<char *> argv = toExecVector(command);
  SmallVector<char *> envp = toExecVector(env);
  return ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(),
                       envp.data());
}
} // namespace

Expected<std::unique_ptr<WorkerProcess>>
WorkerProcess::launch(const std::string &path, const WorkerLimits &limits,
                      WorkerProgram program,
                      const CompilerInstallation &compiler) {
  std::string what = describeProgram(program).str();
  Expected<std::string> workDir = makeWorkDir(program);
  if (!workDir)
    return workDir.takeError();
  scope_exit removeDir([&] {
    (void)sys::fs::remove_directories(*workDir, /*IgnoreErrors=*/true);
  });
  Expected<WorkerPipes> pipes = makeWorkerPipes(what);
  if (!pipes)
    return pipes.takeError();

  pid_t pid;
  LoaderUse loader = getLoaderUse(path, compiler);
  int rc =
      spawnWithPipes(getWorkerCommand(path, limits, *workDir, compiler, loader),
                     getWorkerEnvironment(compiler, loader), *pipes, pid);
  if (rc != 0)
    return makeError(formatv(
        "cannot start {2} '{0}'{3}: {1}", path, std::strerror(rc), what,
        compiler.loader.empty() ? std::string()
                                : " through '" + compiler.loader + "'"));
  pipes->childEnd.reset();
  pipes->errWrite.reset();
  LLVM_DEBUG(dbgs() << "xpu-worker: spawned " << path << " pid " << pid
                    << "\n");

  for (int fd : {pipes->hostEnd.get(), pipes->errRead.get()})
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  removeDir.release(); // The worker owns it now.
  return std::unique_ptr<WorkerProcess>(
      new WorkerProcess(pid, std::move(pipes->hostEnd),
                        std::move(pipes->errRead), limits, *workDir, program));
}

Error WorkerProcess::awaitHello(uint64_t startupMs) {
  Expected<proto::Frame> hello =
      transact("", /*id=*/0, deadlineAfter(startupMs), startupMs,
               /*startup=*/true);
  if (!hello)
    return hello.takeError();
  if (hello->kind != proto::MessageKind::Hello)
    return killWith(what + " failed to start: it sent " +
                    Twine(unsigned(hello->kind)) + " instead of hello");
  Expected<proto::HelloMessage> message = proto::decodeHello(hello->payload);
  if (!message)
    return killWith(what +
                    " failed to start: " + toString(message.takeError()));
  return Error::success();
}

std::optional<int> WorkerProcess::reap(Clock::duration grace) {
  if (pid <= 0 || !isOwner())
    return std::nullopt;
  auto giveUp = Clock::now() + grace;
  int status = 0;
  struct rusage usage = {};
  scope_exit recordUsage([&] { peakRssKiB = usage.ru_maxrss; });
  for (;;) {
    pid_t current = pid;
    if (current <= 0) // Another thread reaped it meanwhile.
      return std::nullopt;
    siginfo_t info = {};
    int r = ::waitid(P_PID, id_t(current), &info, WEXITED | WNOHANG | WNOWAIT);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) { // ECHILD: someone else reaped it (SIGCHLD ignored).
      std::lock_guard<std::mutex> lock(reapMutex);
      pid = -1;
      cleanUpAfterExit();
      return std::nullopt;
    }
    bool exited = info.si_pid == current;
    if (!exited && Clock::now() < giveUp) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    // Exited but not reaped yet, its pid still names its group: whatever
    // the compiler forked goes with it. The pid is given up (-1) before the
    // lock is, so no other thread signals it once the kernel may reuse it.
    std::lock_guard<std::mutex> lock(reapMutex);
    if (pid != current)
      return std::nullopt;
    killGroupLocked();
    while (::wait4(current, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    pid = -1;
    break;
  }
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
    killGroup();
    reap(kShutdownGrace);
  }
  return makeError(message);
}

void WorkerProcess::killGroup() const {
  std::lock_guard<std::mutex> lock(reapMutex);
  killGroupLocked();
}

void WorkerProcess::killGroupLocked() const {
  pid_t pid = this->pid;
  if (pid <= 0 || !isOwner())
    return;
  // The worker leads its group; the second kill covers a worker that left
  // it (setsid).
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

void WorkerProcess::finishShutdown() {
  if (pid > 0)
    reap(kShutdownGrace);
}

bool WorkerProcess::checkIdle() {
  if (pid <= 0 || !isOwner())
    return false;
  siginfo_t info = {};
  if (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
      info.si_pid == 0) {
    struct pollfd fd = {channel.get(), POLLIN, 0};
    if (decoder.pendingBytes() == 0 && ::poll(&fd, 1, 0) == 0)
      return true;
    consumeError(killWith(what + " spoke while idle"));
    return false;
  }
  reap(Clock::duration::zero()); // With whatever it left in its group.
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

} // namespace mlir::xpu::detail
