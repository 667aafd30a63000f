//===- WorkerProtocolTest.cpp - Worker wire format tests ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerProtocol.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace llvm;
using namespace mlir::xpu;
namespace proto = mlir::xpu::protocol;

namespace {

/// The error text of `value` ("" when it holds a value).
template <typename T> std::string errorText(Expected<T> &value) {
  return value ? std::string() : toString(value.takeError());
}

#define ASSERT_OK(value) ASSERT_TRUE(bool(value)) << errorText(value)

/// True if `value` is an error (consumed).
template <typename T> bool isError(Expected<T> value) {
  if (value)
    return false;
  consumeError(value.takeError());
  return true;
}

WorkerResponse sampleResponse() {
  WorkerResponse response;
  response.succeeded = true;
  response.returnCode = -11;
  response.log = "warning: kernel k  compiled SIMD16 allocated 128 regs and "
                 "spilled around 136\n";
  response.binary = {'\x7f', 'E', 'L', 'F', '\0', '\xff'};
  response.kernels = {{"k", 8192, 64}, {"", 0, 0}};
  response.compileMs = 41.5;
  return response;
}

TEST(WorkerProtocol, RequestRoundTrip) {
  WorkerRequest request;
  request.backend = WorkerBackend::LevelZero;
  request.device = "pvc";
  request.options = "-ze-opt-large-register-file";
  request.spirv = {'\x03', '\x02', '\x23', '\x07', '\0'};
  Expected<WorkerRequest> decoded =
      proto::decodeRequest(proto::encodeRequest(request));
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->backend, request.backend);
  EXPECT_EQ(decoded->device, request.device);
  EXPECT_EQ(decoded->options, request.options);
  EXPECT_EQ(decoded->spirv, request.spirv);
}

TEST(WorkerProtocol, ResponseRoundTrip) {
  WorkerResponse response = sampleResponse();
  Expected<WorkerResponse> decoded =
      proto::decodeResponse(proto::encodeResponse(response));
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->succeeded, response.succeeded);
  EXPECT_EQ(decoded->returnCode, response.returnCode);
  EXPECT_EQ(decoded->log, response.log);
  EXPECT_EQ(decoded->binary, response.binary);
  ASSERT_EQ(decoded->kernels.size(), 2u);
  EXPECT_EQ(decoded->kernels[0].name, "k");
  EXPECT_EQ(decoded->kernels[0].spillMemSize, 8192u);
  EXPECT_EQ(decoded->kernels[0].privateMemSize, 64u);
  EXPECT_EQ(decoded->compileMs, 41.5);
}

// Every truncation and every single-byte corruption of a payload decodes to
// a value or an error, never a crash or a huge allocation.
TEST(WorkerProtocol, TruncatedAndCorruptPayloadsAreErrors) {
  std::string payload = proto::encodeResponse(sampleResponse());
  for (size_t size = 0; size < payload.size(); ++size)
    EXPECT_TRUE(isError(proto::decodeResponse(payload.substr(0, size))));
  EXPECT_TRUE(isError(proto::decodeResponse(payload + "x")));
  for (size_t i = 0; i < payload.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string corrupt = payload;
      corrupt[i] ^= char(flip);
      consumeError(proto::decodeResponse(corrupt).takeError());
      consumeError(proto::decodeRequest(corrupt).takeError());
      consumeError(proto::decodeHello(corrupt).takeError());
    }
  }
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    std::string garbage(rng() % 64, '\0');
    for (char &c : garbage)
      c = char(rng());
    consumeError(proto::decodeResponse(garbage).takeError());
    consumeError(proto::decodeRequest(garbage).takeError());
  }
}

TEST(WorkerProtocol, FramesSurviveArbitraryChunking) {
  std::string stream =
      proto::encodeFrame(proto::MessageKind::CompileRequest, "abc") +
      proto::encodeFrame(proto::MessageKind::Error, "") +
      proto::encodeFrame(proto::MessageKind::Hello, std::string(1000, 'z'));
  proto::FrameDecoder decoder;
  std::vector<proto::Frame> frames;
  for (char c : stream) {
    decoder.feed(StringRef(&c, 1));
    Expected<std::optional<proto::Frame>> frame = decoder.take();
    ASSERT_OK(frame);
    if (*frame)
      frames.push_back(std::move(**frame));
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].kind, proto::MessageKind::CompileRequest);
  EXPECT_EQ(frames[0].payload, "abc");
  EXPECT_EQ(frames[1].payload, "");
  EXPECT_EQ(frames[2].payload.size(), 1000u);
  EXPECT_EQ(decoder.pendingBytes(), 0u);
}

TEST(WorkerProtocol, BadHeadersAreErrors) {
  auto decode = [](std::string bytes) {
    proto::FrameDecoder decoder;
    decoder.feed(bytes);
    return decoder.take();
  };
  std::string good = proto::encodeFrame(proto::MessageKind::Hello, "");
  std::string badMagic = good;
  badMagic[0] = 'Y';
  auto badMagicFrame = decode(badMagic);
  EXPECT_NE(errorText(badMagicFrame).find("magic"), std::string::npos);
  std::string badVersion = good;
  badVersion[4] = char(proto::kProtocolVersion + 1);
  auto badVersionFrame = decode(badVersion);
  EXPECT_NE(errorText(badVersionFrame).find("version mismatch"),
            std::string::npos);
  std::string badKind = good;
  badKind[6] = 99;
  EXPECT_TRUE(isError(decode(badKind)));
  std::string huge = good;
  huge[23] = 0x7f; // A length of about 2^62 bytes.
  auto hugeFrame = decode(huge);
  EXPECT_NE(errorText(hugeFrame).find("exceeds"), std::string::npos);
  // A partial header is not an error, just not a frame yet.
  Expected<std::optional<proto::Frame>> partial = decode(good.substr(0, 7));
  ASSERT_OK(partial);
  EXPECT_FALSE(*partial);
}

TEST(WorkerProtocol, RepliesCarryTheRequestId) {
  proto::FrameDecoder decoder;
  decoder.feed(proto::encodeFrame(proto::MessageKind::CompileResponse, "r",
                                  0x0123456789abcdefULL));
  Expected<std::optional<proto::Frame>> frame = decoder.take();
  ASSERT_OK(frame);
  ASSERT_TRUE(*frame);
  EXPECT_EQ((*frame)->id, 0x0123456789abcdefULL);
  EXPECT_EQ((*frame)->payload, "r");
}

// Well-formed replies with numbers no compiler produces are errors: a NaN
// compile time once became -9223372036854775808 ms in a report.
TEST(WorkerProtocol, ImplausibleResponsesAreErrors) {
  for (double ms : {std::nan(""), -1.0, 1e300, HUGE_VAL, -HUGE_VAL}) {
    WorkerResponse response = sampleResponse();
    response.compileMs = ms;
    Expected<WorkerResponse> decoded =
        proto::decodeResponse(proto::encodeResponse(response));
    EXPECT_NE(errorText(decoded).find("implausible"), std::string::npos) << ms;
  }
  WorkerResponse response = sampleResponse();
  response.kernels[0].privateMemSize = ~uint64_t(0);
  Expected<WorkerResponse> decoded =
      proto::decodeResponse(proto::encodeResponse(response));
  EXPECT_NE(errorText(decoded).find("implausible"), std::string::npos);
  response = sampleResponse();
  response.compileMs = 0;
  EXPECT_FALSE(isError(proto::decodeResponse(proto::encodeResponse(response))));
}

} // namespace
