//===- WorkerServer.cpp - Worker side of the WorkerPool protocol ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Started by WorkerPool with a socket on stdin/stdout, a worker program
// limits its own address space, moves into a private empty working
// directory, sets itself up once, says hello, and then serves jobs until the
// host closes the channel. Whatever a job does to the process (exit, abort,
// runaway memory) only costs the host that job.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerServer.h"
#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"
#include "XPUCodegen/Compiler/Worker/WorkerProtocol.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <optional>
#include <poll.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace llvm;
namespace proto = mlir::xpu::protocol;

namespace mlir::xpu::worker {

WorkerService::~WorkerService() = default;

namespace {

/// The private working directory, removed on any orderly exit (including
/// the compiler calling exit()); the host removes it after a crash.
char workDir[4096];
/// The program's name, for messages from signal-safe code.
char programName[64] = "worker";

void removeWorkDir() {
  if (workDir[0])
    (void)sys::fs::remove_directories(workDir, /*IgnoreErrors=*/true);
}

/// Allocation failure under RLIMIT_AS: leave with a status the host maps to
/// "exceeded the memory limit" instead of whatever the compiler would do.
void onOutOfMemory() {
  static const char message[] = ": out of memory\n";
  (void)!::write(2, programName, std::strlen(programName));
  (void)!::write(2, message, sizeof(message) - 1);
  ::_exit(proto::kExitOutOfMemory);
}

int fail(const Twine &message) {
  std::fprintf(stderr, "%s: %s\n", programName, message.str().c_str());
  return proto::kExitSetupFailure;
}

/// Sends `kind` with `payload`, or an Error frame for `result`'s error, as
/// the answer to request `id`.
template <typename T, typename EncodeFn>
Error reply(int out, uint64_t id, proto::MessageKind kind, Expected<T> result,
            EncodeFn encode) {
  // Compilers' diagnostics go through stdio (into the host's stderr
  // capture); flush them while the host still attributes them to this job.
  std::fflush(stdout);
  std::fflush(stderr);
  if (!result)
    return proto::writeAll(
        out, proto::encodeFrame(
                 proto::MessageKind::Error,
                 proto::encodeString(toString(result.takeError())), id));
  return proto::writeAll(out, proto::encodeFrame(kind, encode(*result), id));
}

/// The command line: the memory limit and the host-made working directory.
struct ServerArgs {
  uint64_t memoryMiB = 0;
  StringRef workDir;
};

std::optional<ServerArgs> parseArgs(int argc, char **argv) {
  ServerArgs args;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg.consume_front("--memory-mib=") &&
        !arg.getAsInteger(10, args.memoryMiB))
      continue;
    if (arg.consume_front("--work-dir=") && !arg.empty() &&
        arg.size() < sizeof(workDir)) {
      args.workDir = arg;
      continue;
    }
    std::fprintf(stderr,
                 "usage: %s [--memory-mib=N] [--work-dir=DIR]\n"
                 "Serves jobs for XPUCodegen's WorkerPool over "
                 "stdin/stdout; not meant to be run by hand.\n",
                 argv[0]);
    return std::nullopt;
  }
  return args;
}

/// Moves the protocol channel off fds 0/1 (compilers print to stdout, which
/// must land in the captured stderr, not in the middle of a frame); returns
/// the channel's input and output descriptors, or -1s.
std::pair<int, int> takeChannel() {
  int in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  int out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0 || out < 0 || devNull < 0 || ::dup2(devNull, 0) < 0 ||
      ::dup2(2, 1) < 0)
    return {-1, -1};
  ::close(devNull);
  // A vanished host is an EPIPE from send(), handled as end of service.
  std::signal(SIGPIPE, SIG_IGN);
  return {in, out};
}

/// The address-space limit, and a clean exit status when it is hit.
int limitMemory(uint64_t memoryMiB) {
  if (memoryMiB > kMaxMemoryMiB)
    return fail("memory limit of " + Twine(memoryMiB) + " MiB is out of range");
  if (memoryMiB) {
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = rlim_t(memoryMiB) << 20;
    if (::setrlimit(RLIMIT_AS, &limit) != 0)
      return fail(Twine("cannot set the memory limit: ") +
                  std::strerror(errno));
  }
  std::set_new_handler(onOutOfMemory);
  return 0;
}

/// Enters the private working directory: the host's, else a new one.
int enterWorkDir(StringRef givenWorkDir, StringRef name) {
  if (!givenWorkDir.empty()) {
    // The host made it (and removes it if this process dies early).
    std::memcpy(workDir, givenWorkDir.data(), givenWorkDir.size());
    workDir[givenWorkDir.size()] = 0;
  } else {
    SmallString<128> tmpl;
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmpl);
    sys::path::append(tmpl, name + Twine("-XXXXXX"));
    if (tmpl.size() >= sizeof(workDir))
      return fail("temporary directory path too long");
    std::memcpy(workDir, tmpl.c_str(), tmpl.size() + 1);
    if (!::mkdtemp(workDir)) {
      workDir[0] = 0;
      return fail(Twine("cannot create a private working directory: ") +
                  std::strerror(errno));
    }
  }
  std::atexit(removeWorkDir);
  if (::chdir(workDir) != 0)
    return fail(Twine("cannot enter ") + workDir + ": " + std::strerror(errno));
  return 0;
}

