//===- RedisTLS.cpp - TLS over the shared tier's own socket I/O -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/RedisTLS.h"
#include "SocketIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

using namespace llvm;
using namespace mlir::xpu;
using Clock = std::chrono::steady_clock;

/// Bytes taken from the socket at once, and the room of the BIO pair: a
/// few records per system call, as the plain connection reads.
constexpr size_t kSocketChunk = 64 * 1024;
constexpr size_t kPairBuffer = 4 * kSocketChunk;

struct TLSSession::State {
  int fd = -1;
  std::string address;
  SSL_CTX *context = nullptr;
  SSL *ssl = nullptr;
  /// Our end of the BIO pair whose other end is the SSL object's.
  BIO *network = nullptr;

  ~State() {
    if (ssl)
      SSL_free(ssl); // Frees its end of the pair.
    if (network)
      BIO_free(network);
    if (context)
      SSL_CTX_free(context);
  }

  /// OpenSSL's reason for the last failure, with the certificate check's.
  std::string describeFailure(int result) const {
    std::string reason;
    if (ssl && SSL_get_verify_result(ssl) != X509_V_OK)
      reason =
          formatv("certificate verify failed: {0}",
                  X509_verify_cert_error_string(SSL_get_verify_result(ssl)))
              .str();
    unsigned long code = ERR_get_error();
    if (reason.empty() && code) {
      char text[256];
      ERR_error_string_n(code, text, sizeof(text));
      reason = text;
    }
    ERR_clear_error();
    if (reason.empty())
      reason = formatv("TLS error {0}", SSL_get_error(ssl, result)).str();
    return reason;
  }

  /// Sends what OpenSSL wrote into the pair.
  Error flush(Clock::time_point deadline) {
    char chunk[16 * 1024];
    while (BIO_ctrl_pending(network) > 0) {
      int size = BIO_read(network, chunk, sizeof(chunk));
      if (size <= 0)
        break;
      if (Error error = sendAllBytes(fd, StringRef(chunk, size_t(size)),
                                     deadline, address))
        return error;
    }
    return Error::success();
  }

  /// Receives bytes for OpenSSL, as many as the pair takes.
  Error fill(Clock::time_point deadline) {
    char chunk[kSocketChunk];
    size_t room =
        std::min(sizeof(chunk), BIO_ctrl_get_write_guarantee(network));
    if (room == 0)
      return socketError(formatv("{0}: TLS buffer full", address));
    Expected<size_t> got = receiveSome(fd, chunk, room, deadline, address);
    if (!got)
      return got.takeError();
    if (BIO_write(network, chunk, int(*got)) != int(*got))
      return socketError(formatv("{0}: cannot buffer TLS input", address));
    return Error::success();
  }

  /// Runs `step` (an SSL_* call) until it makes progress, moving bytes
  /// between the pair and the socket as it asks, by `deadline`.
  template <typename Step>
  Expected<int> drive(Step step, Clock::time_point deadline, StringRef what) {
    for (;;) {
      ERR_clear_error();
      int result = step();
      if (Error error = flush(deadline))
        return std::move(error);
      if (result > 0)
        return result;
      int code = SSL_get_error(ssl, result);
      if (code == SSL_ERROR_WANT_WRITE)
        continue;
      if (code == SSL_ERROR_WANT_READ) {
        if (Error error = fill(deadline))
          return socketError(formatv("{0} (during the TLS {1})",
                                     toString(std::move(error)), what));
        continue;
      }
      return socketError(formatv("{0}: TLS {1} failed: {2}", address, what,
                                 describeFailure(result)));
    }
  }

  Error configure(StringRef host, const RedisTLSFiles &files);
};

/// A passphrase callback that never prompts: an encrypted key is an error.
static int noPassphrase(char *, int, int, void *) { return 0; }

