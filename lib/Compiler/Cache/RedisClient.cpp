//===- RedisClient.cpp - Bounded blocking Redis client --------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/RedisClient.h"
#include "SocketIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <hiredis/hiredis.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;
using Clock = std::chrono::steady_clock;

char RedisReplyTooLargeError::ID = 0;

void RedisReplyTooLargeError::log(raw_ostream &os) const {
  os << "reply of " << size << " bytes is larger than allowed";
}

std::error_code RedisReplyTooLargeError::convertToErrorCode() const {
  return std::make_error_code(std::errc::message_size);
}

char RedisAuthError::ID = 0;

void RedisAuthError::log(raw_ostream &os) const { os << message; }

std::error_code RedisAuthError::convertToErrorCode() const {
  return std::make_error_code(std::errc::permission_denied);
}

//===----------------------------------------------------------------------===//
// URLs
//===----------------------------------------------------------------------===//

std::string RedisURL::str() const {
  std::string text = tls ? "rediss://" : "redis://";
  if (!user.empty())
    text += user + "@";
  if (StringRef(host).contains(':'))
    text += "[" + host + "]";
  else
    text += host;
  return formatv("{0}:{1}/{2}", text, port, db).str();
}

static bool isHostNameChar(char c) {
  return isAlnum(c) || c == '-' || c == '.' || c == '_';
}

/// `text` with %XX decoded; std::nullopt for a malformed escape.
static std::optional<std::string> percentDecode(StringRef text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      result += text[i];
      continue;
    }
    if (i + 2 >= text.size())
      return std::nullopt;
    unsigned value;
    if (!isHexDigit(text[i + 1]) || !isHexDigit(text[i + 2]) ||
        text.substr(i + 1, 2).getAsInteger(16, value))
      return std::nullopt;
    result += char(value);
    i += 2;
  }
  return result;
}

/// Where the credentials of `url` start (after the scheme, if any) and
/// the '@' that ends them, as parseUserInfo splits them; std::nullopt when
/// it has none.
static std::optional<std::pair<size_t, size_t>> findUserInfo(StringRef url) {
  size_t scheme = url.find("://");
  size_t start = scheme == StringRef::npos ? 0 : scheme + 3;
  size_t at = url.rfind('@');
  if (at == StringRef::npos || at < start)
    return std::nullopt;
  return std::make_pair(start, at);
}

/// `url` for messages: a password in it becomes ****.
static std::string redactURL(StringRef url) {
  std::optional<std::pair<size_t, size_t>> userinfo = findUserInfo(url);
  if (!userinfo)
    return url.str();
  auto [start, at] = *userinfo;
  size_t colon = url.slice(start, at).find(':');
  if (colon == StringRef::npos)
    return url.str();
  return (url.take_front(start + colon + 1) + "****" + url.drop_front(at))
      .str();
}

std::string mlir::xpu::removeURLPassword(StringRef url) {
  std::optional<std::pair<size_t, size_t>> userinfo = findUserInfo(url);
  if (!userinfo)
    return url.str();
  auto [start, at] = *userinfo;
  StringRef user = url.slice(start, at).split(':').first;
  // No user left: no '@' either (`redis://:password@host`).
  return (url.take_front(start) + user + (user.empty() ? "" : "@") +
          url.drop_front(at + 1))
      .str();
}

/// Splits off and decodes `user:password@` (or `user@`, `:password@`).
static Error parseUserInfo(StringRef &rest, RedisURL &result,
                           function_ref<Error(const Twine &)> invalid) {
  size_t at = rest.rfind('@');
  if (at == StringRef::npos)
    return Error::success();
  StringRef userinfo = rest.take_front(at);
  rest = rest.drop_front(at + 1);
  auto [user, password] = userinfo.split(':');
  std::optional<std::string> decodedUser = percentDecode(user);
  std::optional<std::string> decodedPassword = percentDecode(password);
  if (!decodedUser || !decodedPassword)
    return invalid("malformed %-escape in the credentials");
  // A user alone is fine: the password then comes from a file or the
  // environment (command lines are visible to other users).
  if (any_of(*decodedUser, [](char c) { return !isPrint(c) || c == ' '; }))
    return invalid("the user name must be printable without spaces");
  result.user = std::move(*decodedUser);
  result.password = std::move(*decodedPassword);
  return Error::success();
}

