//===- CanonicalPrinting.cpp - IR text that no printing flag changes ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/CanonicalPrinting.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::xpu;

/// The hex threshold of a command line that does not set it (MLIR's
/// default): keys printed before the flags were pinned stay the same.
static constexpr int64_t kHexElementLimit = 100;

OpPrintingFlags mlir::xpu::getCanonicalPrintingFlags(bool withLocations) {
  // The optional elision limits cannot be reset once the command line set
  // them; a limit no attribute reaches elides nothing.
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(kNoLimit)
      .elideLargeResourceString(kNoLimit)
      .printLargeElementsAttrWithHex(kHexElementLimit)
      .enableDebugInfo(withLocations, /*prettyForm=*/false)
      .printGenericOpForm(true)
      .skipRegions(false)
      .assumeVerified(false)
      .useLocalScope(true)
      .printValueUsers(false)
      .printUniqueSSAIDs(false)
      .printNameLocAsPrefix(false);
  return flags;
}

std::string mlir::xpu::printCanonicalForm(Operation *op, bool withLocations) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, getCanonicalPrintingFlags(withLocations));
  return text;
}
