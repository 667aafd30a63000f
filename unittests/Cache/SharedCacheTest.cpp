//===- SharedCacheTest.cpp - Redis URL, client bounds, shared identity ----===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The client against in-process fake servers (a socket thread answering with
// canned bytes): replies are bounded, typed and timed; the tier degrades with
// one warning. Tests against a real redis-server are the lit tests in
// test/Transforms/NativeCodegen/SharedCache.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/SharedCache.h"
#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Cache/RedisClient.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "LoopbackListener.h"

#include "gtest/gtest.h"

#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;
using namespace std::chrono_literals;

namespace {

TEST(RedisURLTest, Valid) {
  Expected<RedisURL> url = parseRedisURL("redis://cache.example.org:6380/3");
  ASSERT_TRUE(bool(url)) << toString(url.takeError());
  EXPECT_EQ(url->host, "cache.example.org");
  EXPECT_EQ(url->port, 6380);
  EXPECT_EQ(url->db, 3u);
  EXPECT_EQ(url->str(), "redis://cache.example.org:6380/3");

  url = parseRedisURL("redis://10.0.0.7");
  ASSERT_TRUE(bool(url));
  EXPECT_EQ(url->port, 6379);
  EXPECT_EQ(url->db, 0u);

  url = parseRedisURL("redis://[::1]:7000/");
  ASSERT_TRUE(bool(url));
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, 7000);
  EXPECT_EQ(url->str(), "redis://[::1]:7000/0");
}

TEST(RedisURLTest, Invalid) {
  auto error = [](StringRef text) {
    Expected<RedisURL> url = parseRedisURL(text);
    EXPECT_FALSE(bool(url)) << text.str();
    return url ? std::string() : toString(url.takeError());
  };
  EXPECT_NE(error("").find("the scheme must be redis://"), std::string::npos);
  EXPECT_NE(error("http://h:1").find("the scheme must be redis://"),
            std::string::npos);
  EXPECT_NE(error("redis-tls://h:1").find("redis:// or rediss://"),
            std::string::npos);
  EXPECT_NE(error("redis://").find("no host"), std::string::npos);
  EXPECT_NE(error("redis://:6379").find("no host"), std::string::npos);
  EXPECT_NE(error("redis://h:").find("empty port"), std::string::npos);
  EXPECT_NE(error("redis://h:0").find("port '0'"), std::string::npos);
  EXPECT_NE(error("redis://h:65536").find("port '65536'"), std::string::npos);
  EXPECT_NE(error("redis://h:+1").find("port '+1'"), std::string::npos);
  EXPECT_NE(error("redis://h:1/-1").find("database '-1'"), std::string::npos);
  EXPECT_NE(error("redis://h:1/2147483648").find("database"),
            std::string::npos);
  EXPECT_NE(error("redis://h:1/0/1").find("database"), std::string::npos);
  EXPECT_NE(error("redis://u:p%4@h:1").find("credentials"), std::string::npos);
  EXPECT_NE(error("redis://a b:p@h:1").find("user name"), std::string::npos);
  EXPECT_NE(error("redis://h:1?db=2").find("query"), std::string::npos);
  EXPECT_NE(error("redis://::1:6379").find("brackets"), std::string::npos);
  EXPECT_NE(error("redis://[::1").find("']'"), std::string::npos);
  EXPECT_NE(error("redis://[zz]:1").find("not an IPv6"), std::string::npos);
  EXPECT_NE(error("redis://h st:1").find("not a host"), std::string::npos);
  EXPECT_NE(error(std::string("redis://h\0x:1", 13)).find("not a host"),
            std::string::npos);
}

