//===- SharedCacheConfig.cpp - Settings of the shared tier ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/SharedCacheConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {
/// Bounds of settings from the environment.
constexpr uint64_t kMaxMs = 3600 * 1000;
/// A password file holds one line.
constexpr uint64_t kMaxPasswordFileSize = 4096;

Error configError(const Twine &what) {
  return createStringError(inconvertibleErrorCode(), what);
}

Expected<std::chrono::milliseconds>
getEnvMs(const char *name, uint64_t defaultMs, bool allowZero) {
  std::optional<std::string> value = sys::Process::GetEnv(name);
  if (!value || value->empty())
    return std::chrono::milliseconds(defaultMs);
  uint64_t ms;
  StringRef text(*value);
  if (!all_of(text, isDigit) || text.getAsInteger(10, ms) || ms > kMaxMs ||
      (!allowZero && ms == 0))
    return configError(
        formatv("invalid {0} '{1}': expected milliseconds from {2} to {3}",
                name, text, allowZero ? 0 : 1, kMaxMs));
  return std::chrono::milliseconds(ms);
}

/// `option` if set, else the variable `name`.
std::string orEnv(StringRef option, const char *name) {
  if (!option.empty())
    return option.str();
  return sys::Process::GetEnv(name).value_or("");
}

/// The password in the first line of `path` (checkSecretFile).
Expected<std::string> readPasswordFile(StringRef path) {
  if (Error error = checkSecretFile(path, "cache password file"))
    return std::move(error);
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file)
    return configError("cannot read the cache password file '" + path +
                       "': " + file.getError().message());
  if ((*file)->getBufferSize() > kMaxPasswordFileSize)
    return configError("the cache password file '" + path +
                       "' is larger than a password");
  StringRef password = (*file)->getBuffer().split('\n').first.rtrim("\r");
  if (password.empty())
    return configError("the cache password file '" + path +
                       "' has no password on its first line");
  return password.str();
}

Error resolveTimeouts(SharedCacheConfig &config) {
  Expected<std::chrono::milliseconds> connect =
      getEnvMs("XPU_CODEGEN_CACHE_CONNECT_TIMEOUT_MS", 1000, false);
  if (!connect)
    return connect.takeError();
  Expected<std::chrono::milliseconds> command =
      getEnvMs("XPU_CODEGEN_CACHE_TIMEOUT_MS", 5000, false);
  if (!command)
    return command.takeError();
  Expected<std::chrono::milliseconds> lock =
      getEnvMs("XPU_CODEGEN_CACHE_LOCK_MS", 10000, true);
  if (!lock)
    return lock.takeError();
  Expected<std::chrono::milliseconds> allowance =
      getEnvMs("XPU_CODEGEN_CACHE_BUDGET_MS", 1000, true);
  if (!allowance)
    return allowance.takeError();
  config.timeouts.connect = *connect;
  config.timeouts.command = *command;
  config.lockTime = *lock;
  config.budgetAllowance = *allowance;
  return Error::success();
}

