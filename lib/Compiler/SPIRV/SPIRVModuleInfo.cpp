//===- SPIRVModuleInfo.cpp - Facts read from a SPIR-V binary --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/SPIRV/SPIRVModuleInfo.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include "spirv-tools/libspirv.h"

#include <cstring>
#include <memory>

using namespace mlir::xpu;

// SPIR-V specification numbers (no SPIR-V headers are installed).
static constexpr uint16_t kOpEntryPoint = 15;
static constexpr uint16_t kOpExecutionMode = 16;
static constexpr uint32_t kExecutionModelKernel = 6;
static constexpr uint32_t kExecutionModeLocalSize = 17;
static constexpr uint32_t kExecutionModeSubgroupSize = 35;

std::optional<uint32_t> mlir::xpu::getCommonRequiredSubgroupSize(
    llvm::ArrayRef<SPIRVKernelInfo> kernels) {
  std::optional<uint32_t> common;
  for (const SPIRVKernelInfo &kernel : kernels) {
    uint32_t size = kernel.subgroupSize.value_or(0);
    if (common && *common != size)
      return std::nullopt;
    common = size;
  }
  return common;
}

namespace {
/// Collects entry points and their modes while SPIRV-Tools walks the module.
struct InfoCollector {
  SPIRVModuleInfo info;
  /// Function id -> index in info.kernels.
  llvm::DenseMap<uint32_t, size_t> kernelIndex;

  /// Operand `index` as a string literal (nul-terminated, little-endian
  /// bytes packed into words).
  static std::string getString(const spv_parsed_instruction_t &inst,
                               unsigned index) {
    const spv_parsed_operand_t &operand = inst.operands[index];
    std::string text;
    for (unsigned i = 0; i < operand.num_words; ++i) {
      uint32_t word = inst.words[operand.offset + i];
      for (unsigned byte = 0; byte < 4; ++byte) {
        char c = static_cast<char>((word >> (8 * byte)) & 0xff);
        if (c == '\0')
          return text;
        text.push_back(c);
      }
    }
    return text;
  }

  static uint32_t getWord(const spv_parsed_instruction_t &inst,
                          unsigned index) {
    return inst.words[inst.operands[index].offset];
  }

  void addEntryPoint(const spv_parsed_instruction_t &inst) {
    if (inst.num_operands < 3 || getWord(inst, 0) != kExecutionModelKernel)
      return;
    kernelIndex[getWord(inst, 1)] = info.kernels.size();
    info.kernels.push_back({getString(inst, 2), std::nullopt, std::nullopt});
  }

  void addExecutionMode(const spv_parsed_instruction_t &inst) {
    if (inst.num_operands < 3)
      return;
    auto it = kernelIndex.find(getWord(inst, 0));
    if (it == kernelIndex.end())
      return;
    SPIRVKernelInfo &kernel = info.kernels[it->second];
    uint32_t mode = getWord(inst, 1);
    if (mode == kExecutionModeSubgroupSize)
      kernel.subgroupSize = getWord(inst, 2);
    else if (mode == kExecutionModeLocalSize && inst.num_operands >= 5)
      kernel.localSize = {getWord(inst, 2), getWord(inst, 3), getWord(inst, 4)};
  }

  static spv_result_t onInstruction(void *userData,
                                    const spv_parsed_instruction_t *inst) {
    auto *self = static_cast<InfoCollector *>(userData);
    if (inst->opcode == kOpEntryPoint)
      self->addEntryPoint(*inst);
    else if (inst->opcode == kOpExecutionMode)
      self->addExecutionMode(*inst);
    return SPV_SUCCESS;
  }
};
} // namespace

llvm::Expected<SPIRVModuleInfo>
mlir::xpu::readSPIRVModuleInfo(llvm::ArrayRef<char> spirv) {
  if (!isSPIRV(spirv) || spirv.size() % 4 != 0)
    return llvm::createStringError("not a SPIR-V module");
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());

  std::unique_ptr<spv_context_t, decltype(&spvContextDestroy)> context(
      spvContextCreate(SPV_ENV_UNIVERSAL_1_6), spvContextDestroy);
  InfoCollector collector;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvBinaryParse(
      context.get(), &collector, words.data(), words.size(),
      /*parse_header=*/nullptr, InfoCollector::onInstruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    std::string message =
        diagnostic && diagnostic->error ? diagnostic->error : "parse error";
    spvDiagnosticDestroy(diagnostic);
    return llvm::createStringError(
        llvm::formatv("cannot parse the SPIR-V module: {0}", message));
  }
  return std::move(collector.info);
}