/// A server on a free localhost port that answers every connection's first
/// bytes with `reply` (then keeps the connection open until destroyed).
class FakeServer {
public:
  explicit FakeServer(std::string reply, bool answer = true)
      : reply(std::move(reply)), answer(answer) {
    fd = test::listenOnLoopback(8, port);
    thread = std::thread([this] { serve(); });
  }
  ~FakeServer() {
    stop = true;
    ::shutdown(fd, SHUT_RDWR);
    thread.join();
    ::close(fd);
  }
  RedisURL url() const {
    RedisURL url;
    url.host = "127.0.0.1";
    url.port = port;
    return url;
  }
  std::atomic<unsigned> connections{0};

private:
  void serve() {
    std::vector<int> clients;
    while (!stop) {
      pollfd pfd{fd, POLLIN, 0};
      if (::poll(&pfd, 1, 20) <= 0)
        continue;
      int client = ::accept(fd, nullptr, nullptr);
      if (client < 0)
        continue;
      ++connections;
      clients.push_back(client);
      char buffer[4096];
      pollfd cfd{client, POLLIN, 0};
      if (::poll(&cfd, 1, 2000) > 0 &&
          ::recv(client, buffer, sizeof(buffer), 0) > 0 && answer)
        (void)::send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
    }
    for (int client : clients)
      ::close(client);
  }
  std::string reply;
  bool answer;
  int fd;
  uint16_t port;
  std::atomic<bool> stop{false};
  std::thread thread;
};

RedisTimeouts shortTimeouts() {
  RedisTimeouts timeouts;
  timeouts.connect = 500ms;
  timeouts.command = 300ms;
  return timeouts;
}

/// The reply (or error text) of one GET against a server answering `bytes`.
std::string getFrom(StringRef bytes, uint64_t maxBytes = 1024) {
  FakeServer server(bytes.str());
  Expected<std::unique_ptr<RedisConnection>> connection =
      RedisConnection::connect(server.url(), shortTimeouts());
  if (!connection)
    return "connect: " + toString(connection.takeError());
  Expected<RedisReply> reply =
      (*connection)->command({"GET", "k"}, RedisString | RedisNil, maxBytes);
  if (!reply) {
    EXPECT_FALSE((*connection)->isUsable());
    std::string text;
    handleAllErrors(
        reply.takeError(),
        [&](const RedisReplyTooLargeError &e) {
          text = "too large " + std::to_string(e.size);
        },
        [&](const ErrorInfoBase &e) { text = "error: " + e.message(); });
    return text;
  }
  EXPECT_TRUE((*connection)->isUsable());
  switch (reply->kind) {
  case RedisReply::Kind::Nil:
    return "nil";
  case RedisReply::Kind::String:
    return "string " + reply->str;
  case RedisReply::Kind::Error:
    return "server error " + reply->str;
  default:
    return "other";
  }
}

TEST(RedisConnectionTest, Replies) {
  EXPECT_EQ(getFrom("$5\r\nhello\r\n"), "string hello");
  EXPECT_EQ(getFrom("$-1\r\n"), "nil");
  EXPECT_EQ(getFrom("$0\r\n\r\n"), "string ");
  EXPECT_EQ(getFrom("-ERR nope\r\n"), "server error ERR nope");
}

TEST(RedisConnectionTest, UntrustedReplies) {
  // Announced sizes over the bound are never read.
  EXPECT_EQ(getFrom("$1025\r\n"), "too large 1025");
  EXPECT_EQ(getFrom("$99999999999999999999\r\n").substr(0, 5), "error");
  EXPECT_EQ(getFrom("$1000000000000\r\n"), "too large 1000000000000");
  // Types the command cannot answer with, malformed lengths, bytes after
  // the reply, endless lines, a server that hangs up mid-reply.
  for (StringRef bytes :
       {StringRef("*2\r\n$1\r\na\r\n$1\r\nb\r\n"), StringRef(":1\r\n"),
        StringRef("+OK\r\n"), StringRef("$1x\r\nab\r\n"), StringRef("$-2\r\n"),
        StringRef("$2\r\nab\r\n+OK\r\n"), StringRef("\x00\xff\x01garbage", 10),
        StringRef("$123456789012345678901234567890123\r\n")}) {
    std::string result = getFrom(bytes);
    EXPECT_EQ(result.substr(0, 6), "error:") << bytes.str() << " " << result;
  }
  std::string endless = "-" + std::string(10000, 'E');
  EXPECT_NE(getFrom(endless).find("reply line too long"), std::string::npos);
  EXPECT_NE(getFrom("$10\r\nabc").find("timed out"), std::string::npos);
}

