//===- SharedCacheBudgetTest.cpp - A slow shared-cache server is bounded --===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The budget's ledger on its own (synthetic times), then CompileCache with a
// shared tier against an in-process Redis stand-in that answers every
// command correctly but late: a slow server costs a bounded time and one
// warning, a fast one is never dropped, one slow answer is tolerated.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/SharedCacheBudget.h"
#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Cache/SharedCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"

#include "LoopbackListener.h"

#include "gtest/gtest.h"

#include <atomic>
#include <functional>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

TEST(SharedCacheBudgetTest, SpentOnceThenNothingLeft) {
  SharedCacheBudget budget(1000ms);
  Clock::time_point t0 = Clock::now();
  EXPECT_EQ(budget.begin(t0), std::optional(1000ms));
  EXPECT_FALSE(budget.end(t0, t0 + 400ms));
  EXPECT_EQ(budget.begin(t0 + 400ms), std::optional(600ms));
  EXPECT_TRUE(budget.end(t0 + 400ms, t0 + 1000ms));
  EXPECT_TRUE(budget.isSpent());
  EXPECT_FALSE(budget.begin(t0 + 1000ms));
  // Credits after the fact do not bring a dropped tier back.
  budget.creditHit(10s);
  EXPECT_FALSE(budget.begin(t0 + 1000ms));
  EXPECT_NE(budget.describe().find("its 2 commands took 1.00 s"),
            std::string::npos)
      << budget.describe();
}

TEST(SharedCacheBudgetTest, EarnedTimeExtendsIt) {
  SharedCacheBudget budget(0ms);
  Clock::time_point t0 = Clock::now();
  EXPECT_FALSE(budget.begin(t0));
  EXPECT_FALSE(budget.isSpent());
  budget.creditHit(2s);
  budget.creditStoredBuild(4s);
  EXPECT_EQ(budget.begin(t0), std::optional(3000ms));
  EXPECT_FALSE(budget.end(t0, t0 + 2999ms));
}

TEST(SharedCacheBudgetTest, CommandsInFlightCountFromTheirStart) {
  // Parallel commands share what is left: however they start, none may
  // run past the moment the budget is gone.
  SharedCacheBudget budget(1000ms);
  Clock::time_point t0 = Clock::now();
  EXPECT_EQ(budget.begin(t0), std::optional(1000ms));
  EXPECT_EQ(budget.begin(t0 + 500ms), std::optional(500ms));
  EXPECT_FALSE(budget.begin(t0 + 750ms));
  EXPECT_FALSE(budget.end(t0 + 500ms, t0 + 600ms));
  EXPECT_TRUE(budget.end(t0, t0 + 1000ms));
}

/// A Redis stand-in on a free localhost port: GET, SET (NX), EXISTS, EVAL
/// (the compare-and-delete unlock) on an in-memory store, every command
/// answered correctly after `delay(command, index)` (index counts commands
/// over all connections, from 0).
class SlowRedis {
public:
  using Delay = std::function<Clock::duration(StringRef, unsigned)>;
  explicit SlowRedis(Delay delay) : delay(std::move(delay)) {
    fd = test::listenOnLoopback(64, port);
    acceptor = std::thread([this] { acceptAll(); });
  }
  ~SlowRedis() {
    stop = true;
    acceptor.join();
    // No new clients now; those being served take `mutex` to answer.
    for (int client : clients)
      ::shutdown(client, SHUT_RDWR);
    for (std::thread &thread : threads)
      thread.join();
    for (int client : clients)
      ::close(client);
    ::close(fd);
  }
  RedisURL url() const {
    RedisURL url;
    url.host = "127.0.0.1";
    url.port = port;
    return url;
  }
  std::atomic<unsigned> commands{0};

private:
  void acceptAll() {
    while (!stop) {
      pollfd pfd{fd, POLLIN, 0};
      if (::poll(&pfd, 1, 20) <= 0)
        continue;
      int client = ::accept(fd, nullptr, nullptr);
      if (client < 0)
        continue;
      std::lock_guard<std::mutex> lock(mutex);
      clients.push_back(client);
      threads.emplace_back([this, client] { serve(client); });
    }
  }

