//===- ModuleCacheTest.cpp - Module cache payloads ------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A module cache entry's payload passed CompileCache's checks (key, checksum)
// before it is decoded, but a foreign or future payload must still be a
// miss: any truncation, bad framing or impossible count is an error, never
// a crash or a huge allocation.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Cache/ModuleCache.h"

#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::xpu;

static ModuleCacheRecord makeRecord() {
  ModuleCacheRecord record;
  ModuleCacheRecord::Binary first;
  first.bytecode = std::string("ML\xefR", 4) + "bytecode";
  first.objects = {std::string("\x7f"
                               "ELF\0\x01",
                               6),
                   ""};
  first.report = R"([{"module":"m","cache":"miss"}])";
  first.diagnostics = {{DiagnosticSeverity::Warning, "spills", "m", "k"},
                       {DiagnosticSeverity::Remark, "kept small", "m", ""}};
  ModuleCacheRecord::Binary split;
  split.bytecode = "more";
  split.report = "[]";
  record.binaries = {first, split};
  record.launches = {{"k2", "m_k2"}};
  return record;
}

TEST(ModuleCacheRecord, RoundTrips) {
  ModuleCacheRecord record = makeRecord();
  llvm::Expected<ModuleCacheRecord> read =
      deserializeModuleCacheRecord(serializeModuleCacheRecord(record));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->binaries.size(), 2u);
  EXPECT_EQ(read->binaries[0].bytecode, record.binaries[0].bytecode);
  EXPECT_EQ(read->binaries[0].objects, record.binaries[0].objects);
  EXPECT_EQ(read->binaries[0].report, record.binaries[0].report);
  EXPECT_EQ(read->binaries[0].diagnostics, record.binaries[0].diagnostics);
  EXPECT_EQ(read->binaries[1].bytecode, "more");
  EXPECT_TRUE(read->binaries[1].objects.empty());
  EXPECT_EQ(read->launches, record.launches);
}

TEST(ModuleCacheRecord, EveryTruncationIsAnError) {
  std::string payload = serializeModuleCacheRecord(makeRecord());
  for (size_t size = 0; size < payload.size(); ++size) {
    llvm::Expected<ModuleCacheRecord> read =
        deserializeModuleCacheRecord(StringRef(payload).take_front(size));
    EXPECT_FALSE(bool(read)) << "prefix of " << size << " bytes";
    llvm::consumeError(read.takeError());
  }
}

TEST(ModuleCacheRecord, TrailingBytesAreAnError) {
  llvm::Expected<ModuleCacheRecord> read = deserializeModuleCacheRecord(
      serializeModuleCacheRecord(makeRecord()) + "x");
  EXPECT_FALSE(bool(read));
  llvm::consumeError(read.takeError());
}

TEST(ModuleCacheRecord, BadFramingIsAnError) {
  std::string payload = serializeModuleCacheRecord(makeRecord());
  // Magic, version, and a binary count far beyond the payload (no
  // allocation is attempted for it).
  for (size_t offset : {size_t(0), size_t(8), size_t(12 + 7)}) {
    std::string bad = payload;
    bad[offset] ^= 0x7f;
    llvm::Expected<ModuleCacheRecord> read = deserializeModuleCacheRecord(bad);
    EXPECT_FALSE(bool(read)) << "byte " << offset;
    llvm::consumeError(read.takeError());
  }
  // No binary at all.
  ModuleCacheRecord empty;
  llvm::Expected<ModuleCacheRecord> read =
      deserializeModuleCacheRecord(serializeModuleCacheRecord(empty));
  EXPECT_FALSE(bool(read));
  llvm::consumeError(read.takeError());
}

TEST(ModuleCacheRecord, UnknownSeverityIsAnError) {
  ModuleCacheRecord record = makeRecord();
  std::string payload = serializeModuleCacheRecord(record);
  // The first diagnostic's severity byte follows the first binary's
  // bytecode, its objects (a count and each), its report and its
  // diagnostic count.
  size_t offset = 8 + 4 + 8 + (8 + record.binaries[0].bytecode.size()) + 8;
  for (const std::string &object : record.binaries[0].objects)
    offset += 8 + object.size();
  offset += (8 + record.binaries[0].report.size()) + 8;
  ASSERT_EQ(payload[offset], char(DiagnosticSeverity::Warning));
  payload[offset] = 9;
  llvm::Expected<ModuleCacheRecord> read =
      deserializeModuleCacheRecord(payload);
  EXPECT_FALSE(bool(read));
  llvm::consumeError(read.takeError());
}

namespace {
/// A gpu.binary with two native objects, parsed.
struct TwoObjectBinary {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  gpu::BinaryOp binary;

  TwoObjectBinary() {
    context.loadDialect<gpu::GPUDialect, XPUDialect>();
    module = parseSourceString<ModuleOp>(
        R"mlir(gpu.binary @b [
          #gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, bin = "\7FELF\00one">,
          #gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, bin = "two">])mlir",
        &context);
    EXPECT_TRUE(module);
    binary = *module->getOps<gpu::BinaryOp>().begin();
  }
  std::string getBytes(unsigned index) {
    return cast<gpu::ObjectAttr>(binary.getObjects()[index]).getObject().str();
  }
};
} // namespace

TEST(ModuleCacheObjects, BytesLeaveTheBytecodeAndComeBack) {
  TwoObjectBinary b;
  Attribute before = b.binary.getObjectsAttr();
  std::vector<std::string> bytes = takeModuleCacheObjects(b.binary);
  ASSERT_EQ(bytes.size(), 2u);
  EXPECT_EQ(bytes[0], std::string("\x7f"
                                  "ELF\0one",
                                  8));
  EXPECT_EQ(bytes[1], "two");
  EXPECT_EQ(b.getBytes(0), "");
  EXPECT_EQ(b.getBytes(1), "");
  ASSERT_TRUE(succeeded(restoreModuleCacheObjects(b.binary, bytes)));
  // The same attribute as before: target, format and properties kept.
  EXPECT_EQ(b.binary.getObjectsAttr(), before);
}

TEST(ModuleCacheObjects, RecordsThatDoNotFitAreRefused) {
  TwoObjectBinary b;
  std::vector<std::string> bytes = takeModuleCacheObjects(b.binary);
  // One object's bytes missing, or one too many: a miss.
  EXPECT_TRUE(failed(restoreModuleCacheObjects(b.binary, {bytes[0]})));
  EXPECT_TRUE(failed(restoreModuleCacheObjects(
      b.binary, {bytes[0], bytes[1], std::string("three")})));
  // Objects that kept bytes in the bytecode (an entry written otherwise).
  TwoObjectBinary full;
  EXPECT_TRUE(failed(restoreModuleCacheObjects(full.binary, bytes)));
  EXPECT_EQ(full.getBytes(1), "two");
}
