//===- SocketIO.cpp - Socket I/O with deadlines ---------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "SocketIO.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>

using namespace llvm;
using namespace mlir::xpu;
using Clock = std::chrono::steady_clock;

Error mlir::xpu::socketError(const Twine &what) {
  return createStringError(inconvertibleErrorCode(), what);
}

Error mlir::xpu::waitForSocket(int fd, short events, SocketDeadline deadline,
                               StringRef address) {
  for (;;) {
    Clock::time_point now = Clock::now();
    if (now >= deadline)
      return socketError(formatv("{0}: timed out", address));
    // Rounded up: never a timeout before the deadline.
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    pollfd pfd{fd, events, 0};
    int ready = ::poll(&pfd, 1, int(std::min<int64_t>(left.count(), INT_MAX)));
    if (ready > 0)
      return Error::success();
    if (ready < 0 && errno != EINTR)
      return socketError(
          formatv("{0}: poll: {1}", address, std::strerror(errno)));
  }
}

Error mlir::xpu::sendAllBytes(int fd, StringRef data, SocketDeadline deadline,
                              StringRef address) {
  while (!data.empty()) {
    ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent > 0) {
      data = data.drop_front(size_t(sent));
      continue;
    }
    if (sent < 0 && errno == EINTR)
      continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (Error error = waitForSocket(fd, POLLOUT, deadline, address))
        return error;
      continue;
    }
    return socketError(
        formatv("{0}: send: {1}", address,
                sent < 0 ? std::strerror(errno) : "no progress"));
  }
  return Error::success();
}

Expected<size_t> mlir::xpu::receiveSome(int fd, char *buffer, size_t size,
                                        SocketDeadline deadline,
                                        StringRef address) {
  for (;;) {
    if (Error error = waitForSocket(fd, POLLIN, deadline, address))
      return std::move(error);
    ssize_t got = ::recv(fd, buffer, size, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    if (got < 0)
      return socketError(
          formatv("{0}: recv: {1}", address, std::strerror(errno)));
    if (got == 0)
      return socketError(
          formatv("{0}: connection closed by the server", address));
    return size_t(got);
  }
}
