//===- WorkerProtocol.cpp - Host <-> compiler worker wire format ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Worker/WorkerProtocol.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

using namespace llvm;

namespace mlir::xpu::protocol {

namespace {

llvm::Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Appends little-endian fields to a payload.
class PayloadWriter {
public:
  void u8(uint8_t v) { out.push_back(char(v)); }
  void u32(uint32_t v) { fixed(v); }
  void u64(uint64_t v) { fixed(v); }
  void i32(int32_t v) { fixed(uint32_t(v)); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    fixed(bits);
  }
  void bytes(StringRef v) {
    u64(v.size());
    out.append(v.data(), v.size());
  }
  std::string take() { return std::move(out); }

private:
  template <typename T> void fixed(T v) {
    char buf[sizeof(T)];
    support::endian::write<T, llvm::endianness::little>(buf, v);
    out.append(buf, sizeof(T));
  }
  std::string out;
};

/// Reads fields back with bounds checks; the first failure sticks so call
/// sites can read everything and check once.
class PayloadReader {
public:
  PayloadReader(StringRef data, StringRef what) : data(data), what(what) {}

  uint8_t u8() { return fixed<uint8_t>(); }
  uint32_t u32() { return fixed<uint32_t>(); }
  uint64_t u64() { return fixed<uint64_t>(); }
  int32_t i32() { return int32_t(fixed<uint32_t>()); }
  double f64() {
    uint64_t bits = fixed<uint64_t>();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  StringRef bytes() {
    uint64_t size = u64();
    if (failed || size > data.size() - pos) {
      fail();
      return {};
    }
    StringRef result = data.substr(pos, size);
    pos += size;
    return result;
  }
  /// Element count for a vector whose elements take at least `minSize`
  /// bytes each; rejects counts the remaining bytes cannot hold.
  uint64_t count(size_t minSize) {
    uint64_t n = u64();
    if (failed || n > (data.size() - pos) / minSize) {
      fail();
      return 0;
    }
    return n;
  }
  void fail() { failed = true; }

  llvm::Error finish() {
    if (failed)
      return makeError(formatv("malformed {0} message: truncated or corrupt "
                               "({1} bytes)",
                               what, data.size()));
    if (pos != data.size())
      return makeError(formatv("malformed {0} message: {1} trailing bytes",
                               what, data.size() - pos));
    return Error::success();
  }

private:
  template <typename T> T fixed() {
    if (failed || sizeof(T) > data.size() - pos) {
      fail();
      return T();
    }
    T v = support::endian::read<T, llvm::endianness::little>(data.data() + pos);
    pos += sizeof(T);
    return v;
  }

  StringRef data;
  StringRef what;
  size_t pos = 0;
  bool failed = false;
};

bool isKnownKind(uint16_t kind) {
  return kind >= uint16_t(MessageKind::Hello) &&
         kind <= uint16_t(MessageKind::Error);
}

bool isKnownBackend(uint8_t backend) {
  return backend <= uint8_t(WorkerBackend::LevelZero);
}

} // namespace

std::string encodeFrame(MessageKind kind, StringRef payload, uint64_t id) {
  std::string out(kFrameHeaderSize, '\0');
  char *p = out.data();
  support::endian::write32le(p, kFrameMagic);
  support::endian::write16le(p + 4, kProtocolVersion);
  support::endian::write16le(p + 6, uint16_t(kind));
  support::endian::write64le(p + 8, id);
  support::endian::write64le(p + 16, payload.size());
  out.append(payload.data(), payload.size());
  return out;
}

Expected<std::optional<Frame>> FrameDecoder::take() {
  if (buffer.size() < kFrameHeaderSize)
    return std::nullopt;
  const char *p = buffer.data();
  uint32_t magic = support::endian::read32le(p);
  uint16_t version = support::endian::read16le(p + 4);
  uint16_t kind = support::endian::read16le(p + 6);
  uint64_t id = support::endian::read64le(p + 8);
  uint64_t length = support::endian::read64le(p + 16);
  if (magic != kFrameMagic)
    return makeError(formatv("bad frame magic {0:x8} (not an "
                             "xpu-compile-worker stream)",
                             magic));
  if (version != kProtocolVersion)
    return makeError(formatv("worker protocol version mismatch: peer speaks "
                             "{0}, this build speaks {1} (stale "
                             "xpu-compile-worker?)",
                             version, kProtocolVersion));
  if (!isKnownKind(kind))
    return makeError(formatv("unknown frame kind {0}", kind));
  if (length > kMaxPayloadSize)
    return makeError(formatv("frame payload of {0} bytes exceeds the {1} byte "
                             "limit",
                             length, kMaxPayloadSize));
  if (buffer.size() - kFrameHeaderSize < length)
    return std::nullopt;
  Frame frame{MessageKind(kind), id,
              buffer.substr(kFrameHeaderSize, size_t(length))};
  buffer.erase(0, kFrameHeaderSize + size_t(length));
  return std::optional<Frame>(std::move(frame));
}

std::string encodeHello(const HelloMessage &hello) {
  PayloadWriter w;
  w.u32(hello.pid);
  w.bytes(hello.workDir);
  return w.take();
}

Expected<HelloMessage> decodeHello(StringRef payload) {
  PayloadReader r(payload, "hello");
  HelloMessage hello;
  hello.pid = r.u32();
  hello.workDir = r.bytes().str();
  if (Error err = r.finish())
    return std::move(err);
  return hello;
}

std::string encodeRequest(const WorkerRequest &request) {
  PayloadWriter w;
  w.u8(uint8_t(request.backend));
  w.bytes(request.device);
  w.bytes(request.options);
  w.bytes(StringRef(request.spirv.data(), request.spirv.size()));
  return w.take();
}

Expected<WorkerRequest> decodeRequest(StringRef payload) {
  PayloadReader r(payload, "compile request");
  WorkerRequest request;
  uint8_t backend = r.u8();
  if (!isKnownBackend(backend))
    r.fail();
  request.backend = WorkerBackend(backend);
  request.device = r.bytes().str();
  request.options = r.bytes().str();
  StringRef spirv = r.bytes();
  request.spirv.assign(spirv.begin(), spirv.end());
  if (Error err = r.finish())
    return std::move(err);
  return request;
}

std::string encodeResponse(const WorkerResponse &response) {
  PayloadWriter w;
  w.u8(response.succeeded ? 1 : 0);
  w.i32(response.returnCode);
  w.bytes(response.log);
  w.bytes(StringRef(response.binary.data(), response.binary.size()));
  w.u64(response.kernels.size());
  for (const WorkerKernelProperties &kernel : response.kernels) {
    w.bytes(kernel.name);
    w.u64(kernel.spillMemSize);
    w.u64(kernel.privateMemSize);
  }
  w.f64(response.compileMs);
  return w.take();
}

Expected<WorkerResponse> decodeResponse(StringRef payload) {
  PayloadReader r(payload, "compile response");
  WorkerResponse response;
  uint8_t succeeded = r.u8();
  if (succeeded > 1)
    r.fail();
  response.succeeded = succeeded == 1;
  response.returnCode = r.i32();
  response.log = r.bytes().str();
  StringRef binary = r.bytes();
  response.binary.assign(binary.begin(), binary.end());
  // Each kernel entry holds at least a string length and two u64s.
  uint64_t numKernels = r.count(24);
  for (uint64_t i = 0; i < numKernels; ++i) {
    WorkerKernelProperties kernel;
    kernel.name = r.bytes().str();
    kernel.spillMemSize = r.u64();
    kernel.privateMemSize = r.u64();
    response.kernels.push_back(std::move(kernel));
  }
  response.compileMs = r.f64();
  if (Error err = r.finish())
    return std::move(err);
  // Well-formed is not plausible: a broken or hostile worker can send any
  // number, and these end up in reports and cache keys.
  if (!std::isfinite(response.compileMs) || response.compileMs < 0 ||
      response.compileMs > kMaxCompileMs)
    return makeError(formatv("implausible compile response: compile time {0} "
                             "ms",
                             response.compileMs));
  for (const WorkerKernelProperties &kernel : response.kernels)
    if (kernel.spillMemSize > kMaxKernelMemory ||
        kernel.privateMemSize > kMaxKernelMemory)
      return makeError(formatv("implausible compile response: kernel '{0}' "
                               "uses {1} bytes of spill and {2} of private "
                               "memory",
                               kernel.name, kernel.spillMemSize,
                               kernel.privateMemSize));
  return response;
}

std::string encodeBackend(WorkerBackend backend) {
  PayloadWriter w;
  w.u8(uint8_t(backend));
  return w.take();
}

Expected<WorkerBackend> decodeBackend(StringRef payload) {
  PayloadReader r(payload, "identity request");
  uint8_t backend = r.u8();
  if (!isKnownBackend(backend))
    r.fail();
  if (Error err = r.finish())
    return std::move(err);
  return WorkerBackend(backend);
}

std::string encodeString(StringRef text) {
  PayloadWriter w;
  w.bytes(text);
  return w.take();
}

Expected<std::string> decodeString(StringRef payload) {
  PayloadReader r(payload, "string");
  std::string text = r.bytes().str();
  if (Error err = r.finish())
    return std::move(err);
  return text;
}

Error writeAll(int fd, StringRef data) {
  while (!data.empty()) {
    // send() with MSG_NOSIGNAL so a vanished peer is EPIPE, not SIGPIPE;
    // plain write() for a non-socket fd (e.g. a pipe in tests).
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK)
      n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return makeError(Twine("write to compiler worker channel failed: ") +
                       std::strerror(errno));
    }
    data = data.drop_front(size_t(n));
  }
  return Error::success();
}

Expected<std::optional<Frame>> readFrame(int fd, FrameDecoder &decoder) {
  char buf[65536];
  for (;;) {
    Expected<std::optional<Frame>> frame = decoder.take();
    if (!frame || *frame)
      return frame;
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return makeError(Twine("read from compiler worker channel failed: ") +
                       std::strerror(errno));
    }
    if (n == 0) {
      if (decoder.pendingBytes() == 0)
        return std::nullopt;
      return makeError(formatv("stream ended inside a frame ({0} bytes "
                               "pending)",
                               decoder.pendingBytes()));
    }
    decoder.feed(StringRef(buf, size_t(n)));
  }
}

} // namespace mlir::xpu::protocol