Error TLSSession::State::configure(StringRef host, const RedisTLSFiles &files) {
  auto failed = [&](const Twine &what) {
    return socketError(
        formatv("{0}: {1}: {2}", address, what, describeFailure(0)));
  };
  context = SSL_CTX_new(TLS_client_method());
  if (!context)
    return failed("cannot create a TLS context");
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  SSL_CTX_set_default_passwd_cb(context, noPassphrase);
  SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE);
  if (!files.caFile.empty()) {
    if (SSL_CTX_load_verify_locations(context, files.caFile.c_str(), nullptr) !=
        1)
      return failed("cannot load the CA file '" + files.caFile + "'");
  } else if (SSL_CTX_set_default_verify_paths(context) != 1) {
    return failed("cannot load the system's CA store");
  }
  if (!files.certFile.empty() || !files.keyFile.empty()) {
    if (files.certFile.empty() || files.keyFile.empty())
      return failed("a client certificate needs both its file and its key");
    if (SSL_CTX_use_certificate_chain_file(context, files.certFile.c_str()) !=
        1)
      return failed("cannot load the client certificate '" + files.certFile +
                    "'");
    if (SSL_CTX_use_PrivateKey_file(context, files.keyFile.c_str(),
                                    SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(context) != 1)
      return failed("cannot load the client key '" + files.keyFile + "'");
  }
  ssl = SSL_new(context);
  BIO *internal = nullptr;
  if (!ssl ||
      BIO_new_bio_pair(&internal, kPairBuffer, &network, kPairBuffer) != 1)
    return failed("cannot create a TLS connection");
  SSL_set_bio(ssl, internal, internal);
  // The certificate must name what the URL names: an IP address as an IP
  // address, a host name as a DNS name (also sent as SNI).
  std::string name = host.str();
  in6_addr address6;
  in_addr address4;
  bool isIP = ::inet_pton(AF_INET, name.c_str(), &address4) == 1 ||
              ::inet_pton(AF_INET6, name.c_str(), &address6) == 1;
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  if (isIP ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str()) != 1
           : (SSL_set1_host(ssl, name.c_str()) != 1 ||
              SSL_set_tlsext_host_name(ssl, name.c_str()) != 1))
    return failed("cannot set the host name to verify");
  SSL_set_connect_state(ssl);
  return Error::success();
}

TLSSession::TLSSession(std::unique_ptr<State> state)
    : state(std::move(state)) {}
TLSSession::~TLSSession() = default;

Expected<std::unique_ptr<TLSSession>>
TLSSession::start(int fd, StringRef host, const RedisTLSFiles &files,
                  Clock::time_point deadline, StringRef address) {
  auto state = std::make_unique<State>();
  state->fd = fd;
  state->address = address.str();
  if (Error error = state->configure(host, files))
    return std::move(error);
  SSL *ssl = state->ssl;
  Expected<int> done = state->drive([&] { return SSL_do_handshake(ssl); },
                                    deadline, "handshake");
  if (!done)
    return done.takeError();
  return std::unique_ptr<TLSSession>(new TLSSession(std::move(state)));
}

Error TLSSession::write(StringRef data, Clock::time_point deadline) {
  SSL *ssl = state->ssl;
  while (!data.empty()) {
    int chunk = int(std::min<size_t>(data.size(), 1 << 30));
    Expected<int> written = state->drive(
        [&] { return SSL_write(ssl, data.data(), chunk); }, deadline, "write");
    if (!written)
      return written.takeError();
    data = data.drop_front(size_t(*written));
  }
  return Error::success();
}

Expected<size_t> TLSSession::read(char *buffer, size_t size,
                                  Clock::time_point deadline) {
  SSL *ssl = state->ssl;
  int limit = int(std::min<size_t>(size, 1 << 30));
  Expected<int> got = state->drive([&] { return SSL_read(ssl, buffer, limit); },
                                   deadline, "read");
  if (!got)
    return got.takeError();
  // Records already received are decrypted in the same call: one call per
  // socket read, not one per 16 KiB record. A failure stops here and comes
  // back from the next call's drive.
  size_t total = size_t(*got);
  while (total < size) {
    int more = SSL_read(ssl, buffer + total,
                        int(std::min<size_t>(size - total, 1 << 30)));
    if (more <= 0)
      break;
    total += size_t(more);
  }
  ERR_clear_error();
  if (Error error = state->flush(deadline))
    return std::move(error);
  return total;
}