/// Fills config.security from `options` and the environment, the password
/// of a URL without one, and loads the keys.
Error resolveSecurity(SharedCacheConfig &config,
                      const SharedCacheSecurity &options) {
  SharedCacheSecurity &security = config.security;
  security.passwordFile =
      orEnv(options.passwordFile, "XPU_CODEGEN_CACHE_PASSWORD_FILE");
  security.tls.caFile = orEnv(options.tls.caFile, "XPU_CODEGEN_CACHE_TLS_CA");
  security.tls.certFile =
      orEnv(options.tls.certFile, "XPU_CODEGEN_CACHE_TLS_CERT");
  security.tls.keyFile =
      orEnv(options.tls.keyFile, "XPU_CODEGEN_CACHE_TLS_KEY");
  security.signKeyFile =
      orEnv(options.signKeyFile, "XPU_CODEGEN_CACHE_SIGN_KEY");
  security.trustFiles = options.trustFiles;
  if (security.trustFiles.empty())
    security.trustFiles =
        splitKeyFileList(orEnv("", "XPU_CODEGEN_CACHE_TRUST"));
  // Errors name the option, or the variable it fell back to.
  auto invalid = [](bool fromOption, StringRef option, StringRef variable,
                    Error error) {
    return configError("invalid " + (fromOption ? option : variable) + ": " +
                       toString(std::move(error)));
  };
  if (config.url.password.empty()) {
    if (!security.passwordFile.empty()) {
      Expected<std::string> password = readPasswordFile(security.passwordFile);
      if (!password)
        return invalid(!options.passwordFile.empty(), "cache-password-file",
                       "XPU_CODEGEN_CACHE_PASSWORD_FILE", password.takeError());
      config.url.password = std::move(*password);
    } else {
      config.url.password =
          sys::Process::GetEnv("XPU_CODEGEN_CACHE_PASSWORD").value_or("");
    }
  }
  if (!security.tls.keyFile.empty())
    if (Error error = checkSecretFile(security.tls.keyFile, "TLS client key"))
      return invalid(!options.tls.keyFile.empty(), "cache-tls-key",
                     "XPU_CODEGEN_CACHE_TLS_KEY", std::move(error));
  if (!security.signKeyFile.empty()) {
    Expected<std::shared_ptr<const EntrySigner>> signer =
        EntrySigner::load(security.signKeyFile);
    if (!signer)
      return invalid(!options.signKeyFile.empty(), "cache-sign-key",
                     "XPU_CODEGEN_CACHE_SIGN_KEY", signer.takeError());
    config.signer = std::move(*signer);
  }
  if (!security.trustFiles.empty()) {
    Expected<std::shared_ptr<const EntryTrust>> trust =
        EntryTrust::load(security.trustFiles);
    if (!trust)
      return invalid(!options.trustFiles.empty(), "cache-trust",
                     "XPU_CODEGEN_CACHE_TRUST", trust.takeError());
    config.trust = std::move(*trust);
  }
  return Error::success();
}
} // namespace

std::string mlir::xpu::getSharedCacheURLText(StringRef option) {
  if (!option.empty())
    return option.str();
  return sys::Process::GetEnv("XPU_CODEGEN_CACHE_URL").value_or("");
}

Expected<std::optional<SharedCacheConfig>>
mlir::xpu::resolveSharedCache(StringRef option,
                              const SharedCacheSecurity &security) {
  Expected<std::optional<SharedCacheConfig>> config =
      resolveSharedCacheLocation(option);
  if (!config || !*config)
    return config;
  if (Error error = resolveSecurity(**config, security))
    return std::move(error);
  return config;
}

Expected<std::optional<SharedCacheConfig>>
mlir::xpu::resolveSharedCacheLocation(StringRef option) {
  std::string url = getSharedCacheURLText(option);
  StringRef origin = option.empty() ? "XPU_CODEGEN_CACHE_URL" : "cache-url";
  if (url.empty() || url == "none")
    return std::nullopt;
  Expected<RedisURL> parsed = parseRedisURL(url);
  if (!parsed)
    return configError("invalid " + origin + " " +
                       toString(parsed.takeError()));
  SharedCacheConfig config;
  config.url = std::move(*parsed);
  if (Error error = resolveTimeouts(config))
    return std::move(error);
  return config;
}

std::vector<std::string> mlir::xpu::splitKeyFileList(StringRef list) {
  SmallVector<StringRef> files;
  list.split(files, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> result;
  for (StringRef file : files)
    if (!file.trim().empty())
      result.push_back(file.trim().str());
  return result;
}

std::string mlir::xpu::getSharedCacheConfigId(const SharedCacheConfig &config) {
  std::array<uint8_t, 32> password =
      BLAKE3::hash(arrayRefFromStringRef(StringRef(config.url.password)));
  const SharedCacheSecurity &security = config.security;
  return formatv(
             "{0} {1} {2} {3} {4} {5} {6} ca={7} cert={8} key={9} "
             "sign={10} trust={11}",
             config.url.str(), toHex(password, /*LowerCase=*/true),
             config.timeouts.connect.count(), config.timeouts.command.count(),
             config.lockTime.count(), config.maxValueBytes,
             config.budgetAllowance.count(), security.tls.caFile,
             security.tls.certFile, security.tls.keyFile,
             config.signer ? getKeyFingerprint(config.signer->getPublicKey())
                           : "",
             join(security.trustFiles, ","))
      .str();
}
