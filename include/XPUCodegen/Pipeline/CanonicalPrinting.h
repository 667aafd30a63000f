//===- CanonicalPrinting.h - IR text that no printing flag changes -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Keys taken over printed IR (the module cache's digests, the dedupe pass's
// keys) must not depend on how the user asked for IR to be printed. A
// default-constructed OpPrintingFlags reads the `--mlir-print-*` and
// `--mlir-elide-*` command-line options: with
// `--mlir-elide-elementsattrs-if-larger`, two modules that differ only in a
// large constant print the same, and `--mlir-print-skip-regions` drops
// every body. These helpers set every field of the flags explicitly, so the
// text is a function of the IR alone: generic form, local scope, no
// elision, the default hex threshold, no value users, no unique or
// NameLoc-derived SSA names, and locations only when asked for (never in
// the pretty form). The printer writes through raw_ostream and APFloat,
// which use no locale.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_CANONICALPRINTING_H
#define XPUCODEGEN_PIPELINE_CANONICALPRINTING_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"

#include <string>

namespace mlir::xpu {

/// Printing flags with every field pinned, whatever the command line says;
/// locations are printed (in the plain form) only with `withLocations`.
OpPrintingFlags getCanonicalPrintingFlags(bool withLocations);

/// The text of `op` printed with getCanonicalPrintingFlags(withLocations).
std::string printCanonicalForm(Operation *op, bool withLocations);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_CANONICALPRINTING_H
