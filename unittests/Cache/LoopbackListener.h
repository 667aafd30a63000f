//===- LoopbackListener.h - A listening socket for fake servers -*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_UNITTESTS_CACHE_LOOPBACKLISTENER_H
#define XPUCODEGEN_UNITTESTS_CACHE_LOOPBACKLISTENER_H

#include "gtest/gtest.h"

#include <arpa/inet.h>
#include <cstdint>
#include <netinet/in.h>
#include <sys/socket.h>

namespace mlir::xpu::test {

/// A socket listening on a free localhost port (stored in `port`), for the
/// fake Redis servers of the cache tests.
inline int listenOnLoopback(int backlog, uint16_t &port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
  port = ntohs(addr.sin_port);
  ::listen(fd, backlog);
  return fd;
}

} // namespace mlir::xpu::test

#endif // XPUCODEGEN_UNITTESTS_CACHE_LOOPBACKLISTENER_H