  /// One whole RESP array command off the front of `buffer`, if there.
  static std::optional<std::vector<std::string>>
  takeCommand(std::string &buffer) {
    StringRef rest(buffer);
    auto line = [&]() -> std::optional<int64_t> {
      size_t eol = rest.find("\r\n");
      int64_t value;
      if (eol == StringRef::npos || rest.slice(1, eol).getAsInteger(10, value))
        return std::nullopt;
      rest = rest.drop_front(eol + 2);
      return value;
    };
    std::optional<int64_t> count = line();
    std::vector<std::string> args;
    for (int64_t i = 0; count && i < *count; ++i) {
      std::optional<int64_t> size = line();
      if (!size || rest.size() < size_t(*size) + 2)
        return std::nullopt;
      args.push_back(rest.take_front(*size).str());
      rest = rest.drop_front(*size + 2);
    }
    if (!count)
      return std::nullopt;
    buffer.erase(0, buffer.size() - rest.size());
    return args;
  }

  std::string answer(const std::vector<std::string> &args) {
    std::lock_guard<std::mutex> lock(mutex);
    auto bulk = [](const std::string &value) {
      return "$" + std::to_string(value.size()) + "\r\n" + value + "\r\n";
    };
    StringRef command = args[0];
    if (command == "GET") {
      auto it = store.find(args[1]);
      return it == store.end() ? "$-1\r\n" : bulk(it->second);
    }
    if (command == "SET") {
      if (args.size() > 3 && args[3] == "NX" && store.count(args[1]))
        return "$-1\r\n";
      store[args[1]] = args[2];
      return "+OK\r\n";
    }
    if (command == "EXISTS")
      return store.count(args[1]) ? ":1\r\n" : ":0\r\n";
    if (command == "EVAL") {
      auto it = store.find(args[3]);
      if (it == store.end() || it->second != args[4])
        return ":0\r\n";
      store.erase(it);
      return ":1\r\n";
    }
    return "+OK\r\n";
  }

  void serve(int client) {
    std::string buffer;
    char chunk[65536];
    for (;;) {
      ssize_t got = ::recv(client, chunk, sizeof(chunk), 0);
      if (got <= 0)
        return;
      buffer.append(chunk, size_t(got));
      while (std::optional<std::vector<std::string>> args =
                 takeCommand(buffer)) {
        if (args->empty())
          return;
        Clock::time_point until =
            Clock::now() + delay(args->front(), commands++);
        while (!stop && Clock::now() < until)
          std::this_thread::sleep_for(5ms);
        std::string reply = answer(*args);
        if (::send(client, reply.data(), reply.size(), MSG_NOSIGNAL) < 0)
          return;
      }
    }
  }

  Delay delay;
  int fd;
  uint16_t port;
  std::atomic<bool> stop{false};
  std::thread acceptor;
  std::mutex mutex;
  std::vector<int> clients;
  std::vector<std::thread> threads;
  StringMap<std::string> store;
};

class SlowServerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("xpu-slow-redis", dir));
  }
  void TearDown() override { sys::fs::remove_directories(dir); }

  /// A cache in a new directory with a shared tier of its own on `server`
  /// (the default 1 s allowance unless `allowance` is given, and the default
  /// 5 s command deadline).
  CompileCache
  openCache(const SlowRedis &server,
            std::optional<std::chrono::milliseconds> allowance = std::nullopt) {
    SharedCacheConfig config;
    config.url = server.url();
    if (allowance)
      config.budgetAllowance = *allowance;
    SmallString<128> sub(dir);
    sub += "/" + std::to_string(caches++);
    return CompileCache(sub, std::make_shared<SharedCacheTier>(config));
  }
  static std::string key(unsigned i) { return "abcd" + std::to_string(i); }
  static std::string payload(unsigned i) {
    return "payload " + std::to_string(i);
  }

  SmallString<128> dir;
  unsigned caches = 0;
};

