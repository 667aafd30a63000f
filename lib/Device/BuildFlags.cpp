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
  return text.contains("grf") || text.contains("register-file") ||
         text.contains("thread-per-eu") || text.contains("threads-per-eu");
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
