//===- OutputFile.cpp - Atomic, write-through output files ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/OutputFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace {
/// As many links as the kernel follows (MAXSYMLINKS).
constexpr unsigned kMaxLinks = 40;

/// The reason only: callers say what they were writing and where.
Error makeError(StringRef path, const Twine &what, int error) {
  (void)path;
  return createStringError(std::error_code(error, std::generic_category()),
                           what + (what.isTriviallyEmpty() ? "" : ": ") +
                               std::strerror(error));
}

/// Writes all of `contents` to `fd`.
int writeAll(int fd, StringRef contents) {
  while (!contents.empty()) {
    ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return errno;
    if (n == 0)
      return EIO;
    contents = contents.drop_front(size_t(n));
  }
  return 0;
}

/// In place, for what is not a regular file: never truncated or replaced,
/// never blocking (a FIFO without a reader is an error, not a hang).
Error writeInPlace(StringRef path, const std::string &target,
                   StringRef contents) {
  int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return makeError(path, "", errno);
  scope_exit closeFd([&] { ::close(fd); });
  // Blocking from here on: a FIFO reader or a device takes its time.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (int error = writeAll(fd, contents))
    return makeError(path, "", error);
  return Error::success();
}
} // namespace

Expected<std::string> mlir::xpu::resolveOutputPath(StringRef path) {
  SmallString<256> current(path);
  for (unsigned links = 0;; ++links) {
    struct stat st;
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
      return std::string(current);
    if (links == kMaxLinks)
      return makeError(path, "", ELOOP);
    char buffer[PATH_MAX];
    ssize_t size = ::readlink(current.c_str(), buffer, sizeof(buffer) - 1);
    if (size < 0)
      return makeError(path, "", errno);
    StringRef link(buffer, size_t(size));
    if (sys::path::is_absolute(link)) {
      current = link;
    } else {
      SmallString<256> next(sys::path::parent_path(current));
      sys::path::append(next, link);
      current = std::move(next);
    }
  }
}

Error mlir::xpu::writeOutputFile(StringRef path, StringRef contents) {
  Expected<std::string> target = resolveOutputPath(path);
  if (!target)
    return target.takeError();
  struct stat st;
  bool exists = ::stat(target->c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    return makeError(path, "", EISDIR);
  if (exists && !S_ISREG(st.st_mode))
    return writeInPlace(path, *target, contents);

  // A temporary file beside the target (rename is atomic only within a
  // file system), renamed onto it: the link, if any, stays.
  SmallString<256> model(sys::path::parent_path(*target));
  sys::path::append(model,
                    "." + sys::path::filename(*target).str() + ".tmp-%%%%%%%%");
  int fd;
  SmallString<256> temp;
  if (std::error_code ec =
          sys::fs::createUniqueFile(model, fd, temp, sys::fs::OF_None, 0666))
    return makeError(path,
                     "cannot create a temporary file in '" +
                         sys::path::parent_path(*target) + "'",
                     ec.value());
  scope_exit removeTemp([&] { ::unlink(temp.c_str()); });
  int error = writeAll(fd, contents);
  // Keep the permissions of the file being replaced.
  if (!error && exists && ::fchmod(fd, st.st_mode & 07777) != 0)
    error = errno;
  if (::close(fd) != 0 && !error)
    error = errno;
  if (error)
    return makeError(path, "", error);
  if (::rename(temp.c_str(), target->c_str()) != 0)
    return makeError(path, "", errno);
  removeTemp.release();
  return Error::success();
}