TEST_F(SlowServerTest, SlowServerCostsABoundedTimeAndOneWarning) {
  // Every command answered correctly, 3 s late (under the 5 s deadline), to
  // 8 threads at once: without a budget each thread waits 3 s per command.
  SlowRedis server([](StringRef, unsigned) { return 3s; });
  CompileCache cache = openCache(server);
  Clock::time_point start = Clock::now();
  std::vector<std::thread> threads;
  std::atomic<unsigned> wrong{0};
  for (unsigned t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (unsigned i = t * 3; i < t * 3 + 3; ++i) {
        if (cache.lookupOrClaim(key(i)))
          ++wrong;
        if (cache.store(key(i), payload(i)))
          ++wrong;
        if (cache.lookup(key(i)) != payload(i))
          ++wrong;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  auto took = Clock::now() - start;
  EXPECT_EQ(wrong.load(), 0u);
  // About the 1 s allowance; generous for a loaded machine, and well under
  // the 27 s each thread would wait without a budget.
  EXPECT_LT(took, 15s);
  EXPECT_FALSE(cache.getSharedTier()->isAvailable());
  std::vector<std::string> warnings = cache.takeWarnings();
  ASSERT_EQ(warnings.size(), 1u) << join(warnings, "\n");
  EXPECT_NE(warnings[0].find(server.url().str() + " is too slow"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("1.00 s allowance"), std::string::npos);
  EXPECT_TRUE(cache.takeWarnings().empty());
  // Dropped for good: nothing more is sent.
  unsigned sent = server.commands;
  EXPECT_FALSE(cache.lookup(key(99)));
  EXPECT_EQ(server.commands.load(), sent);
}

TEST_F(SlowServerTest, FastServerIsNeverDropped) {
  SlowRedis server([](StringRef, unsigned) { return 0s; });
  // 900 commands that each cost what this machine takes to answer on
  // localhost: a minute covers a loaded machine, and is still far less than
  // any budget that charged a command more than it took.
  CompileCache writer = openCache(server, 60s);
  for (unsigned i = 0; i < 300; ++i) {
    EXPECT_FALSE(writer.lookupOrClaim(key(i)));
    ASSERT_FALSE(bool(writer.store(key(i), payload(i))));
  }
  // Another machine (directory) finds every entry on the server.
  CompileCache reader = openCache(server, 60s);
  for (unsigned i = 0; i < 300; ++i) {
    bool fromShared = false;
    EXPECT_EQ(reader.lookup(key(i), &fromShared), payload(i));
    EXPECT_TRUE(fromShared);
  }
  EXPECT_TRUE(writer.getSharedTier()->isAvailable());
  EXPECT_TRUE(reader.getSharedTier()->isAvailable());
  EXPECT_TRUE(writer.takeWarnings().empty());
  EXPECT_TRUE(reader.takeWarnings().empty());
}

TEST_F(SlowServerTest, SlowOnceIsTolerated) {
  // One answer 400 ms late fits the allowance; one 2 s late fits what the
  // hits saved.
  SlowRedis server([](StringRef, unsigned index) -> Clock::duration {
    if (index == 0)
      return 400ms;
    return index == 10 ? 2s : 0s;
  });
  CompileCache writer = openCache(server);
  for (unsigned i = 0; i < 5; ++i)
    ASSERT_FALSE(bool(writer.store(key(i), payload(i))));
  CompileCache reader = openCache(server);
  for (unsigned i = 0; i < 5; ++i) {
    bool fromShared = false;
    EXPECT_EQ(reader.lookup(key(i), &fromShared), payload(i));
    EXPECT_TRUE(fromShared);
    reader.creditSharedHit(1000);
  }
  for (unsigned i = 5; i < 10; ++i) {
    ASSERT_FALSE(bool(reader.store(key(i), payload(i))));
    EXPECT_EQ(reader.lookup(key(i)), payload(i));
  }
  EXPECT_GE(server.commands.load(), 11u);
  EXPECT_TRUE(writer.getSharedTier()->isAvailable());
  EXPECT_TRUE(reader.getSharedTier()->isAvailable());
  EXPECT_TRUE(writer.takeWarnings().empty());
  EXPECT_TRUE(reader.takeWarnings().empty());
}

} // namespace
