//===- WorkerProtocol.cpp - Host <-> compiler worker wire format ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerProtocol.h"
#include "XPUCodegen/Support/BinaryFields.h"

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

/// Reads a message's fields; the first failure sticks, so decoders read
/// everything and check once.
class PayloadReader : public BinaryFieldReader {
public:
  PayloadReader(StringRef data, StringRef what)
      : BinaryFieldReader(data), size(data.size()), what(what) {}

  llvm::Error finish() {
    if (failed())
      return makeError(formatv("malformed {0} message: truncated or corrupt "
                               "({1} bytes)",
                               what, size));
    if (!atEnd())
      return makeError(formatv("malformed {0} message: {1} trailing bytes",
                               what, remaining()));
    return Error::success();
  }

private:
  size_t size;
  StringRef what;
};

bool isKnownKind(uint16_t kind) {
  return kind >= uint16_t(MessageKind::Hello) &&
         kind <= uint16_t(MessageKind::Error);
}

bool isKnownBackend(uint8_t backend) { return backend < kNumWorkerBackends; }

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
  BinaryFieldWriter w;
  w.write<uint32_t>(hello.pid);
  w.writeBytes(hello.workDir);
  return w.take();
}

Expected<HelloMessage> decodeHello(StringRef payload) {
  PayloadReader r(payload, "hello");
  HelloMessage hello;
  hello.pid = r.readU32();
  hello.workDir = r.readBytes().str();
  if (Error err = r.finish())
    return std::move(err);
  return hello;
}

std::string encodeRequest(const WorkerRequest &request) {
  BinaryFieldWriter w;
  w.write<uint8_t>(uint8_t(request.backend));
  w.writeBytes(request.device);
  w.writeBytes(request.options);
  w.writeBytes(StringRef(request.spirv.data(), request.spirv.size()));
  return w.take();
}

Expected<WorkerRequest> decodeRequest(StringRef payload) {
  PayloadReader r(payload, "compile request");
  WorkerRequest request;
  uint8_t backend = r.readU8();
  if (!isKnownBackend(backend))
    r.fail();
  request.backend = WorkerBackend(backend);
  request.device = r.readBytes().str();
  request.options = r.readBytes().str();
  StringRef spirv = r.readBytes();
  request.spirv.assign(spirv.begin(), spirv.end());
  if (Error err = r.finish())
    return std::move(err);
  return request;
}

std::string encodeResponse(const WorkerResponse &response) {
  BinaryFieldWriter w;
  w.write<uint8_t>(response.succeeded ? 1 : 0);
  w.write<int32_t>(response.returnCode);
  w.writeBytes(response.log);
  w.writeBytes(StringRef(response.binary.data(), response.binary.size()));
  w.write<uint64_t>(response.kernels.size());
  for (const WorkerKernelProperties &kernel : response.kernels) {
    w.writeBytes(kernel.name);
    w.write<uint64_t>(kernel.spillMemSize);
    w.write<uint64_t>(kernel.privateMemSize);
  }
  w.writeF64(response.compileMs);
  return w.take();
}

Expected<WorkerResponse> decodeResponse(StringRef payload) {
  PayloadReader r(payload, "compile response");
  WorkerResponse response;
  uint8_t succeeded = r.readU8();
  if (succeeded > 1)
    r.fail();
  response.succeeded = succeeded == 1;
  response.returnCode = r.readI32();
  response.log = r.readBytes().str();
  StringRef binary = r.readBytes();
  response.binary.assign(binary.begin(), binary.end());
  // Each kernel entry holds at least a string length and two u64s.
  uint64_t numKernels = r.readCount(24);
  for (uint64_t i = 0; i < numKernels; ++i) {
    WorkerKernelProperties kernel;
    kernel.name = r.readBytes().str();
    kernel.spillMemSize = r.readU64();
    kernel.privateMemSize = r.readU64();
    response.kernels.push_back(std::move(kernel));
  }
  response.compileMs = r.readF64();
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
  BinaryFieldWriter w;
  w.write<uint8_t>(uint8_t(backend));
  return w.take();
}

Expected<WorkerBackend> decodeBackend(StringRef payload) {
  PayloadReader r(payload, "identity request");
  uint8_t backend = r.readU8();
  if (!isKnownBackend(backend))
    r.fail();
  if (Error err = r.finish())
    return std::move(err);
  return WorkerBackend(backend);
}

std::string encodeString(StringRef text) {
  BinaryFieldWriter w;
  w.writeBytes(text);
  return w.take();
}

Expected<std::string> decodeString(StringRef payload) {
  PayloadReader r(payload, "string");
  std::string text = r.readBytes().str();
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
