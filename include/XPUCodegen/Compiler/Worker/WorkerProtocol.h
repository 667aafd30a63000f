//===- WorkerProtocol.h - Host <-> compiler worker wire format --*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The host and xpu-compile-worker talk over a stream socket with
// length-prefixed binary frames:
//
//   u32 magic "XPUW" | u16 protocol version | u16 message kind |
//   u64 request id | u64 payload length | payload
//
// all little-endian. Payloads are sequences of fixed-width integers and
// length-prefixed byte strings. Every decoder checks bounds, so a truncated
// or garbage frame is an llvm::Error, never a crash or a huge allocation.
// Both sides build from this one file, and a version mismatch (a stale
// worker executable) is reported as such. Each request carries a fresh id
// that the reply echoes, so a stale or unsolicited reply is never taken for
// the answer to the next job. Decoded replies are validated (sizes, times)
// before the host uses them.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_WORKER_WORKERPROTOCOL_H
#define XPUCODEGEN_COMPILER_WORKER_WORKERPROTOCOL_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::xpu::protocol {

/// "XPUW" read as a little-endian u32.
constexpr uint32_t kFrameMagic = 0x57555058;
/// Bumped on any change of the frame or payload layout.
constexpr uint16_t kProtocolVersion = 2;
constexpr size_t kFrameHeaderSize = 24;
/// Upper bound on a payload; larger lengths are garbage, not allocations.
constexpr uint64_t kMaxPayloadSize = uint64_t(1) << 30;
/// Upper bounds on the numbers in a reply: a compile time of more than a
/// week, or per-thread memory of a terabyte, is corruption.
constexpr double kMaxCompileMs = 7 * 24 * 3600 * 1000.0;
constexpr uint64_t kMaxKernelMemory = uint64_t(1) << 40;
/// Exit status the worker uses when an allocation fails (its new-handler),
/// so the host can name the memory limit as the cause.
constexpr int kExitOutOfMemory = 86;
/// Exit status when the worker cannot set itself up or the protocol breaks.
constexpr int kExitSetupFailure = 87;

enum class MessageKind : uint16_t {
  /// Worker -> host, once at start: HelloMessage.
  Hello = 1,
  /// Host -> worker: WorkerRequest.
  CompileRequest = 2,
  /// Worker -> host: WorkerResponse.
  CompileResponse = 3,
  /// Host -> worker: u8 backend.
  IdentityRequest = 4,
  /// Worker -> host: string identity.
  IdentityResponse = 5,
  /// Worker -> host: string message. The job could not be attempted (backend
  /// unavailable, malformed request); the worker stays usable.
  Error = 6,
};

/// One decoded frame.
struct Frame {
  MessageKind kind;
  /// The request this frame answers (0 for hello); replies echo it.
  uint64_t id = 0;
  std::string payload;
};

/// What a worker says when it is ready.
struct HelloMessage {
  uint32_t pid = 0;
  /// The worker's private working directory (removed by whoever outlives
  /// the other).
  std::string workDir;
};

/// Serializes a frame (header + payload).
std::string encodeFrame(MessageKind kind, llvm::StringRef payload,
                        uint64_t id = 0);

/// Incremental frame parser for a byte stream: feed bytes as they arrive,
/// take complete frames out. A bad header poisons the stream (error).
class FrameDecoder {
public:
  void feed(llvm::StringRef bytes) {
    buffer.append(bytes.data(), bytes.size());
  }
  /// A complete frame, std::nullopt when more bytes are needed, or an error
  /// for a malformed header.
  llvm::Expected<std::optional<Frame>> take();
  /// Bytes received but not yet consumed as a frame.
  size_t pendingBytes() const { return buffer.size(); }

private:
  std::string buffer;
};

std::string encodeHello(const HelloMessage &hello);
llvm::Expected<HelloMessage> decodeHello(llvm::StringRef payload);

std::string encodeRequest(const WorkerRequest &request);
llvm::Expected<WorkerRequest> decodeRequest(llvm::StringRef payload);

std::string encodeResponse(const WorkerResponse &response);
/// Also rejects values no compiler produces: a compile time that is NaN,
/// negative or above kMaxCompileMs, per-kernel sizes above kMaxKernelMemory.
llvm::Expected<WorkerResponse> decodeResponse(llvm::StringRef payload);

std::string encodeBackend(WorkerBackend backend);
llvm::Expected<WorkerBackend> decodeBackend(llvm::StringRef payload);

/// A single length-prefixed string (identity, error message).
std::string encodeString(llvm::StringRef text);
llvm::Expected<std::string> decodeString(llvm::StringRef payload);

/// Blocking helpers for the worker side (the host polls instead).
/// Writes all of `data`; never raises SIGPIPE on a socket.
llvm::Error writeAll(int fd, llvm::StringRef data);
/// Reads one frame; std::nullopt on a clean end of stream before a frame.
llvm::Expected<std::optional<Frame>> readFrame(int fd, FrameDecoder &decoder);

} // namespace mlir::xpu::protocol

#endif // XPUCODEGEN_COMPILER_WORKER_WORKERPROTOCOL_H
