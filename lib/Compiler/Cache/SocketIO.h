//===- SocketIO.h - Socket I/O with deadlines -------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The shared tier's socket I/O on a non-blocking socket: every call ends by
// its deadline, never raises SIGPIPE and reads at most what it is given room
// for. Used by the plain and the TLS transport of RedisConnection.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_CACHE_SOCKETIO_H
#define XPUCODEGEN_LIB_TARGET_CACHE_SOCKETIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstddef>

namespace mlir::xpu {

using SocketDeadline = std::chrono::steady_clock::time_point;

/// An error of the connection to `address` (never anything secret).
llvm::Error socketError(const llvm::Twine &what);

/// Waits until `fd` is ready for `events` (POLLIN, POLLOUT) or `deadline`.
llvm::Error waitForSocket(int fd, short events, SocketDeadline deadline,
                          llvm::StringRef address);

/// Sends all of `data` by `deadline`.
llvm::Error sendAllBytes(int fd, llvm::StringRef data, SocketDeadline deadline,
                         llvm::StringRef address);

/// Receives 1 to `size` bytes by `deadline`; a closed connection is an
/// error.
llvm::Expected<size_t> receiveSome(int fd, char *buffer, size_t size,
                                   SocketDeadline deadline,
                                   llvm::StringRef address);

} // namespace mlir::xpu

#endif // XPUCODEGEN_LIB_TARGET_CACHE_SOCKETIO_H
