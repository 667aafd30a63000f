//===- SharedCacheSecurityTest.cpp - Credentials, signatures, local rule --===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What keeps the caches unpoisoned without a server: URLs with credentials
// never print the password, signed values only verify for their key and a
// trusted signer, secret files follow the ssh rule, and the local tier
// refuses what another user can write. The real redis-server with ACL users
// and TLS is in test/Transforms/NativeCodegen/SharedCache/team-*.test.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Cache/EntrySigning.h"
#include "XPUCodegen/Compiler/Cache/RedisClient.h"
#include "XPUCodegen/Compiler/Cache/SharedCacheConfig.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "LoopbackListener.h"

#include "gtest/gtest.h"

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;
using namespace std::chrono_literals;

namespace {

class TempDir {
public:
  TempDir() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("xpu-security", path));
    ::chmod(path.c_str(), 0700);
  }
  ~TempDir() { sys::fs::remove_directories(path); }
  std::string file(StringRef name) const {
    SmallString<256> result(path);
    sys::path::append(result, name);
    return std::string(result);
  }
  SmallString<256> path;
};

/// A fresh Ed25519 key pair as PEM files `<name>.pem` (private, 0600) and
/// `<name>.pub`.
void writeKeyPair(const TempDir &dir, StringRef name) {
  EVP_PKEY *key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  ASSERT_NE(key, nullptr);
  scope_exit freeKey([&] { EVP_PKEY_free(key); });
  std::string priv = dir.file((name + ".pem").str());
  FILE *f = std::fopen(priv.c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  ::chmod(priv.c_str(), 0600);
  f = std::fopen(dir.file((name + ".pub").str()).c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_PUBKEY(f, key);
  std::fclose(f);
}

TEST(RedisURLCredentialsTest, UserPasswordAndTLS) {
  Expected<RedisURL> url =
      parseRedisURL("rediss://writer:s%40cret%2F1@cache.example.org:6380/2");
  ASSERT_TRUE(bool(url)) << toString(url.takeError());
  EXPECT_TRUE(url->tls);
  EXPECT_EQ(url->user, "writer");
  EXPECT_EQ(url->password, "s@cret/1");
  EXPECT_EQ(url->host, "cache.example.org");
  EXPECT_EQ(url->db, 2u);
  // The canonical form names the user, never the password.
  EXPECT_EQ(url->str(), "rediss://writer@cache.example.org:6380/2");

  url = parseRedisURL("redis://reader@10.0.0.7");
  ASSERT_TRUE(bool(url));
  EXPECT_EQ(url->user, "reader");
  EXPECT_TRUE(url->password.empty());
  url = parseRedisURL("redis://:onlypassword@h");
  ASSERT_TRUE(bool(url));
  EXPECT_TRUE(url->user.empty());
  EXPECT_EQ(url->password, "onlypassword");
}

TEST(RedisURLCredentialsTest, ErrorsNeverShowThePassword) {
  for (StringRef text : {"redis://u:hunter2@h:0", "redis://u:hunter2@h?x=1",
                         "redis://u:hunter2%zz@h", "redis://u:hunter2@[::1"}) {
    Expected<RedisURL> url = parseRedisURL(text);
    ASSERT_FALSE(bool(url)) << text.str();
    std::string message = toString(url.takeError());
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
    EXPECT_NE(message.find("****"), std::string::npos) << message;
  }
}

TEST(RedisURLCredentialsTest, PrintedOptionsLeaveThePasswordOut) {
  // What a printed pipeline shows for cache-url: the user stays, so the
  // pipeline run again takes the password from the file or environment.
  EXPECT_EQ(removeURLPassword("rediss://writer:hunter2@cache:6380/2"),
            "rediss://writer@cache:6380/2");
  EXPECT_EQ(removeURLPassword("redis://u:p@ss/w0rd@h:1"), "redis://u@h:1");
  EXPECT_EQ(removeURLPassword("redis://:hunter2@h"), "redis://h");
  EXPECT_EQ(removeURLPassword("redis://reader@h"), "redis://reader@h");
  EXPECT_EQ(removeURLPassword("redis://h:6379/0"), "redis://h:6379/0");
  // Invalid URLs too: no scheme, or a password that ends nowhere.
  EXPECT_EQ(removeURLPassword("u:hunter2@h"), "u@h");
  EXPECT_EQ(removeURLPassword(""), "");
  Expected<RedisURL> url = parseRedisURL("u:hunter2@h");
  ASSERT_FALSE(bool(url));
  EXPECT_EQ(toString(url.takeError()).find("hunter2"), std::string::npos);
}

TEST(SharedCacheSecurityTest, TrustListSplitsOnCommas) {
  EXPECT_EQ(splitKeyFileList(" a.pub, b.pub ,,c.pub"),
            (std::vector<std::string>{"a.pub", "b.pub", "c.pub"}));
  EXPECT_TRUE(splitKeyFileList(" , ").empty());
}

TEST(SharedCacheSecurityTest, PasswordFromFileOrEnvironmentNotInId) {
  TempDir dir;
  std::string file = dir.file("password");
  {
    FILE *f = std::fopen(file.c_str(), "w");
    std::fputs("from-file\n", f);
    std::fclose(f);
  }
  ::chmod(file.c_str(), 0600);
  SharedCacheSecurity options;
  options.passwordFile = file;
  Expected<std::optional<SharedCacheConfig>> config =
      resolveSharedCache("redis://writer@127.0.0.1:1", options);
  ASSERT_TRUE(bool(config)) << toString(config.takeError());
  EXPECT_EQ((*config)->url.password, "from-file");
  EXPECT_EQ(getSharedCacheConfigId(**config).find("from-file"),
            std::string::npos);

  // A password file others can read is refused, naming the file only.
  ::chmod(file.c_str(), 0640);
  config = resolveSharedCache("redis://writer@127.0.0.1:1", options);
  ASSERT_FALSE(bool(config));
  std::string message = toString(config.takeError());
  EXPECT_NE(message.find("accessible by other users"), std::string::npos);
  EXPECT_EQ(message.find("from-file"), std::string::npos);

  ::setenv("XPU_CODEGEN_CACHE_PASSWORD", "from-env", 1);
  scope_exit unset([] { ::unsetenv("XPU_CODEGEN_CACHE_PASSWORD"); });
  config = resolveSharedCache("redis://writer@127.0.0.1:1");
  ASSERT_TRUE(bool(config)) << toString(config.takeError());
  EXPECT_EQ((*config)->url.password, "from-env");
  // The URL's own password wins.
  config = resolveSharedCache("redis://writer:in-url@127.0.0.1:1");
  ASSERT_TRUE(bool(config));
  EXPECT_EQ((*config)->url.password, "in-url");
}

TEST(SharedCacheSecurityTest, OptionsOverTheEnvironment) {
  TempDir dir;
  writeKeyPair(dir, "team");
  ::setenv("XPU_CODEGEN_CACHE_SIGN_KEY", dir.file("missing.pem").c_str(), 1);
  scope_exit unset([] { ::unsetenv("XPU_CODEGEN_CACHE_SIGN_KEY"); });
  // The variable's file is missing: an error naming the variable.
  auto cache = CompileCache::open(dir.file("cache"), "redis://127.0.0.1:1");
  ASSERT_FALSE(bool(cache));
  EXPECT_NE(toString(cache.takeError()).find("XPU_CODEGEN_CACHE_SIGN_KEY"),
            std::string::npos);
  // An option wins over the variable; its errors name the option.
  SharedCacheSecurity security;
  security.signKeyFile = dir.file("team.pem");
  security.trustFiles = {dir.file("team.pub")};
  cache =
      CompileCache::open(dir.file("cache"), "redis://127.0.0.1:1", security);
  ASSERT_TRUE(bool(cache)) << toString(cache.takeError());
  const SharedCacheConfig &config = (*cache)->getSharedTier()->getConfig();
  ASSERT_TRUE(config.signer && config.trust);
  EXPECT_TRUE(config.trust->trusts(config.signer->getPublicKey()));
  security.trustFiles = {dir.file("team.pem.missing")};
  cache =
      CompileCache::open(dir.file("cache"), "redis://127.0.0.1:1", security);
  ASSERT_FALSE(bool(cache));
  EXPECT_NE(toString(cache.takeError()).find("invalid cache-trust"),
            std::string::npos);
}

TEST(EntrySigningTest, SignedForItsKeyByATrustedSigner) {
  TempDir dir;
  writeKeyPair(dir, "team");
  writeKeyPair(dir, "attacker");
  auto team = EntrySigner::load(dir.file("team.pem"));
  ASSERT_TRUE(bool(team)) << toString(team.takeError());
  auto attacker = EntrySigner::load(dir.file("attacker.pem"));
  ASSERT_TRUE(bool(attacker));
  auto trust = EntryTrust::load({dir.file("team.pub")});
  ASSERT_TRUE(bool(trust)) << toString(trust.takeError());

  std::string sealed = (*team)->seal("entry:a", "binary A");
  OpenedValue opened = openSealedValue(trust->get(), "entry:a", sealed);
  EXPECT_EQ(opened.status, SealStatus::Accepted);
  EXPECT_EQ(opened.value, "binary A");
  EXPECT_EQ(opened.signer, getKeyFingerprint((*team)->getPublicKey()));

  // Copied under another key: the signature covers the key.
  EXPECT_EQ(openSealedValue(trust->get(), "entry:b", sealed).status,
            SealStatus::BadSignature);
  // Altered contents.
  std::string altered = sealed;
  altered.back() ^= 1;
  EXPECT_EQ(openSealedValue(trust->get(), "entry:a", altered).status,
            SealStatus::BadSignature);
  // Another key, and no signature.
  OpenedValue foreign = openSealedValue(
      trust->get(), "entry:a", (*attacker)->seal("entry:a", "binary X"));
  EXPECT_EQ(foreign.status, SealStatus::UntrustedKey);
  EXPECT_EQ(foreign.signer, getKeyFingerprint((*attacker)->getPublicKey()));
  EXPECT_EQ(openSealedValue(trust->get(), "entry:a", "binary X").status,
            SealStatus::Unsigned);
  // The attacker's key substituted into the team's envelope.
  std::string spliced = sealed;
  spliced.replace(8, 32, (*attacker)->getPublicKey().str());
  EXPECT_NE(openSealedValue(trust->get(), "entry:a", spliced).status,
            SealStatus::Accepted);

  // Without a trust list: today's behaviour, the envelope removed.
  opened = openSealedValue(nullptr, "entry:a", sealed);
  EXPECT_EQ(opened.status, SealStatus::Accepted);
  EXPECT_EQ(opened.value, "binary A");
  EXPECT_EQ(openSealedValue(nullptr, "entry:a", "plain").value, "plain");
}

TEST(EntrySigningTest, KeyFilesFollowTheSshRule) {
  TempDir dir;
  writeKeyPair(dir, "team");
  ::chmod(dir.file("team.pem").c_str(), 0644);
  auto signer = EntrySigner::load(dir.file("team.pem"));
  ASSERT_FALSE(bool(signer));
  EXPECT_NE(toString(signer.takeError()).find("chmod 600"), std::string::npos);
  // A public key is not a private key, and vice versa.
  ::chmod(dir.file("team.pub").c_str(), 0600);
  EXPECT_FALSE(bool(EntrySigner::load(dir.file("team.pub"))));
  auto trust = EntryTrust::load({dir.file("missing.pub")});
  EXPECT_FALSE(bool(trust));
  consumeError(trust.takeError());
}

/// The contents of `path`.
static std::string readText(const std::string &path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

static void writeText(const std::string &path, StringRef text, unsigned mode) {
  FILE *f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  ::chmod(path.c_str(), mode);
}

TEST(EntrySigningTest, KeyFilesAsTheyComeFromOtherTools) {
  TempDir dir;
  writeKeyPair(dir, "alice");
  writeKeyPair(dir, "bob");
  // One trust file of two keys, other PEM blocks around them.
  writeText(
      dir.file("team.pub"),
      "# the team's keys\n" + readText(dir.file("alice.pub")) +
          "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" +
          readText(dir.file("bob.pub")),
      0644);
  auto trust = EntryTrust::load({dir.file("team.pub")});
  ASSERT_TRUE(bool(trust)) << toString(trust.takeError());
  for (StringRef name : {"alice", "bob"}) {
    auto signer = EntrySigner::load(dir.file((name + ".pem").str()));
    ASSERT_TRUE(bool(signer)) << toString(signer.takeError());
    EXPECT_EQ(openSealedValue(trust->get(), "entry:a",
                              (*signer)->seal("entry:a", "binary"))
                  .status,
              SealStatus::Accepted)
        << name.str();
  }

  // A key of another algorithm, in either role, says what it is not.
  EVP_PKEY *ed448 = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED448");
  ASSERT_NE(ed448, nullptr);
  scope_exit freeKey([&] { EVP_PKEY_free(ed448); });
  FILE *f = std::fopen(dir.file("ed448.pub").c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_PUBKEY(f, ed448);
  std::fclose(f);
  trust = EntryTrust::load({dir.file("ed448.pub")});
  ASSERT_FALSE(bool(trust));
  EXPECT_NE(toString(trust.takeError()).find("is not an Ed25519 key"),
            std::string::npos);
  f = std::fopen(dir.file("ed448.pem").c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_PrivateKey(f, ed448, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  ::chmod(dir.file("ed448.pem").c_str(), 0600);
  auto signer = EntrySigner::load(dir.file("ed448.pem"));
  ASSERT_FALSE(bool(signer));
  EXPECT_NE(toString(signer.takeError()).find("is not an Ed25519 key"),
            std::string::npos);

  // An encrypted private key cannot be used without prompting: refused.
  EVP_PKEY *key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  ASSERT_NE(key, nullptr);
  scope_exit freeEd25519([&] { EVP_PKEY_free(key); });
  f = std::fopen(dir.file("locked.pem").c_str(), "w");
  ASSERT_NE(f, nullptr);
  char passphrase[] = "secret";
  PEM_write_PKCS8PrivateKey(f, key, EVP_aes_256_cbc(), passphrase,
                            sizeof(passphrase) - 1, nullptr, nullptr);
  std::fclose(f);
  ::chmod(dir.file("locked.pem").c_str(), 0600);
  signer = EntrySigner::load(dir.file("locked.pem"));
  ASSERT_FALSE(bool(signer));
  EXPECT_NE(toString(signer.takeError()).find("unencrypted PEM private key"),
            std::string::npos);
}

TEST(LocalCacheSafetyTest, ForeignWritableDirectoryOrEntryIsRefusedOnce) {
  TempDir dir;
  std::string root = dir.file("cache");
  CompileCache cache(root);
  ASSERT_FALSE(bool(cache.store("abcd", "payload")));
  // New entries and directories: never writable by others.
  struct stat st;
  ASSERT_EQ(::stat(cache.getEntryPath("abcd").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & (S_IWGRP | S_IWOTH), 0u);
  ASSERT_EQ(::stat((root + "/v2").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & (S_IWGRP | S_IWOTH), 0u);
  EXPECT_EQ(cache.lookup("abcd"), "payload");

  // An entry others can write is a miss, with one warning.
  ::chmod(cache.getEntryPath("abcd").c_str(), 0666);
  EXPECT_EQ(cache.lookup("abcd"), std::nullopt);
  EXPECT_EQ(cache.lookup("abcd"), std::nullopt);
  std::vector<std::string> warnings = cache.takeWarnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("is writable by other users (mode 666)"),
            std::string::npos)
      << warnings[0];
  // A store replaces it with a safe entry.
  ASSERT_FALSE(bool(cache.store("abcd", "payload")));
  EXPECT_EQ(cache.lookup("abcd"), "payload");

  // A directory others can write: the local tier is skipped, no new
  // warning (one per directory and process).
  ::chmod(root.c_str(), 0777);
  EXPECT_EQ(cache.lookup("abcd"), std::nullopt);
  ASSERT_FALSE(bool(cache.store("beef", "other")));
  EXPECT_FALSE(sys::fs::exists(cache.getEntryPath("beef")));
  EXPECT_TRUE(cache.takeWarnings().empty());

  // Another directory warns on its own.
  std::string other = dir.file("other");
  ASSERT_EQ(::mkdir(other.c_str(), 0770), 0);
  ::chmod(other.c_str(), 0770);
  CompileCache second(other);
  EXPECT_EQ(second.lookup("abcd"), std::nullopt);
  warnings = second.takeWarnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("cache directory"), std::string::npos);
}

/// rediss:// to a server that never answers the handshake (the kernel
/// accepts the connection, nobody reads it), or that dies in it (closes
/// after the ClientHello): an error by the connect deadline, never a hang.
TEST(RedisTLSTest, HandshakeKeepsTheDeadline) {
  uint16_t port;
  int listener = test::listenOnLoopback(4, port);
  scope_exit closeListener([&] { ::close(listener); });
  RedisURL url;
  url.host = "127.0.0.1";
  url.port = port;
  url.tls = true;
  RedisTimeouts timeouts;
  timeouts.connect = 500ms;
  auto start = std::chrono::steady_clock::now();
  auto connection = RedisConnection::connect(url, timeouts);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(bool(connection));
  std::string message = toString(connection.takeError());
  EXPECT_NE(message.find("timed out (during the TLS handshake)"),
            std::string::npos)
      << message;
  EXPECT_GE(took, 400ms);
  EXPECT_LT(took, 30s); // Generous for a loaded machine.

  // Killed mid-handshake: the server reads the ClientHello and goes away.
  int dying = test::listenOnLoopback(4, port);
  scope_exit closeDying([&] { ::close(dying); });
  url.port = port;
  std::thread server([&] {
    int fd = ::accept(dying, nullptr, nullptr);
    if (fd < 0)
      return;
    char buffer[512];
    (void)::read(fd, buffer, sizeof(buffer));
    ::close(fd);
  });
  timeouts.connect = 20s;
  start = std::chrono::steady_clock::now();
  connection = RedisConnection::connect(url, timeouts);
  took = std::chrono::steady_clock::now() - start;
  server.join();
  ASSERT_FALSE(bool(connection));
  message = toString(connection.takeError());
  EXPECT_NE(message.find("during the TLS handshake"), std::string::npos)
      << message;
  EXPECT_LT(took, 15s);
}

} // namespace
