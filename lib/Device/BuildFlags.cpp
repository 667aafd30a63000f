//===- BuildFlags.cpp - Which user build options are allowed --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Device/BuildFlags.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace llvm;

bool mlir::xpu::pinsGRFOrThreads(StringRef flag) {
  std::string lower = flag.lower();
  StringRef text = lower;
  // -cl-intel-reqd-eu-thread-count=N asks for a thread count that only
  // some register counts give (compute-runtime 26.14+ refuses the module at
  // zeModuleCreate when the two disagree).
  return text.contains("grf") || text.contains("register-file") ||
         text.contains("thread-per-eu") || text.contains("threads-per-eu") ||
         text.contains("thread-count");
}

Error mlir::xpu::checkExtraFlags(StringRef flags) {
  SmallVector<StringRef> parts;
  SplitString(flags, parts);
  for (StringRef flag : parts)
    if (pinsGRFOrThreads(flag))
      return createStringError(
          inconvertibleErrorCode(),
          "build option '" + flag +
              "' pins the register file or the thread count; the GRF mode "
              "alone decides them (use grf_mode small, large, default or "
              "auto)");
  return Error::success();
}
