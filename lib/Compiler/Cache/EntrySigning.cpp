//===- EntrySigning.cpp - Ed25519 signatures of shared entries ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/EntrySigning.h"

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

/// The DER prefixes of an Ed25519 SubjectPublicKeyInfo and of an unencrypted
/// PKCS#8 Ed25519 private key (RFC 8410): each ends in the 32 raw bytes.
constexpr char kPublicKeyPrefix[] = "\x30\x2a\x30\x05\x06\x03\x2b\x65\x70"
                                    "\x03\x21\x00";
constexpr char kPrivateKeyPrefix[] = "\x30\x2e\x02\x01\x00\x30\x05\x06\x03"
                                     "\x2b\x65\x70\x04\x22\x04\x20";

/// The raw key inside `der` if it is the fixed RFC 8410 form, else empty.
StringRef getFixedFormKey(StringRef der, StringRef prefix) {
  if (der.size() != prefix.size() + kPublicKeySize || !der.starts_with(prefix))
    return {};
  return der.drop_front(prefix.size());
}

/// The PEM blocks of `file` named `name`, as DER. Reading the armour alone
/// and taking Ed25519's fixed form directly avoids OpenSSL 3's decoder
/// search, which costs milliseconds in every process that opens a cache.
std::vector<std::string> readPEMBlocks(const MemoryBuffer &file,
                                       StringRef name) {
  BIO *bio = BIO_new_mem_buf(file.getBufferStart(), int(file.getBufferSize()));
  scope_exit freeBio([&] { BIO_free(bio); });
  std::vector<std::string> blocks;
  char *blockName = nullptr, *header = nullptr;
  unsigned char *data = nullptr;
  long size = 0;
  while (bio && PEM_read_bio(bio, &blockName, &header, &data, &size) == 1) {
    if (name == blockName && size > 0)
      blocks.emplace_back(reinterpret_cast<char *>(data), size_t(size));
    OPENSSL_free(blockName);
    OPENSSL_free(header);
    OPENSSL_clear_free(data, size_t(std::max(size, 0L)));
  }
  ERR_clear_error();
  return blocks;
}

/// The Ed25519 key in `der` (a SubjectPublicKeyInfo, or an unencrypted
/// PKCS#8 private key when `isPrivate`): the fixed form directly, any other
/// form through OpenSSL's decoders.
PKey parseKey(StringRef der, bool isPrivate) {
  StringRef raw = getFixedFormKey(
      der, StringRef(isPrivate ? kPrivateKeyPrefix : kPublicKeyPrefix,
                     isPrivate ? sizeof(kPrivateKeyPrefix) - 1
                               : sizeof(kPublicKeyPrefix) - 1));
  auto *bytes = reinterpret_cast<const unsigned char *>(raw.data());
  if (!raw.empty())
    return PKey(isPrivate ? EVP_PKEY_new_raw_private_key(
                                EVP_PKEY_ED25519, nullptr, bytes, raw.size())
                          : EVP_PKEY_new_raw_public_key(
                                EVP_PKEY_ED25519, nullptr, bytes, raw.size()));
  const auto *input = reinterpret_cast<const unsigned char *>(der.data());
  return PKey(isPrivate ? d2i_AutoPrivateKey(nullptr, &input, long(der.size()))
                        : d2i_PUBKEY(nullptr, &input, long(der.size())));
}
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
  std::vector<std::string> blocks = readPEMBlocks(**file, "PRIVATE KEY");
  PKey key = blocks.empty() ? nullptr : parseKey(blocks.front(), true);
  for (std::string &block : blocks) // The key's copies outside OpenSSL.
    OPENSSL_cleanse(block.data(), block.size());
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
  scope_exit freeContext([&] { EVP_MD_CTX_free(context); });
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
    std::vector<std::string> blocks = readPEMBlocks(**file, "PUBLIC KEY");
    for (const std::string &der : blocks) {
      PKey key = parseKey(der, /*isPrivate=*/false);
      ERR_clear_error();
      if (!key)
        return keyError("'" + path +
                        "' holds a public key OpenSSL cannot read");
      Expected<std::string> raw = getRawPublicKey(key.get(), path);
      if (!raw)
        return raw.takeError();
      trust->keys->keys.emplace_back(std::move(*raw), std::move(key));
    }
    if (blocks.empty())
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
  scope_exit freeContext([&] { EVP_MD_CTX_free(context); });
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
