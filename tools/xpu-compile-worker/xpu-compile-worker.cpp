//===- xpu-compile-worker.cpp - Isolated native compiler process ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Started by WorkerPool (lib/Target/Worker) with a socket on stdin/stdout.
// It limits its own address space, moves into a private empty working
// directory (IGC reads option files from the current directory), loads and
// warms the compiler once, says hello, and then serves compile jobs until
// the host closes the channel. Whatever the compiler does to this process
// (exit, abort, runaway memory) only costs the host one job.
//
//===----------------------------------------------------------------------===//

#include "CompilerBackend.h"

#include "XPUCodegen/Target/Worker/WorkerProtocol.h"

#include "llvm/ADT/StringRef.h"
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

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::worker;
namespace proto = mlir::xpu::protocol;

namespace {

/// The private working directory, removed on any orderly exit (including
/// the compiler calling exit()); the host removes it after a crash.
char workDir[4096];

void removeWorkDir() {
  if (workDir[0])
    (void)sys::fs::remove_directories(workDir, /*IgnoreErrors=*/true);
}

/// Allocation failure under RLIMIT_AS: leave with a status the host maps to
/// "exceeded the memory limit" instead of whatever the compiler would do.
void onOutOfMemory() {
  static const char message[] = "xpu-compile-worker: out of memory\n";
  (void)!::write(2, message, sizeof(message) - 1);
  ::_exit(proto::kExitOutOfMemory);
}

int fail(const Twine &message) {
  std::fprintf(stderr, "xpu-compile-worker: %s\n", message.str().c_str());
  return proto::kExitSetupFailure;
}

/// Lazily created backends; a backend that cannot load answers every job
/// with the same error and the worker stays up.
struct Backends {
  std::unique_ptr<CompilerBackend> instances[2];
  std::string loadErrors[2];
  bool tried[2] = {false, false};
  /// Appended to load failures that look like a lack of address space:
  /// a tight memory limit breaks dlopen.
  std::string limitNote;

  std::string annotate(std::string message) const {
    StringRef text = message;
    if (text.contains("failed to map") || text.contains("memory"))
      message += limitNote;
    return message;
  }

  Expected<CompilerBackend &> get(WorkerBackend kind) {
    unsigned index = unsigned(kind);
    if (!tried[index]) {
      tried[index] = true;
      Expected<std::unique_ptr<CompilerBackend>> backend =
          kind == WorkerBackend::Ocloc ? createOclocBackend()
                                       : createLevelZeroBackend();
      if (backend)
        instances[index] = std::move(*backend);
      else
        loadErrors[index] = annotate(toString(backend.takeError()));
    }
    if (!instances[index])
      return createStringError(inconvertibleErrorCode(), loadErrors[index]);
    return *instances[index];
  }
};

/// Sends `kind` with `payload`, or an Error frame for `result`'s error, as
/// the answer to request `id`.
template <typename T, typename EncodeFn>
Error reply(int out, uint64_t id, proto::MessageKind kind, Expected<T> result,
            EncodeFn encode) {
  // IGC's diagnostics go through stdio (into the host's stderr capture);
  // flush them while the host still attributes them to this job.
  std::fflush(stdout);
  std::fflush(stderr);
  if (!result)
    return proto::writeAll(
        out, proto::encodeFrame(
                 proto::MessageKind::Error,
                 proto::encodeString(toString(result.takeError())), id));
  return proto::writeAll(out, proto::encodeFrame(kind, encode(*result), id));
}

} // namespace

