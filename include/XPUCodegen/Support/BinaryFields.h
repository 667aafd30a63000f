//===- BinaryFields.h - Little-endian fields on LLVM's readers ---*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The field encoding shared by cache entries and the worker protocol: fixed
// little-endian integers and byte strings prefixed with their u64 length,
// written with llvm::support::endian::Writer and read with
// llvm::DataExtractor, whose cursor turns every read past the end into one
// sticky error (and zero values) so decoders read everything and check once.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_BINARYFIELDS_H
#define XPUCODEGEN_SUPPORT_BINARYFIELDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::xpu {

/// Appends fields to a byte string.
class BinaryFieldWriter {
public:
  BinaryFieldWriter() : stream(out), writer(stream, llvm::endianness::little) {}

  template <typename T> void write(T value) { writer.write<T>(value); }
  void writeF64(double value) {
    writer.write<uint64_t>(llvm::bit_cast<uint64_t>(value));
  }
  /// A u64 length, then the bytes.
  void writeBytes(llvm::StringRef bytes) {
    writer.write<uint64_t>(bytes.size());
    stream << bytes;
  }
  void writeRaw(llvm::StringRef bytes) { stream << bytes; }

  std::string take() { return std::move(out); }

private:
  std::string out;
  llvm::raw_string_ostream stream;
  llvm::support::endian::Writer writer;
};

/// Reads fields back through a DataExtractor cursor.
class BinaryFieldReader {
public:
  explicit BinaryFieldReader(llvm::StringRef data)
      : data(data, /*IsLittleEndian=*/true, /*AddressSize=*/8) {}
  ~BinaryFieldReader() { llvm::consumeError(cursor.takeError()); }

  uint8_t readU8() { return data.getU8(cursor); }
  uint16_t readU16() { return data.getU16(cursor); }
  uint32_t readU32() { return data.getU32(cursor); }
  uint64_t readU64() { return data.getU64(cursor); }
  int32_t readI32() { return int32_t(readU32()); }
  int64_t readI64() { return int64_t(readU64()); }
  double readF64() { return llvm::bit_cast<double>(readU64()); }
  /// A u64 length, then that many bytes (empty after any failure).
  llvm::StringRef readBytes() { return readRaw(readU64()); }
  llvm::StringRef readRaw(uint64_t size) { return data.getBytes(cursor, size); }
  /// An element count, refused (0 and failed) when the remaining bytes cannot
  /// hold that many elements of at least `minSize` bytes: bounds reserve().
  uint64_t readCount(uint64_t minSize) {
    uint64_t count = readU64();
    if (!failed() && count > remaining() / minSize) {
      fail();
      return 0;
    }
    return count;
  }

  /// Makes every later read fail (a semantic check the caller made).
  void fail() {
    if (!failed())
      (void)data.getBytes(cursor, remaining() + 1);
  }
  bool failed() const { return !cursor; }
  uint64_t remaining() const {
    return failed() ? 0 : data.size() - cursor.tell();
  }
  bool atEnd() const { return !failed() && data.eof(cursor); }

private:
  llvm::DataExtractor data;
  /// Mutable: the cursor's success test is not const.
  mutable llvm::DataExtractor::Cursor cursor{0};
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_SUPPORT_BINARYFIELDS_H