Expected<RedisURL> mlir::xpu::parseRedisURL(StringRef url) {
  auto invalid = [&](const Twine &reason) {
    return createStringError(inconvertibleErrorCode(),
                             "'" + redactURL(url) + "': " + reason +
                                 " (expected redis[s]://[user:password@]"
                                 "host:port[/db])");
  };
  RedisURL result;
  StringRef rest = url;
  if (rest.consume_front("rediss://"))
    result.tls = true;
  else if (!rest.consume_front("redis://"))
    return invalid("the scheme must be redis:// or rediss://");
  if (Error error = parseUserInfo(rest, result, invalid))
    return std::move(error);
  if (rest.find_first_of("?#") != StringRef::npos)
    return invalid("query strings and fragments are not supported");
  auto [authority, path] = rest.split('/');
  StringRef host, port;
  if (authority.consume_front("[")) {
    size_t close = authority.find(']');
    if (close == StringRef::npos)
      return invalid("missing ']' after the IPv6 address");
    host = authority.take_front(close);
    StringRef after = authority.drop_front(close + 1);
    if (!after.empty() && !after.consume_front(":"))
      return invalid("unexpected '" + after + "' after the IPv6 address");
    port = after;
    if (host.empty() || !all_of(host, [](char c) {
          return isHexDigit(c) || c == ':' || c == '.';
        }))
      return invalid("'" + host + "' is not an IPv6 address");
  } else {
    if (authority.count(':') > 1)
      return invalid("IPv6 addresses must be in brackets");
    std::tie(host, port) = authority.split(':');
    if (host.empty())
      return invalid("no host");
    if (host.size() > 253 || !all_of(host, isHostNameChar))
      return invalid("'" + host + "' is not a host name or address");
    if (authority.contains(':') && port.empty())
      return invalid("empty port");
  }
  if (!port.empty()) {
    unsigned value;
    if (!all_of(port, isDigit) || port.getAsInteger(10, value) || value == 0 ||
        value > 65535)
      return invalid("port '" + port + "' is not a number from 1 to 65535");
    result.port = uint16_t(value);
  }
  if (!path.empty()) {
    unsigned value;
    if (!all_of(path, isDigit) || path.size() > 10 ||
        path.getAsInteger(10, value) || value > unsigned(INT_MAX))
      return invalid("database '" + path + "' is not a number from 0 to " +
                     Twine(INT_MAX));
    result.db = value;
  }
  result.host = host.str();
  return result;
}

//===----------------------------------------------------------------------===//
// Connections
//===----------------------------------------------------------------------===//

struct RedisConnection::Handles {
  redisContext *context = nullptr;
  redisReader *reader = nullptr;
  ~Handles() {
    if (reader)
      redisReaderFree(reader);
    if (context)
      redisFree(context);
  }
};

static timeval toTimeval(std::chrono::milliseconds ms) {
  timeval tv;
  tv.tv_sec = ms.count() / 1000;
  tv.tv_usec = (ms.count() % 1000) * 1000;
  return tv;
}

static Error ioError(const Twine &what) { return socketError(what); }