TEST(RedisConnectionTest, UnexpectedTypeIsNamedInHex) {
  // An HTTP server: 'H' once printed as 0x0x48.
  std::string result = getFrom("HTTP/1.1 400 Bad Request\r\n\r\n");
  EXPECT_NE(result.find("unexpected reply type 0x48"), std::string::npos)
      << result;
  EXPECT_EQ(result.find("0x0x"), std::string::npos) << result;
}

TEST(RedisConnectionTest, SilentServerTimesOut) {
  FakeServer server("", /*answer=*/false);
  Expected<std::unique_ptr<RedisConnection>> connection =
      RedisConnection::connect(server.url(), shortTimeouts());
  ASSERT_TRUE(bool(connection));
  auto start = std::chrono::steady_clock::now();
  Expected<RedisReply> reply =
      (*connection)->command({"GET", "k"}, RedisString | RedisNil);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(bool(reply));
  EXPECT_NE(toString(reply.takeError()).find("timed out"), std::string::npos);
  EXPECT_GE(took, 250ms);
  // Timed out instead of waiting for ever; generous for a loaded machine.
  EXPECT_LT(took, 30s);
}

TEST(RedisConnectionTest, Refused) {
  // A port that was free a moment ago.
  uint16_t port;
  {
    FakeServer server("");
    port = server.url().port;
  }
  RedisURL url;
  url.host = "127.0.0.1";
  url.port = port;
  Expected<std::unique_ptr<RedisConnection>> connection =
      RedisConnection::connect(url, shortTimeouts());
  ASSERT_FALSE(bool(connection));
  EXPECT_NE(toString(connection.takeError()).find("cannot connect"),
            std::string::npos);
}

TEST(SharedCacheTierTest, FailingServerWarnsOnceAndIsLeftAlone) {
  FakeServer server("garbage\r\n");
  SharedCacheConfig config;
  config.url = server.url();
  config.timeouts = shortTimeouts();
  config.maxValueBytes = 1000;
  auto tier = std::make_shared<SharedCacheTier>(config);
  EXPECT_FALSE(tier->getValue("k").has_value());
  EXPECT_FALSE(tier->isAvailable());
  // Left alone: no new connection, no new warning.
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(tier->getValue("k").has_value());
    tier->setValue("k", "v");
  }
  EXPECT_EQ(server.connections.load(), 1u);
  std::vector<std::string> warnings = tier->takeWarnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("using the local cache only"), std::string::npos);
  EXPECT_TRUE(tier->takeWarnings().empty());
}

TEST(SharedCacheTierTest, OversizedValueIsAMissNotAFailure) {
  FakeServer server("$5000\r\n");
  SharedCacheConfig config;
  config.url = server.url();
  config.timeouts = shortTimeouts();
  config.maxValueBytes = 1000;
  auto tier = std::make_shared<SharedCacheTier>(config);
  EXPECT_FALSE(tier->getValue("k").has_value());
  EXPECT_TRUE(tier->isAvailable());
  EXPECT_TRUE(tier->takeWarnings().empty());
}