int main(int argc, char **argv) {
  uint64_t memoryMiB = 0;
  StringRef givenWorkDir;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg.consume_front("--memory-mib=") && !arg.getAsInteger(10, memoryMiB))
      continue;
    if (arg.consume_front("--work-dir=") && !arg.empty() &&
        arg.size() < sizeof(workDir)) {
      givenWorkDir = arg;
      continue;
    }
    std::fprintf(stderr,
                 "usage: %s [--memory-mib=N] [--work-dir=DIR]\n"
                 "Serves compile jobs for XPUCodegen's WorkerPool over "
                 "stdin/stdout; not meant to be run by hand.\n",
                 argv[0]);
    return 2;
  }

  // Move the protocol channel off fds 0/1: IGC prints to stdout, which must
  // land in the captured stderr, not in the middle of a frame.
  int in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  int out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0 || out < 0 || devNull < 0 || ::dup2(devNull, 0) < 0 ||
      ::dup2(2, 1) < 0)
    return fail(Twine("cannot set up the channel: ") + std::strerror(errno));
  ::close(devNull);
  // A vanished host is an EPIPE from send(), handled as end of service.
  std::signal(SIGPIPE, SIG_IGN);

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

  if (!givenWorkDir.empty()) {
    // The host made it (and removes it if this process dies early).
    std::memcpy(workDir, givenWorkDir.data(), givenWorkDir.size());
    workDir[givenWorkDir.size()] = 0;
  } else {
    SmallString<128> tmpl;
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmpl);
    sys::path::append(tmpl, "xpu-compile-worker-XXXXXX");
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

  // Load and warm the default compiler before saying hello, so that the
  // host's per-job time limit never includes start-up.
  Backends backends;
  if (memoryMiB)
    backends.limitNote = " (under the worker's " + std::to_string(memoryMiB) +
                         " MiB memory limit)";
  if (Expected<CompilerBackend &> ocloc = backends.get(WorkerBackend::Ocloc);
      !ocloc)
    consumeError(ocloc.takeError()); // Reported on each ocloc job.

  proto::HelloMessage hello;
  hello.pid = uint32_t(::getpid());
  hello.workDir = workDir;
  if (Error err =
          proto::writeAll(out, proto::encodeFrame(proto::MessageKind::Hello,
                                                  proto::encodeHello(hello)))) {
    consumeError(std::move(err));
    return 0; // The host went away.
  }

  // The host may die while the compiler runs (and with it the time limit it
  // enforces): a hang-up on the channel ends this process at once instead
  // of letting a runaway compile outlive its host.
  std::thread([in] {
    struct pollfd fd = {in, POLLRDHUP, 0};
    while (::poll(&fd, 1, -1) < 0 && errno == EINTR) {
    }
    removeWorkDir();
    ::_exit(0);
  }).detach();

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

    Error sent = Error::success();
    switch ((*frame)->kind) {
    case proto::MessageKind::CompileRequest: {
      Expected<WorkerResponse> response = [&]() -> Expected<WorkerResponse> {
        Expected<WorkerRequest> request =
            proto::decodeRequest((*frame)->payload);
        if (!request)
          return request.takeError();
        Expected<CompilerBackend &> backend = backends.get(request->backend);
        if (!backend)
          return backend.takeError();
        return backend->compile(*request);
      }();
      sent = reply(out, (*frame)->id, proto::MessageKind::CompileResponse,
                   std::move(response), proto::encodeResponse);
      break;
    }
    case proto::MessageKind::IdentityRequest: {
      Expected<std::string> identity = [&]() -> Expected<std::string> {
        Expected<WorkerBackend> kind = proto::decodeBackend((*frame)->payload);
        if (!kind)
          return kind.takeError();
        Expected<CompilerBackend &> backend = backends.get(*kind);
        if (!backend)
          return backend.takeError();
        return backend->getIdentity();
      }();
      sent = reply(out, (*frame)->id, proto::MessageKind::IdentityResponse,
                   std::move(identity),
                   [](StringRef text) { return proto::encodeString(text); });
      break;
    }
    default:
      sent = proto::writeAll(
          out, proto::encodeFrame(proto::MessageKind::Error,
                                  proto::encodeString(
                                      "unexpected message kind " +
                                      std::to_string(unsigned((*frame)->kind))),
                                  (*frame)->id));
      break;
    }
    if (sent) {
      consumeError(std::move(sent));
      return 0; // The host went away.
    }
  }
}
