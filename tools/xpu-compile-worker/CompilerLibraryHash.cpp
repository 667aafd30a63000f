//===- CompilerLibraryHash.cpp - What identifies a compiler library -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Kept apart from OclocBackend.cpp: <link.h> there defines the ELF constants
// as macros, which LLVM's ELF reader here spells as enumerators.
//
//===----------------------------------------------------------------------===//

#include "CompilerLibraryHash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <optional>

using namespace llvm;

namespace mlir::xpu::worker {

/// The GNU build ID note of an ELF64 file, hex; std::nullopt when it has
/// none (or is not one).
static std::optional<std::string> findBuildID(StringRef bytes) {
  Expected<object::ELF64LEFile> elf = object::ELF64LEFile::create(bytes);
  if (!elf) {
    consumeError(elf.takeError());
    return std::nullopt;
  }
  Expected<object::ELF64LEFile::Elf_Phdr_Range> headers =
      elf->program_headers();
  if (!headers) {
    consumeError(headers.takeError());
    return std::nullopt;
  }
  std::optional<std::string> found;
  for (const object::ELF64LEFile::Elf_Phdr &header : *headers) {
    if (header.p_type != ELF::PT_NOTE || found)
      continue;
    Error error = Error::success();
    for (const object::ELF64LEFile::Elf_Note &note : elf->notes(header, error))
      if (!found && note.getType() == ELF::NT_GNU_BUILD_ID &&
          note.getName() == ELF::ELF_NOTE_GNU)
        found = toHex(note.getDesc(header.p_align), /*LowerCase=*/true);
    consumeError(std::move(error));
  }
  return found;
}

/// What identifies one compiler library: its build ID (the hash the linker
/// wrote of what it linked) and size when it has one, which reads a few
/// pages instead of the whole file (IGC 2.40's are 248 MB: ~0.1 s of a
/// cold run); else its contents.
Expected<uint64_t> hashCompilerLibrary(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return createStringError(
        file.getError(),
        formatv("cannot read '{0}' to identify the compiler", path));
  StringRef bytes = (*file)->getBuffer();
  if (std::optional<std::string> buildID = findBuildID(bytes))
    return xxh3_64bits(
        formatv("build-id {0} size {1}", *buildID, bytes.size()).str());
  return xxh3_64bits(arrayRefFromStringRef(bytes));
}

} // namespace mlir::xpu::worker
