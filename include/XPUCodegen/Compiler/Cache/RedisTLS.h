//===- RedisTLS.h - TLS over the shared tier's own socket I/O ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// TLS for `rediss://` connections with OpenSSL 3. OpenSSL never touches the
// socket: it works on a memory BIO pair and the bytes move through
// SocketIO.h, so the handshake, reads and writes keep the connection's
// deadlines, never raise SIGPIPE and read only bounded amounts. The server's
// certificate must chain to the system's CA store or to a given CA file and
// name the host (or IP address) of the URL. Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_REDISTLS_H
#define XPUCODEGEN_COMPILER_CACHE_REDISTLS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <string>

namespace mlir::xpu {

/// The files of a TLS connection; empty: not used (the CA: the system's
/// store).
struct RedisTLSFiles {
  std::string caFile;
  /// A client certificate (chain) and its private key, both PEM.
  std::string certFile;
  std::string keyFile;
};

class TLSSession {
public:
  /// Runs the handshake with the server at `host` on the connected
  /// non-blocking socket `fd` by `deadline`. The error says what failed
  /// (a file, the certificate and why, the connection) and names `address`.
  static llvm::Expected<std::unique_ptr<TLSSession>>
  start(int fd, llvm::StringRef host, const RedisTLSFiles &files,
        std::chrono::steady_clock::time_point deadline,
        llvm::StringRef address);
  ~TLSSession();

  llvm::Error write(llvm::StringRef data,
                    std::chrono::steady_clock::time_point deadline);
  /// Reads 1 to `size` bytes of plain text.
  llvm::Expected<size_t> read(char *buffer, size_t size,
                              std::chrono::steady_clock::time_point deadline);

private:
  struct State;
  explicit TLSSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_REDISTLS_H
