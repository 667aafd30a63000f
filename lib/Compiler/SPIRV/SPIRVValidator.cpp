//===- SPIRVValidator.cpp - Screen SPIR-V before IGC sees it --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include "spirv-tools/libspirv.hpp"

#include <cstring>
#include <functional>
#include <vector>

using namespace mlir::xpu;

static constexpr uint32_t kSPIRVMagic = 0x07230203;

llvm::StringRef mlir::xpu::stringifySPIRVValidation(SPIRVValidation mode) {
  switch (mode) {
  case SPIRVValidation::Warn:
    return "warn";
  case SPIRVValidation::Strict:
    return "strict";
  case SPIRVValidation::Off:
    return "off";
  }
  llvm_unreachable("unknown validation mode");
}

std::optional<SPIRVValidation>
mlir::xpu::parseSPIRVValidation(llvm::StringRef text) {
  for (SPIRVValidation mode :
       {SPIRVValidation::Warn, SPIRVValidation::Strict, SPIRVValidation::Off})
    if (text == stringifySPIRVValidation(mode))
      return mode;
  return std::nullopt;
}

bool mlir::xpu::isSPIRV(llvm::ArrayRef<char> bytes) {
  if (bytes.size() < 4)
    return false;
  uint32_t word = llvm::support::endian::read32le(bytes.data());
  return word == kSPIRVMagic || llvm::byteswap(word) == kSPIRVMagic;
}

/// Collects SPIRV-Tools' messages into `messages`, each as `format` with the
/// position `where` picks ({0}) and the message ({1}).
static void
collectMessages(spvtools::SpirvTools &tools, std::vector<std::string> &messages,
                const char *format,
                std::function<size_t(const spv_position_t &)> where) {
  tools.SetMessageConsumer([&messages, format,
                            where](spv_message_level_t, const char *,
                                   const spv_position_t &position,
                                   const char *message) {
    messages.push_back(llvm::formatv(format, where(position), message).str());
  });
}

llvm::Error mlir::xpu::validateSPIRV(llvm::ArrayRef<char> spirv) {
  if (!isSPIRV(spirv))
    return llvm::createStringError(
        "not a SPIR-V module (no SPIR-V magic number in the first 4 bytes)");
  if (spirv.size() % 4 != 0)
    return llvm::createStringError(llvm::formatv(
        "truncated SPIR-V module: {0} bytes is not a whole number of words",
        spirv.size()));

  // SPIRV-Tools needs about 50 times a module's size in memory and runs in
  // the host: beyond the cap the module goes unvalidated (warn) to the
  // isolated, limited worker, or is refused (strict).
  if (spirv.size() > kMaxValidatedSPIRVSize)
    return llvm::createStringError(llvm::formatv(
        "SPIR-V module of {0} MiB is too large to validate in the host "
        "(limit {1} MiB)",
        spirv.size() >> 20, kMaxValidatedSPIRVSize >> 20));

  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());

  std::vector<std::string> messages;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  collectMessages(tools, messages, "instruction {0}: {1}",
                  [](const spv_position_t &at) { return at.index; });
  if (tools.Validate(words))
    return llvm::Error::success();
  if (messages.empty())
    messages.push_back("the validator rejected the module");
  return llvm::createStringError("invalid SPIR-V: " +
                                 llvm::join(messages, "; "));
}

llvm::Expected<std::vector<char>>
mlir::xpu::assembleSPIRV(llvm::StringRef text) {
  std::vector<std::string> messages;
  // The version LLVM 22's SPIR-V backend writes and IGC 1.0.12504 accepts.
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  collectMessages(tools, messages, "line {0}: {1}",
                  [](const spv_position_t &at) { return at.line + 1; });
  // MLIR's serializer leaves the C string's terminator in the attribute.
  text = text.rtrim(llvm::StringRef("\0", 1));
  std::vector<uint32_t> words;
  if (!tools.Assemble(text.data(), text.size(), &words)) {
    if (messages.empty())
      messages.push_back("the assembler rejected the text");
    return llvm::createStringError("cannot assemble the SPIR-V text: " +
                                   llvm::join(messages, "; "));
  }
  std::vector<char> bytes(words.size() * sizeof(uint32_t));
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}
