//===- WorkerReplyFuzzer.cpp - libFuzzer target for worker replies --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What a compiler worker sends is untrusted: the byte stream is cut into
// frames (fed in chunks whose sizes come from the input) and every frame's
// payload is decoded as each message kind; the raw input is decoded as a
// payload too. Errors are fine; crashes, hangs and huge allocations are not.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerProtocol.h"

#include <cstddef>
#include <cstdint>

namespace proto = mlir::xpu::protocol;

static void decodeAll(llvm::StringRef payload) {
  llvm::consumeError(proto::decodeResponse(payload).takeError());
  llvm::consumeError(proto::decodeHello(payload).takeError());
  llvm::consumeError(proto::decodeString(payload).takeError());
  llvm::consumeError(proto::decodeRequest(payload).takeError());
  llvm::consumeError(proto::decodeBackend(payload).takeError());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  decodeAll(bytes);
  // The first byte picks the chunk size the stream arrives in.
  size_t chunk = size ? size_t(data[0] % 64) + 1 : 1;
  proto::FrameDecoder decoder;
  for (size_t pos = 0; pos < size; pos += chunk) {
    decoder.feed(bytes.substr(pos, chunk));
    for (;;) {
      llvm::Expected<std::optional<proto::Frame>> frame = decoder.take();
      if (!frame) {
        llvm::consumeError(frame.takeError());
        return 0; // A bad header poisons the stream.
      }
      if (!*frame)
        break;
      decodeAll((*frame)->payload);
    }
  }
  return 0;
}
