//===- CompilerInstallation.cpp - Where a compiler is installed -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace mlir::xpu;

/// Library directories of an installation, relative to its root: Debian's
/// multiarch layout first (sid's packages), then the usual others (Intel's
/// tarballs, a plain prefix).
static constexpr StringLiteral kLibrarySubdirs[] = {"usr/lib/x86_64-linux-gnu",
                                                    "lib/x86_64-linux-gnu",
                                                    "usr/lib64",
                                                    "lib64",
                                                    "usr/local/lib",
                                                    "usr/lib",
                                                    "lib",
                                                    ""};

/// The system's library directories, for the worker's own dependencies
/// when it runs through the root's loader.
static constexpr StringLiteral kSystemLibraryDirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"};

static constexpr StringLiteral kLoaderName = "ld-linux-x86-64.so.2";

std::string CompilerInstallation::getLoaderLibraryPath() const {
  std::vector<std::string> dirs = libraryDirs;
  for (StringRef dir : kSystemLibraryDirs)
    dirs.push_back(dir.str());
  return join(dirs, ":");
}

std::vector<std::string> CompilerInstallation::getCompilerLibraryDirs() const {
  if (!isSystem())
    return libraryDirs;
  std::vector<std::string> dirs;
  for (StringRef dir : kSystemLibraryDirs)
    dirs.push_back(dir.str());
  return dirs;
}

std::string CompilerInstallation::describe() const {
  if (isSystem())
    return "the system's compiler";
  return formatv("the compiler in '{0}'", root).str();
}

std::string mlir::xpu::getRequestedCompilerRoot(StringRef dir) {
  if (dir == kSystemCompilerRoot)
    return "";
  if (!dir.empty())
    return dir.str();
  return sys::Process::GetEnv(kCompilerRootEnvVar).value_or("");
}

Expected<CompilerInstallation> mlir::xpu::resolveDefaultCompiler() {
  return resolveCompilerRoot(getRequestedCompilerRoot(""));
}

/// Whether `dir` holds a file whose name starts with `prefix`.
static bool hasFileStartingWith(StringRef dir, StringRef prefix) {
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (sys::path::filename(it->path()).starts_with(prefix))
      return true;
  return false;
}

static Error makeRootError(StringRef root, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           "compiler root '" + root + "' " + what);
}

Expected<CompilerInstallation> mlir::xpu::resolveCompilerRoot(StringRef dir) {
  CompilerInstallation result;
  if (dir.empty())
    return result;
  SmallString<256> root(dir);
  if (std::error_code ec = sys::fs::make_absolute(root))
    return makeRootError(dir, "cannot be made absolute: " + ec.message());
  sys::path::remove_dots(root, /*remove_dot_dot=*/true);
  if (!sys::fs::is_directory(root))
    return makeRootError(root, "does not exist or is not a directory");
  result.root = root.str().str();

  std::vector<std::string> looked;
  for (StringRef sub : kLibrarySubdirs) {
    SmallString<256> libDir(root);
    sys::path::append(libDir, sub);
    if (!sys::fs::is_directory(libDir))
      continue;
    result.libraryDirs.push_back(libDir.str().str());
    SmallString<256> candidate(libDir);
    sys::path::append(candidate, "libocloc.so");
    looked.push_back(candidate.str().str());
    if (result.oclocLibrary.empty() && sys::fs::is_regular_file(candidate))
      result.oclocLibrary = candidate.str().str();
    SmallString<256> loader(libDir);
    sys::path::append(loader, kLoaderName);
    if (result.loader.empty() && sys::fs::exists(loader))
      result.loader = loader.str().str();
  }
  if (result.oclocLibrary.empty())
    return makeRootError(
        root, formatv("has no libocloc.so (looked for {0}); point it at an "
                      "ocloc installation, e.g. one unpacked by "
                      "tools/install-compiler",
                      looked.empty() ? std::string("library directories")
                                     : join(looked, ", "))
                  .str());
  if (!llvm::any_of(result.libraryDirs, [](const std::string &libDir) {
        return hasFileStartingWith(libDir, "libigc.so");
      }))
    return makeRootError(root, "has libocloc.so but no IGC (libigc.so.*) "
                               "in its library directories");
  if (!result.loader.empty() && !sys::fs::can_execute(result.loader))
    return makeRootError(root, "has a dynamic loader '" + result.loader +
                                   "' that is not executable");
  return result;
}

static constexpr StringLiteral kDevicesPrefix = "\ndevices: ";

std::string
mlir::xpu::formatCompilerIdentity(const CompilerIdentity &identity) {
  if (identity.devices.empty())
    return identity.text;
  return identity.text + kDevicesPrefix.str() + join(identity.devices, " ");
}

CompilerIdentity mlir::xpu::parseCompilerIdentity(StringRef reply) {
  CompilerIdentity result;
  auto [text, devices] = reply.split(kDevicesPrefix);
  result.text = text.str();
  SmallVector<StringRef> names;
  devices.split(names, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names)
    result.devices.push_back(name.str());
  return result;
}

std::vector<std::string> mlir::xpu::parseOclocDeviceHelp(StringRef help) {
  std::vector<std::string> devices;
  size_t start = help.find("can be: ");
  if (start == StringRef::npos)
    return devices;
  StringRef list = help.drop_front(start + strlen("can be: "));
  list = list.take_until([](char c) { return c == '\n'; });
  SmallVector<StringRef> items;
  list.split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    // The list ends in prose: "version  or hexadecimal value ...".
    if (item.empty() || item.contains(' ') || item == "version")
      break;
    devices.push_back(item.str());
  }
  return devices;
}
