//===- EntrySigning.cpp - Ed25519 signatures of shared entries ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Cache/EntrySigning.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;

namespace {
constexpr StringLiteral kEnvelopeMagic = "XPUSIGN1";
constexpr size_t kPublicKeySize = 32;
constexpr size_t kSignatureSize = 64;
constexpr size_t kEnvelopeSize =
    kEnvelopeMagic.size() + kPublicKeySize + kSignatureSize;
/// Key files are small; anything larger is not one.
constexpr uint64_t kMaxKeyFileSize = 64 * 1024;

Error keyError(const Twine &what) {
  return createStringError(inconvertibleErrorCode(), what);
}

/// What is signed: a digest of the domain, the Redis key and the value (a
/// digest keeps signing cheap for entries of megabytes).
std::array<uint8_t, 32> getSignedDigest(StringRef redisKey, StringRef value) {
  BLAKE3 hasher;
  hasher.update("xpu-codegen shared value v1");
  hasher.update(ArrayRef<uint8_t>{0});
  char size[8];
  support::endian::write64le(size, redisKey.size());
  hasher.update(StringRef(size, sizeof(size)));
  hasher.update(redisKey);
  hasher.update(value);
  return hasher.final();
}

struct PKeyDeleter {
  void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); }
};
using PKey = std::unique_ptr<EVP_PKEY, PKeyDeleter>;

/// The bounded contents of the key file at `path`.
Expected<std::unique_ptr<MemoryBuffer>> readKeyFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return keyError("cannot read '" + path +
                    "': " + buffer.getError().message());
  if ((*buffer)->getBufferSize() > kMaxKeyFileSize)
    return keyError("'" + path + "' is too large to be a key file");
  return std::move(*buffer);
}

Expected<std::string> getRawPublicKey(EVP_PKEY *key, StringRef path) {
  if (EVP_PKEY_get_id(key) != EVP_PKEY_ED25519)
    return keyError("'" + path + "' is not an Ed25519 key");
  unsigned char raw[kPublicKeySize];
  size_t size = sizeof(raw);
  if (EVP_PKEY_get_raw_public_key(key, raw, &size) != 1 ||
      size != kPublicKeySize)
    return keyError("cannot read the public key of '" + path + "'");
  return std::string(reinterpret_cast<char *>(raw), size);
}

int noPassphrase(char *, int, int, void *) { return 0; }
} // namespace

std::string mlir::xpu::getKeyFingerprint(StringRef rawPublicKey) {
  std::array<uint8_t, 32> hash =
      SHA256::hash(arrayRefFromStringRef(rawPublicKey));
  return "ed25519:" +
         toHex(ArrayRef<uint8_t>(hash).take_front(16), /*LowerCase=*/true);
}