/// Ends this process once the host has gone or closed the channel, and
/// with it whatever the compiler forked: the host made this process the
/// leader of its own process group (a worker started otherwise leaves its
/// group alone). The host cannot do it when it died.
[[noreturn]] void exitWithProcessGroup() {
  removeWorkDir();
  if (::getpgrp() == ::getpid())
    ::kill(0, SIGKILL);
  ::_exit(0);
}

/// The host may die while a job runs (and with it the time limit it
/// enforces): a hang-up on the channel ends this process at once instead of
/// letting a runaway job outlive its host.
void exitWhenHostHangsUp(int in) {
  std::thread([in] {
    struct pollfd fd = {in, POLLRDHUP, 0};
    while (::poll(&fd, 1, -1) < 0 && errno == EINTR) {
    }
    exitWithProcessGroup();
  }).detach();
}

/// Answers one request frame.
Error serve(int out, const proto::Frame &frame, WorkerService &service) {
  switch (frame.kind) {
  case proto::MessageKind::CompileRequest: {
    Expected<WorkerRequest> request = proto::decodeRequest(frame.payload);
    Expected<WorkerResponse> response =
        request ? service.compile(*request)
                : Expected<WorkerResponse>(request.takeError());
    return reply(out, frame.id, proto::MessageKind::CompileResponse,
                 std::move(response), proto::encodeResponse);
  }
  case proto::MessageKind::IdentityRequest: {
    Expected<WorkerBackend> kind = proto::decodeBackend(frame.payload);
    Expected<std::string> identity =
        kind ? service.getIdentity(*kind)
             : Expected<std::string>(kind.takeError());
    return reply(out, frame.id, proto::MessageKind::IdentityResponse,
                 std::move(identity),
                 [](StringRef text) { return proto::encodeString(text); });
  }
  default:
    return proto::writeAll(
        out, proto::encodeFrame(
                 proto::MessageKind::Error,
                 proto::encodeString("unexpected message kind " +
                                     std::to_string(unsigned(frame.kind))),
                 frame.id));
  }
}

/// Serves frames until the host closes the channel (0) or the stream is
/// corrupt (a setup failure, after saying why).
int serveUntilClosed(int in, int out, WorkerService &service) {
  proto::FrameDecoder decoder;
  for (;;) {
    Expected<std::optional<proto::Frame>> frame = proto::readFrame(in, decoder);
    if (!frame) {
      // The stream cannot be resynchronized: say why and stop.
      std::string message = toString(frame.takeError());
      consumeError(proto::writeAll(
          out, proto::encodeFrame(proto::MessageKind::Error,
                                  proto::encodeString(message))));
      return fail(message);
    }
    if (!*frame)
      return 0; // Orderly shutdown: the host closed the channel.
    if (Error sent = serve(out, **frame, service)) {
      consumeError(std::move(sent));
      return 0; // The host went away.
    }
  }
}

} // namespace

/// A worker a wrapper started (kWorkerLoaderEnvVar set) runs itself again
/// through the compiler's loader, as the host would have started it; returns
/// only when it cannot.
static int reexecThroughLoader(int argc, char **argv) {
  const char *loader = std::getenv(kWorkerLoaderEnvVar.data());
  if (!loader)
    return 0;
  std::string loaderPath = loader;
  const char *libraryPath = std::getenv(kWorkerLoaderPathEnvVar.data());
  std::string libraries = libraryPath ? libraryPath : "";
  ::unsetenv(kWorkerLoaderEnvVar.data());
  ::unsetenv(kWorkerLoaderPathEnvVar.data());
  SmallString<256> self;
  if (sys::fs::real_path("/proc/self/exe", self))
    return fail("cannot find the worker's own executable");
  std::vector<char *> command = {loaderPath.data(),
                                 const_cast<char *>("--library-path"),
                                 libraries.data(), self.data()};
  command.insert(command.end(), argv + 1, argv + argc);
  command.push_back(nullptr);
  ::execv(loaderPath.c_str(), command.data());
  return fail("cannot run the worker through the compiler's loader '" +
              loaderPath + "': " + std::strerror(errno));
}

int runWorkerServer(int argc, char **argv, StringRef name,
                    WorkerService &service) {
  std::snprintf(programName, sizeof(programName), "%s", name.str().c_str());
  if (int rc = reexecThroughLoader(argc, argv))
    return rc;
  std::optional<ServerArgs> args = parseArgs(argc, argv);
  if (!args)
    return 2;
  auto [in, out] = takeChannel();
  if (in < 0)
    return fail(Twine("cannot set up the channel: ") + std::strerror(errno));
  if (int rc = limitMemory(args->memoryMiB))
    return rc;
  if (int rc = enterWorkDir(args->workDir, name))
    return rc;

  // Also while the compiler loads: a host gone by then wants no worker.
  exitWhenHostHangsUp(in);
  service.setUp(args->memoryMiB);

  proto::HelloMessage hello;
  hello.pid = uint32_t(::getpid());
  hello.workDir = workDir;
  if (Error err =
          proto::writeAll(out, proto::encodeFrame(proto::MessageKind::Hello,
                                                  proto::encodeHello(hello)))) {
    consumeError(std::move(err));
    exitWithProcessGroup(); // The host went away.
  }
  if (int rc = serveUntilClosed(in, out, service))
    return rc;
  exitWithProcessGroup();
}

} // namespace mlir::xpu::worker
