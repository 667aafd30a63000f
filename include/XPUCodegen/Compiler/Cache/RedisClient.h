//===- RedisClient.h - Bounded blocking Redis client ------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The few Redis commands the shared cache tier needs, over hiredis (connect,
// command formatting, reply parsing) with the socket I/O done here so that
// every call has a deadline, never raises SIGPIPE and never buffers more
// than a caller-given number of reply bytes. Nothing the server sends is
// trusted: a reply of an unexpected type, a bulk string announced larger
// than the bound, bytes after the reply or a reply that does not parse
// make the connection unusable (the caller drops it). rediss:// runs TLS
// over the same I/O (RedisTLS.h); credentials are sent with AUTH and never
// appear in a message. Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_REDISCLIENT_H
#define XPUCODEGEN_COMPILER_CACHE_REDISCLIENT_H

#include "XPUCodegen/Compiler/Cache/RedisTLS.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::xpu {

/// A parsed `redis[s]://[[user]:password@]host[:port][/db]` URL.
struct RedisURL {
  /// A host name, an IPv4 address or an IPv6 address (without brackets).
  std::string host;
  uint16_t port = 6379;
  unsigned db = 0;
  /// rediss://: TLS.
  bool tls = false;
  /// The ACL user to AUTH as; empty: `default`.
  std::string user;
  /// Secret: never printed (str() leaves it out). Empty: no AUTH.
  std::string password;

  /// The canonical form without the password, e.g.
  /// rediss://reader@cache:6380/0.
  std::string str() const;
};

/// Parses `redis[s]://[[user]:password@]host[:port][/db]` (port 6379 and db
/// 0 by default; IPv6 hosts in brackets; user and password %-encoded where
/// needed). Query strings and other schemes are an error that says what is
/// wrong with which part of `url` (its password shown as `****`).
llvm::Expected<RedisURL> parseRedisURL(llvm::StringRef url);

/// `url` as written without its password (`redis://user@host`), valid or
/// not: how an option holding it is printed.
std::string removeURLPassword(llvm::StringRef url);

struct RedisTimeouts {
  std::chrono::milliseconds connect{1000};
  /// For one whole command: sending it and reading its reply.
  std::chrono::milliseconds command{5000};
};

/// One reply the client accepts (RESP2 nil, bulk string, status, integer or
/// error; never an array).
struct RedisReply {
  enum class Kind { Nil, String, Status, Integer, Error };
  Kind kind = Kind::Nil;
  /// String, Status and Error replies.
  std::string str;
  long long integer = 0;

  bool isStatus(llvm::StringRef text) const {
    return kind == Kind::Status && str == text;
  }
};

/// Which reply types a command may answer with besides an error.
enum RedisReplyType : unsigned {
  RedisNil = 1,
  RedisString = 2,
  RedisStatus = 4,
  RedisInteger = 8,
};

/// A reply announced larger than the caller's bound: not read, and the
/// connection is unusable.
class RedisReplyTooLargeError
    : public llvm::ErrorInfo<RedisReplyTooLargeError> {
public:
  static char ID;
  explicit RedisReplyTooLargeError(uint64_t size) : size(size) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
  uint64_t size;
};

/// The server refused the URL's credentials (a wrong password, an unknown
/// or disabled ACL user): retrying cannot help.
class RedisAuthError : public llvm::ErrorInfo<RedisAuthError> {
public:
  static char ID;
  explicit RedisAuthError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
  std::string message;
};

class RedisConnection {
public:
  /// Connects within `timeouts.connect` (name resolution is the system
  /// resolver's, bounded by its own timeouts), runs the TLS handshake of a
  /// rediss:// URL (with `tls`) within `timeouts.connect` again, then AUTH
  /// with the URL's credentials and SELECT of its database within
  /// `timeouts.connect` each. A refused AUTH is a RedisAuthError.
  static llvm::Expected<std::unique_ptr<RedisConnection>>
  connect(const RedisURL &url, const RedisTimeouts &timeouts,
          const RedisTLSFiles &tls = {});
  ~RedisConnection();

  /// Sends one command and reads its reply within the command timeout. An
  /// llvm::Error means the connection is unusable (I/O error, timeout,
  /// protocol violation, a reply of a type not in `accepted`, a reply of
  /// more than `maxReplyBytes` bytes); an error reply of the server
  /// (`-OOM ...`) is a RedisReply of kind Error and leaves it usable.
  /// `timeout`, when shorter, replaces the command timeout for this call.
  llvm::Expected<RedisReply>
  command(llvm::ArrayRef<llvm::StringRef> args, unsigned accepted,
          uint64_t maxReplyBytes = 64 * 1024,
          std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  /// False once a command failed with an llvm::Error.
  bool isUsable() const { return usable; }

private:
  RedisConnection() = default;
  llvm::Error sendAll(llvm::StringRef data,
                      std::chrono::steady_clock::time_point deadline);
  /// Reads 1 or more bytes (plain text under TLS) into `buffer`.
  llvm::Expected<size_t>
  receive(char *buffer, size_t size,
          std::chrono::steady_clock::time_point deadline);
  llvm::Error authenticate(const RedisURL &url);
  llvm::Expected<RedisReply>
  readReply(unsigned accepted, uint64_t maxReplyBytes,
            std::chrono::steady_clock::time_point deadline);

  struct Handles;
  std::unique_ptr<Handles> handles;
  /// Set for rediss://.
  std::unique_ptr<TLSSession> tls;
  RedisTimeouts timeouts;
  std::string address;
  bool usable = true;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_REDISCLIENT_H
