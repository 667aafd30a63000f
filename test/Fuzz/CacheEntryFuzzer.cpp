//===- CacheEntryFuzzer.cpp - libFuzzer target for cache entries ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Cache entries are files anyone may have written: the input is decoded as
// a whole entry, and (so that fuzzing gets past the checksum) wrapped into a
// valid entry whose payload is decoded as a cached build.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/CompileCache.h"

#include <cstddef>
#include <cstdint>

using mlir::xpu::CompileCache;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  static const std::string key(64, 'a');
  if (std::optional<llvm::StringRef> payload =
          CompileCache::decodeEntry(bytes, key))
    llvm::consumeError(
        mlir::xpu::deserializeBuildAttempt(*payload).takeError());
  std::string entry = CompileCache::encodeEntry(key, bytes);
  std::optional<llvm::StringRef> payload =
      CompileCache::decodeEntry(entry, key);
  if (!payload || *payload != bytes)
    __builtin_trap(); // A valid entry must decode to what was stored.
  llvm::consumeError(mlir::xpu::deserializeBuildAttempt(bytes).takeError());
  return 0;
}
