//===- ZebinFuzzer.cpp - libFuzzer target for the zebin reader ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Zebins come from a compiler that may be handed anything, and from users
// (`inspect`, read_zebin()): any bytes must read as a zebin or an error.
// The input is tried as a whole ELF file and as the YAML of a .ze_info.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/Zebin.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::consumeError(mlir::xpu::readZebin(bytes).takeError());
  llvm::consumeError(mlir::xpu::parseZeInfo(bytes).takeError());
  return 0;
}
