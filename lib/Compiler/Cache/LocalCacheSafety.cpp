//===- LocalCacheSafety.cpp - The local tier on shared machines -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/LocalCacheSafety.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <unistd.h>

using namespace llvm;
using namespace mlir::xpu;

Error mlir::xpu::checkNotForeignWritable(const struct stat &st, StringRef path,
                                         StringRef what) {
  if (st.st_uid != ::geteuid() && st.st_uid != 0)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("{0} '{1}' belongs to another user (uid {2})", what, path,
                unsigned(st.st_uid)));
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return createStringError(
        inconvertibleErrorCode(),
        formatv("{0} '{1}' is writable by other users (mode {2})", what, path,
                format("%o", unsigned(st.st_mode & 07777))));
  return Error::success();
}

Error mlir::xpu::checkCacheDirectories(StringRef directory,
                                       StringRef layoutDir) {
  for (StringRef path : {directory, layoutDir}) {
    // What does not exist is created by us on the first store; what is not
    // a directory makes that store fail and every lookup miss anyway.
    struct stat st;
    if (::stat(path.str().c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return Error::success();
    if (Error error = checkNotForeignWritable(st, path, "cache directory"))
      return error;
  }
  return Error::success();
}

std::shared_ptr<LocalCacheWarnings>
LocalCacheWarnings::get(StringRef directory) {
  static std::mutex mutex;
  static auto *states = new StringMap<std::shared_ptr<LocalCacheWarnings>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<LocalCacheWarnings> &state = (*states)[directory];
  if (!state)
    state = std::make_shared<LocalCacheWarnings>();
  return state;
}

void LocalCacheWarnings::refuse(Error error) {
  std::string message = toString(std::move(error));
  std::lock_guard<std::mutex> lock(mutex);
  if (std::exchange(warned, true))
    return;
  warnings.push_back(message +
                     ": not trusted (another user could have written it); "
                     "fix its owner and mode (chmod go-w)");
}

std::vector<std::string> LocalCacheWarnings::take() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::exchange(warnings, {});
}
