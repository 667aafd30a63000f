//===- SharedCacheConfig.h - Settings of the shared tier --------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What configures the shared tier: the URL (with its credentials), the
// timeouts and budget, and its security (TLS files, signing and trusted
// keys), from option values with the $XPU_CODEGEN_CACHE_* variables as
// fallbacks. Passwords are kept only in RedisURL::password and never
// printed. Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_SHAREDCACHECONFIG_H
#define XPUCODEGEN_COMPILER_CACHE_SHAREDCACHECONFIG_H

#include "XPUCodegen/Compiler/Cache/EntrySigning.h"
#include "XPUCodegen/Compiler/Cache/RedisClient.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

/// Who may read and write the shared tier, and what a reader trusts. As
/// resolveSharedCache's input, the option values (empty: the environment's,
/// see there); as part of a SharedCacheConfig, what was resolved.
struct SharedCacheSecurity {
  /// A file holding the password (its first line), for a URL without one.
  std::string passwordFile;
  /// rediss://: the CA to verify the server with (empty: the system's
  /// store), and an optional client certificate and its key.
  RedisTLSFiles tls;
  /// Writers: the Ed25519 private key that signs every value stored.
  std::string signKeyFile;
  /// Readers: public keys; when set, only values signed by one of them are
  /// used.
  std::vector<std::string> trustFiles;
};

struct SharedCacheConfig {
  /// With the password from the URL, the password file or the environment.
  RedisURL url;
  SharedCacheSecurity security;
  /// Loaded from security's files; null when not set.
  std::shared_ptr<const EntrySigner> signer;
  std::shared_ptr<const EntryTrust> trust;
  RedisTimeouts timeouts;
  /// Single flight: on a miss, the first process to claim a key (a Redis
  /// lock of this lifetime) builds it; others wait for its entry as long
  /// and then build anyway. 0: no locks.
  std::chrono::milliseconds lockTime{10000};
  /// Values (whole entries) larger than this are neither stored nor read.
  uint64_t maxValueBytes = uint64_t(64) << 20;
  /// What the tier's commands may cost beyond what it earned (the builds
  /// its hits saved, a share of those it keeps for others).
  std::chrono::milliseconds budgetAllowance{1000};
};

/// The shared tier for the `cache-url` option value: "none" disables it
/// (std::nullopt); a non-empty value is parsed; "" falls back to
/// $XPU_CODEGEN_CACHE_URL (which may also be "none" or empty). Timeouts and
/// the lock time come from $XPU_CODEGEN_CACHE_CONNECT_TIMEOUT_MS (default
/// 1000), $XPU_CODEGEN_CACHE_TIMEOUT_MS (default 5000) and
/// $XPU_CODEGEN_CACHE_LOCK_MS (default 10000; 0 disables single flight),
/// the budget allowance from $XPU_CODEGEN_CACHE_BUDGET_MS (default 1000).
/// `security`'s empty fields fall back to $XPU_CODEGEN_CACHE_PASSWORD_FILE,
/// $XPU_CODEGEN_CACHE_TLS_CA, $XPU_CODEGEN_CACHE_TLS_CERT,
/// $XPU_CODEGEN_CACHE_TLS_KEY, $XPU_CODEGEN_CACHE_SIGN_KEY and
/// $XPU_CODEGEN_CACHE_TRUST (comma-separated); a URL without a password
/// takes it from the password file, else $XPU_CODEGEN_CACHE_PASSWORD.
/// Secret files must pass checkSecretFile; keys are loaded here. An invalid
/// value is an error naming the option or variable (never a password).
/// resolveSharedCache without the security: the URL and the timeouts.
llvm::Expected<std::optional<SharedCacheConfig>>
resolveSharedCacheLocation(llvm::StringRef option);

/// The shared tier's URL as given: `option`, else $XPU_CODEGEN_CACHE_URL
/// (empty or "none": no shared tier). Unchecked.
std::string getSharedCacheURLText(llvm::StringRef option);

llvm::Expected<std::optional<SharedCacheConfig>>
resolveSharedCache(llvm::StringRef option,
                   const SharedCacheSecurity &security = {});

/// The files of a `cache-trust` value (or $XPU_CODEGEN_CACHE_TRUST):
/// comma-separated, blanks around them and empty ones dropped.
std::vector<std::string> splitKeyFileList(llvm::StringRef list);

/// What identifies a configuration (the tier registry's key): the URL,
/// every setting and file, and a digest of the password (never the
/// password).
std::string getSharedCacheConfigId(const SharedCacheConfig &config);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_SHAREDCACHECONFIG_H
