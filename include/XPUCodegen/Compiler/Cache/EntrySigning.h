//===- EntrySigning.h - Ed25519 signatures of shared entries ----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Shared-tier values signed with Ed25519 (OpenSSL), so that a reader can
// check an entry without being able to forge one: writers hold a private key
// (`cache-sign-key=FILE`), readers only public keys (`cache-trust=FILE,...`).
// A signed value is an envelope:
//
//   "XPUSIGN1" publicKey[32] signature[64] value
//
// where the signature covers a domain tag, the Redis key the value is stored
// under and the value, so a valid entry copied under another key does not
// verify. Unsigned values (today's format) start with the entry magic
// instead. Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_ENTRYSIGNING_H
#define XPUCODEGEN_COMPILER_CACHE_ENTRYSIGNING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::xpu {

/// A short printable name of a raw Ed25519 public key:
/// "ed25519:" and the first 16 bytes of its SHA-256 in hex.
std::string getKeyFingerprint(llvm::StringRef rawPublicKey);

/// The ssh rule for a file holding a secret: a regular file owned by this
/// user (or root) that no other user can read or write. The error names the
/// file and what is wrong, never its contents.
llvm::Error checkSecretFile(llvm::StringRef path, llvm::StringRef what);

/// An Ed25519 private key (PEM, e.g. `openssl genpkey -algorithm ed25519`).
class EntrySigner {
public:
  /// Loads the key from `path` (checkSecretFile; not encrypted).
  static llvm::Expected<std::shared_ptr<const EntrySigner>>
  load(llvm::StringRef path);
  ~EntrySigner();

  /// The envelope of `value` stored under `redisKey`.
  std::string seal(llvm::StringRef redisKey, llvm::StringRef value) const;
  llvm::StringRef getPublicKey() const { return publicKey; }

private:
  EntrySigner() = default;
  struct Key;
  std::unique_ptr<Key> key;
  std::string publicKey;
};

/// The public keys a reader trusts (PEM, `openssl pkey -pubout`; a file
/// may hold several).
class EntryTrust {
public:
  static llvm::Expected<std::shared_ptr<const EntryTrust>>
  load(llvm::ArrayRef<std::string> paths);
  ~EntryTrust();

  bool trusts(llvm::StringRef rawPublicKey) const;
  /// Whether `signature` by `rawPublicKey` (a trusted key) covers `value`
  /// under `redisKey`.
  bool verify(llvm::StringRef rawPublicKey, llvm::StringRef signature,
              llvm::StringRef redisKey, llvm::StringRef value) const;

private:
  EntryTrust() = default;
  struct Keys;
  std::unique_ptr<Keys> keys;
};

/// What opening a value found.
enum class SealStatus {
  /// Signed by a trusted key, or any value when nothing is trusted.
  Accepted,
  /// No envelope, with a trust list.
  Unsigned,
  /// An envelope by a key not in the trust list.
  UntrustedKey,
  /// A trusted key's envelope whose signature does not cover this key and
  /// value (copied under another key, or altered).
  BadSignature,
};

struct OpenedValue {
  SealStatus status = SealStatus::Accepted;
  /// The value without its envelope (when Accepted).
  llvm::StringRef value;
  /// The signer's fingerprint, if signed.
  std::string signer;
};

/// Opens `value` read under `redisKey`. Without `trust` (no trust list) an
/// envelope is removed unchecked and an unsigned value passes, as before
/// signing existed.
OpenedValue openSealedValue(const EntryTrust *trust, llvm::StringRef redisKey,
                            llvm::StringRef value);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_ENTRYSIGNING_H
