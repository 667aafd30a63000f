//===- ResultMessages.cpp - What a compile result says to its user --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/ResultMessages.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::xpu;

/// A runaway compiler message is cut at this many bytes in messages.
static constexpr size_t kMaxMessageExcerpt = 4096;

std::string mlir::xpu::getExcerpt(llvm::StringRef message) {
  if (message.size() <= kMaxMessageExcerpt)
    return message.str();
  return (message.take_front(kMaxMessageExcerpt) + "... [" +
          llvm::Twine(message.size() - kMaxMessageExcerpt) +
          " more bytes; the report has the full message]")
      .str();
}

std::string mlir::xpu::getFailureMessage(llvm::StringRef name,
                                         llvm::StringRef arch,
                                         llvm::StringRef message,
                                         llvm::StringRef linkedInto) {
  std::string linked =
      linkedInto.empty() ? "" : (" (linked into '" + linkedInto + "')").str();
  return llvm::formatv("module '{0}'{1} for arch '{2}' failed: {3}", name,
                       linked, arch, getExcerpt(message))
      .str();
}

std::string mlir::xpu::getStartFailureMessage(llvm::StringRef why) {
  return ("cannot start the native compiler: " + why).str();
}

/// Whether the user forced the mode `result` was built in (one build, in
/// the mode `policy` names): its spills are then the user's to know about.
static bool isForcedMode(const ModuleCompileResult &result, GRFMode policy) {
  const GRFDecision &decision = result.decision;
  return decision.attempts.size() == 1 &&
         getForcedBuildGRF(policy) == decision.getChosen().mode;
}

std::vector<ResultMessage>
mlir::xpu::getResultMessages(const ModuleCompileResult &result, GRFMode policy,
                             bool remarks) {
  using Kind = ResultMessage::Kind;
  std::vector<ResultMessage> messages;
  const GRFDecision &decision = result.decision;
  const BuildAttempt &chosen = decision.getChosen();
  if (!result.validation.empty())
    messages.push_back(
        {Kind::Warning, "",
         "SPIRV-Tools rejects the SPIR-V of '" + result.name +
             "' (compiled anyway in an isolated worker; validate-spirv=strict "
             "makes this an error): " +
             getExcerpt(result.validation),
         ""});
  for (const std::string &warning : decision.launchWarnings)
    messages.push_back({Kind::Warning, "",
                        "module '" + result.name + "' for arch '" +
                            result.arch + "': " + warning,
                        ""});
  if (remarks)
    messages.push_back(
        {Kind::Remark, "",
         llvm::formatv("'{0}' on {1}: {2} GRF (n_regs = {3}, {4} bytes "
                       "spilled, backend {5}): {6}",
                       result.name, result.arch, getEffectiveGRFMode(chosen),
                       result.nRegs, chosen.spillSize, result.backend,
                       decision.reason)
             .str(),
         ""});
  if (!isForcedMode(result, policy))
    return messages;
  for (const KernelMeasurement &kernel : chosen.kernels)
    if (kernel.spillSize > 0)
      messages.push_back(
          {Kind::Warning, kernel.name, "kernel '",
           llvm::formatv("' spills {0} bytes per thread in {1} on {2}",
                         kernel.spillSize, describeBuildGRF(chosen.mode),
                         result.arch)
               .str()});
  return messages;
}