Expected<std::unique_ptr<RedisConnection>>
RedisConnection::connect(const RedisURL &url, const RedisTimeouts &timeouts,
                         const RedisTLSFiles &tls) {
  std::unique_ptr<RedisConnection> connection(new RedisConnection());
  connection->timeouts = timeouts;
  connection->address = url.str();
  connection->handles = std::make_unique<Handles>();
  redisContext *context = redisConnectWithTimeout(url.host.c_str(), url.port,
                                                  toTimeval(timeouts.connect));
  connection->handles->context = context;
  if (!context)
    return ioError("cannot allocate a Redis context");
  if (context->err)
    return ioError(formatv("cannot connect to {0}: {1}", connection->address,
                           context->errstr));
  // The socket I/O is ours (poll with a deadline, MSG_NOSIGNAL); hiredis
  // only formats commands and parses replies.
  int flags = ::fcntl(context->fd, F_GETFL);
  if (flags < 0 || ::fcntl(context->fd, F_SETFL, flags | O_NONBLOCK) < 0)
    return ioError(formatv("cannot configure the socket to {0}: {1}",
                           connection->address, std::strerror(errno)));
  redisReader *reader = redisReaderCreate();
  if (!reader)
    return ioError("cannot allocate a Redis reader");
  connection->handles->reader = reader;
  // Give back buffers over 16 KiB once consumed; never accept nested
  // replies (every accepted reply is a scalar).
  reader->maxbuf = 16 * 1024;
#if HIREDIS_MAJOR >= 1
  reader->maxelements = 0;
#endif
  if (url.tls) {
    Expected<std::unique_ptr<TLSSession>> session =
        TLSSession::start(context->fd, url.host, tls,
                          Clock::now() + timeouts.connect, connection->address);
    if (!session)
      return session.takeError();
    connection->tls = std::move(*session);
  }
  if (Error error = connection->authenticate(url))
    return std::move(error);
  if (url.db != 0) {
    std::string db = std::to_string(url.db);
    Expected<RedisReply> reply = connection->command(
        {"SELECT", db}, RedisStatus, 64 * 1024, timeouts.connect);
    if (!reply)
      return reply.takeError();
    if (!reply->isStatus("OK"))
      return ioError(formatv("{0}: SELECT {1} failed: {2}", connection->address,
                             db, reply->str));
  }
  return connection;
}

Error RedisConnection::authenticate(const RedisURL &url) {
  if (url.password.empty())
    return Error::success();
  SmallVector<StringRef, 3> args = {"AUTH"};
  if (!url.user.empty())
    args.push_back(url.user);
  args.push_back(url.password);
  Expected<RedisReply> reply =
      command(args, RedisStatus, 64 * 1024, timeouts.connect);
  if (!reply)
    return reply.takeError();
  if (reply->isStatus("OK"))
    return Error::success();
  // The server's reason (WRONGPASS, NOPERM, ...) never repeats the password.
  usable = false;
  return make_error<RedisAuthError>(
      formatv("{0}: AUTH as user '{1}' refused: {2}", address,
              url.user.empty() ? "default" : url.user, reply->str));
}

RedisConnection::~RedisConnection() = default;

Error RedisConnection::sendAll(StringRef data, Clock::time_point deadline) {
  if (tls)
    return tls->write(data, deadline);
  return sendAllBytes(handles->context->fd, data, deadline, address);
}

Expected<size_t> RedisConnection::receive(char *buffer, size_t size,
                                          Clock::time_point deadline) {
  if (tls)
    return tls->read(buffer, size, deadline);
  return receiveSome(handles->context->fd, buffer, size, deadline, address);
}

/// How many bytes of `pending` make one whole reply of a type in `accepted`
/// (0: not all there yet), checked before hiredis parses it: the type must
/// be expected, a bulk string's announced size within `maxBytes`, and no
/// line longer than a number needs.
static Expected<size_t> measureReply(StringRef pending, unsigned accepted,
                                     uint64_t maxBytes, StringRef address) {
  if (pending.empty())
    return 0;
  char type = pending[0];
  bool allowed = type == '-' ||
                 (type == '$' && (accepted & (RedisString | RedisNil))) ||
                 (type == '+' && (accepted & RedisStatus)) ||
                 (type == ':' && (accepted & RedisInteger));
  if (!allowed)
    return ioError(formatv("{0}: unexpected reply type {1:x2}", address,
                           unsigned(uint8_t(type))));
  size_t eol = pending.find("\r\n");
  // Status and error lines are short; sizes and integers are <= 20 digits.
  size_t maxLine = type == '$' || type == ':' ? 32 : 4096;
  if (eol == StringRef::npos) {
    if (pending.size() > maxLine)
      return ioError(formatv("{0}: reply line too long", address));
    return 0;
  }
  if (eol > maxLine)
    return ioError(formatv("{0}: reply line too long", address));
  if (type != '$')
    return eol + 2;
  StringRef header = pending.slice(1, eol);
  if (header == "-1") {
    if (!(accepted & RedisNil))
      return ioError(formatv("{0}: unexpected nil reply", address));
    return eol + 2;
  }
  uint64_t size;
  if (header.empty() || !all_of(header, isDigit) ||
      header.getAsInteger(10, size))
    return ioError(formatv("{0}: malformed bulk length", address));
  if (!(accepted & RedisString))
    return ioError(formatv("{0}: unexpected string reply", address));
  if (size > maxBytes)
    return make_error<RedisReplyTooLargeError>(size);
  uint64_t total = eol + 2 + size + 2;
  return pending.size() >= total ? size_t(total) : 0;
}