Error mlir::xpu::checkSecretFile(StringRef path, StringRef what) {
  struct stat st;
  if (::stat(path.str().c_str(), &st) != 0)
    return keyError(formatv("cannot read the {0} '{1}': {2}", what, path,
                            std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    return keyError(formatv("the {0} '{1}' is not a regular file", what, path));
  if (st.st_uid != ::geteuid() && st.st_uid != 0)
    return keyError(
        formatv("the {0} '{1}' belongs to another user", what, path));
  if (st.st_mode & (S_IRWXG | S_IRWXO))
    return keyError(
        formatv("the {0} '{1}' is accessible by other users (mode {2}); "
                "chmod 600 it",
                what, path, format("%o", unsigned(st.st_mode & 0777))));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Signing
//===----------------------------------------------------------------------===//

struct EntrySigner::Key {
  PKey key;
};

EntrySigner::~EntrySigner() = default;

Expected<std::shared_ptr<const EntrySigner>> EntrySigner::load(StringRef path) {
  if (Error error = checkSecretFile(path, "signing key"))
    return std::move(error);
  Expected<std::unique_ptr<MemoryBuffer>> file = readKeyFile(path);
  if (!file)
    return file.takeError();
  BIO *bio =
      BIO_new_mem_buf((*file)->getBufferStart(), int((*file)->getBufferSize()));
  auto freeBio = make_scope_exit([&] { BIO_free(bio); });
  PKey key(PEM_read_bio_PrivateKey(bio, nullptr, noPassphrase, nullptr));
  ERR_clear_error();
  if (!key)
    return keyError("'" + path +
                    "' is not an unencrypted PEM private key (make one with "
                    "openssl genpkey -algorithm ed25519)");
  Expected<std::string> publicKey = getRawPublicKey(key.get(), path);
  if (!publicKey)
    return publicKey.takeError();
  std::shared_ptr<EntrySigner> signer(new EntrySigner());
  signer->key = std::make_unique<Key>(Key{std::move(key)});
  signer->publicKey = std::move(*publicKey);
  return signer;
}

std::string EntrySigner::seal(StringRef redisKey, StringRef value) const {
  std::array<uint8_t, 32> digest = getSignedDigest(redisKey, value);
  unsigned char signature[kSignatureSize];
  size_t size = sizeof(signature);
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  auto freeContext = make_scope_exit([&] { EVP_MD_CTX_free(context); });
  // Ed25519 hashes internally: no digest is named.
  if (!context ||
      EVP_DigestSignInit(context, nullptr, nullptr, nullptr, key->key.get()) !=
          1 ||
      EVP_DigestSign(context, signature, &size, digest.data(), digest.size()) !=
          1 ||
      size != kSignatureSize) {
    ERR_clear_error();
    return value.str(); // Unsigned: a trusting reader refuses it.
  }
  std::string sealed;
  sealed.reserve(kEnvelopeSize + value.size());
  sealed += kEnvelopeMagic;
  sealed += publicKey;
  sealed.append(reinterpret_cast<char *>(signature), size);
  sealed += value;
  return sealed;
}

//===----------------------------------------------------------------------===//
// Verifying
//===----------------------------------------------------------------------===//

struct EntryTrust::Keys {
  std::vector<std::pair<std::string, PKey>> keys;
};

EntryTrust::~EntryTrust() = default;

Expected<std::shared_ptr<const EntryTrust>>
EntryTrust::load(ArrayRef<std::string> paths) {
  std::shared_ptr<EntryTrust> trust(new EntryTrust());
  trust->keys = std::make_unique<Keys>();
  for (const std::string &path : paths) {
    Expected<std::unique_ptr<MemoryBuffer>> file = readKeyFile(path);
    if (!file)
      return file.takeError();
    BIO *bio = BIO_new_mem_buf((*file)->getBufferStart(),
                               int((*file)->getBufferSize()));
    auto freeBio = make_scope_exit([&] { BIO_free(bio); });
    unsigned found = 0;
    while (PKey key{PEM_read_bio_PUBKEY(bio, nullptr, noPassphrase, nullptr)}) {
      Expected<std::string> raw = getRawPublicKey(key.get(), path);
      if (!raw)
        return raw.takeError();
      trust->keys->keys.emplace_back(std::move(*raw), std::move(key));
      ++found;
    }
    ERR_clear_error();
    if (!found)
      return keyError("'" + path +
                      "' holds no PEM public key (make one with openssl pkey "
                      "-in KEY -pubout)");
  }
  return trust;
}

bool EntryTrust::trusts(StringRef rawPublicKey) const {
  return any_of(keys->keys,
                [&](const auto &key) { return key.first == rawPublicKey; });
}

bool EntryTrust::verify(StringRef rawPublicKey, StringRef signature,
                        StringRef redisKey, StringRef value) const {
  auto it = find_if(keys->keys,
                    [&](const auto &key) { return key.first == rawPublicKey; });
  if (it == keys->keys.end() || signature.size() != kSignatureSize)
    return false;
  std::array<uint8_t, 32> digest = getSignedDigest(redisKey, value);
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  auto freeContext = make_scope_exit([&] { EVP_MD_CTX_free(context); });
  bool valid =
      context &&
      EVP_DigestVerifyInit(context, nullptr, nullptr, nullptr,
                           it->second.get()) == 1 &&
      EVP_DigestVerify(
          context, reinterpret_cast<const unsigned char *>(signature.data()),
          signature.size(), digest.data(), digest.size()) == 1;
  ERR_clear_error();
  return valid;
}

OpenedValue mlir::xpu::openSealedValue(const EntryTrust *trust,
                                       StringRef redisKey, StringRef value) {
  OpenedValue opened;
  if (!value.starts_with(kEnvelopeMagic) || value.size() < kEnvelopeSize) {
    opened.status = trust ? SealStatus::Unsigned : SealStatus::Accepted;
    opened.value = value;
    return opened;
  }
  StringRef publicKey = value.substr(kEnvelopeMagic.size(), kPublicKeySize);
  StringRef signature =
      value.substr(kEnvelopeMagic.size() + kPublicKeySize, kSignatureSize);
  opened.value = value.drop_front(kEnvelopeSize);
  opened.signer = getKeyFingerprint(publicKey);
  if (!trust)
    return opened;
  if (!trust->trusts(publicKey))
    opened.status = SealStatus::UntrustedKey;
  else if (!trust->verify(publicKey, signature, redisKey, opened.value))
    opened.status = SealStatus::BadSignature;
  return opened;
}