TEST(SharedCacheTest, ResolveFromOptionAndEnvironment) {
  ::setenv("XPU_CODEGEN_CACHE_URL", "redis://h:1/2", 1);
  Expected<std::optional<SharedCacheConfig>> config = resolveSharedCache("");
  ASSERT_TRUE(bool(config));
  ASSERT_TRUE(config->has_value());
  EXPECT_EQ((*config)->url.str(), "redis://h:1/2");
  config = resolveSharedCache("none");
  ASSERT_TRUE(bool(config));
  EXPECT_FALSE(config->has_value());
  config = resolveSharedCache("redis://other:3");
  ASSERT_TRUE(bool(config));
  EXPECT_EQ((*config)->url.str(), "redis://other:3/0");
  ::setenv("XPU_CODEGEN_CACHE_URL", "nonsense", 1);
  config = resolveSharedCache("");
  ASSERT_FALSE(bool(config));
  EXPECT_NE(toString(config.takeError()).find("XPU_CODEGEN_CACHE_URL"),
            std::string::npos);
  ::setenv("XPU_CODEGEN_CACHE_URL", "redis://h", 1);
  ::setenv("XPU_CODEGEN_CACHE_LOCK_MS", "0", 1);
  config = resolveSharedCache("");
  ASSERT_TRUE(bool(config));
  EXPECT_EQ((*config)->lockTime.count(), 0);
  ::setenv("XPU_CODEGEN_CACHE_CONNECT_TIMEOUT_MS", "0", 1);
  config = resolveSharedCache("");
  EXPECT_FALSE(bool(config));
  consumeError(config.takeError());
  ::unsetenv("XPU_CODEGEN_CACHE_URL");
  ::unsetenv("XPU_CODEGEN_CACHE_LOCK_MS");
  ::unsetenv("XPU_CODEGEN_CACHE_CONNECT_TIMEOUT_MS");
  config = resolveSharedCache("");
  ASSERT_TRUE(bool(config));
  EXPECT_FALSE(config->has_value());
}

class SharedIdentityTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("xpu-shared-id", dir));
    library = (dir + "/libcompiler.so").str();
    write(library, "compiler v1");
  }
  void TearDown() override { sys::fs::remove_directories(dir); }
  static void write(const std::string &path, StringRef text) {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    os << text;
  }
  SmallString<128> dir;
  std::string library;
};

TEST_F(SharedIdentityTest, VerifiedByContents) {
  std::string error;
  std::string record =
      encodeSharedIdentity("ctx", "ocloc 1.2 (abc)", {library}, error);
  ASSERT_FALSE(record.empty()) << error;
  std::vector<std::string> files;
  EXPECT_EQ(verifySharedIdentity(record, "ctx", files),
            std::optional<std::string>("ocloc 1.2 (abc)"));
  EXPECT_EQ(files, std::vector<std::string>{library});
  // Another context, another size, other contents of the same size.
  EXPECT_FALSE(verifySharedIdentity(record, "other", files));
  write(library, "compiler v22");
  EXPECT_FALSE(verifySharedIdentity(record, "ctx", files));
  write(library, "compiler v2");
  EXPECT_FALSE(verifySharedIdentity(record, "ctx", files));
  // Every truncation of a record is refused.
  write(library, "compiler v1");
  for (size_t size = 0; size < record.size(); ++size)
    EXPECT_FALSE(
        verifySharedIdentity(StringRef(record).take_front(size), "ctx", files));
}

TEST_F(SharedIdentityTest, NamedFilesAreUntrusted) {
  // A record naming a FIFO, a symlink or a relative path never blocks and
  // never verifies.
  std::string fifo = (dir + "/fifo").str();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string link = (dir + "/link").str();
  ASSERT_FALSE(sys::fs::create_link(library, link));
  std::string error;
  std::string record = encodeSharedIdentity("ctx", "id", {library}, error);
  ASSERT_FALSE(record.empty());
  for (const std::string &path :
       {fifo, link, std::string("relative.so"), std::string("/dev/zero")}) {
    // The path field is a little-endian u32 length and the bytes.
    std::string forged = record;
    size_t at = forged.find(library);
    ASSERT_NE(at, std::string::npos);
    char size[4];
    support::endian::write32le(size, uint32_t(path.size()));
    forged.replace(at - 4, 4 + library.size(), std::string(size, 4) + path);
    std::vector<std::string> files;
    EXPECT_FALSE(verifySharedIdentity(forged, "ctx", files)) << path;
  }
  // The same file twice (a record that would make the client read one big
  // library over and over) is refused.
  std::string twice =
      encodeSharedIdentity("ctx", "id", {library, library}, error);
  ASSERT_FALSE(twice.empty());
  std::vector<std::string> files;
  EXPECT_FALSE(verifySharedIdentity(twice, "ctx", files));
  // A record cannot be made for files that are not readable regular files.
  EXPECT_TRUE(encodeSharedIdentity("ctx", "id", {fifo}, error).empty());
  EXPECT_TRUE(encodeSharedIdentity("ctx", "id", {}, error).empty());
}

} // namespace