Expected<RedisReply> RedisConnection::readReply(unsigned accepted,
                                                uint64_t maxReplyBytes,
                                                Clock::time_point deadline) {
  redisReader *reader = handles->reader;
  char chunk[64 * 1024];
  for (;;) {
    StringRef pending(reader->buf + reader->pos, reader->len - reader->pos);
    Expected<size_t> size =
        measureReply(pending, accepted, maxReplyBytes, address);
    if (!size)
      return size.takeError();
    if (*size) {
      if (pending.size() != *size)
        return ioError(
            formatv("{0}: unexpected bytes after the reply", address));
      void *object = nullptr;
      if (redisReaderGetReply(reader, &object) != REDIS_OK || !object)
        return ioError(formatv("{0}: malformed reply ({1})", address,
                               reader->err ? reader->errstr : "incomplete"));
      auto *reply = static_cast<redisReply *>(object);
      llvm::scope_exit freeReply([&] { freeReplyObject(reply); });
      RedisReply result;
      switch (reply->type) {
      case REDIS_REPLY_NIL:
        result.kind = RedisReply::Kind::Nil;
        break;
      case REDIS_REPLY_STRING:
        result.kind = RedisReply::Kind::String;
        break;
      case REDIS_REPLY_STATUS:
        result.kind = RedisReply::Kind::Status;
        break;
      case REDIS_REPLY_ERROR:
        result.kind = RedisReply::Kind::Error;
        break;
      case REDIS_REPLY_INTEGER:
        result.kind = RedisReply::Kind::Integer;
        result.integer = reply->integer;
        return result;
      default:
        return ioError(formatv("{0}: unexpected reply", address));
      }
      if (reply->str)
        result.str.assign(reply->str, reply->len);
      return result;
    }
    Expected<size_t> got = receive(chunk, sizeof(chunk), deadline);
    if (!got)
      return got.takeError();
    if (redisReaderFeed(reader, chunk, *got) != REDIS_OK)
      return ioError(formatv("{0}: cannot buffer the reply", address));
  }
}

Expected<RedisReply>
RedisConnection::command(ArrayRef<StringRef> args, unsigned accepted,
                         uint64_t maxReplyBytes,
                         std::optional<std::chrono::milliseconds> timeout) {
  if (!usable)
    return ioError(formatv("{0}: connection already failed", address));
  auto result = [&]() -> Expected<RedisReply> {
    SmallVector<const char *> argv;
    SmallVector<size_t> argvlen;
    for (StringRef arg : args) {
      argv.push_back(arg.data());
      argvlen.push_back(arg.size());
    }
    char *formatted = nullptr;
    int length = redisFormatCommandArgv(&formatted, int(argv.size()),
                                        argv.data(), argvlen.data());
    if (length < 0 || !formatted)
      return ioError("cannot format a Redis command");
    llvm::scope_exit freeCommand([&] { redisFreeCommand(formatted); });
    Clock::time_point deadline =
        Clock::now() +
        std::min(timeouts.command, timeout.value_or(timeouts.command));
    if (Error error = sendAll(StringRef(formatted, size_t(length)), deadline))
      return std::move(error);
    return readReply(accepted, maxReplyBytes, deadline);
  }();
  if (!result)
    usable = false;
  return result;
}
