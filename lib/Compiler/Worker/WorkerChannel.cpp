//===- WorkerChannel.cpp - One exchange with a worker
//-----------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// One request/reply exchange at a time over the worker's socket, with a
// wall-clock deadline enforced by poll() and SIGKILL; the worker's stderr is
// drained meanwhile for error messages.
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

namespace mlir::xpu::detail {

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

} // namespace mlir::xpu::detail
