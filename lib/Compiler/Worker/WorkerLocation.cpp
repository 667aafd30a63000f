//===- WorkerLocation.cpp - Where the worker executables are
//----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Finds xpu-compile-worker and xpu-spirv-emitter relative to the library or
// executable holding this code (build and install trees), then registered
// paths, then the configured install directory.
//
//===----------------------------------------------------------------------===//

#include "WorkerProcess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define DEBUG_TYPE "xpu-worker"

using namespace llvm;

#include <dlfcn.h>
#include <mutex>

namespace mlir::xpu {

namespace {
/// Directories, relative to a directory holding XPUCodegen code, where the
/// worker is in the build and install trees: configured by
/// lib/Compiler/Worker/CMakeLists.txt from the install layout (":"-separated).
#ifndef XPU_WORKER_RELATIVE_DIRS
#define XPU_WORKER_RELATIVE_DIRS "../bin"
#endif
/// The configured install directory of the worker (absolute).
#ifndef XPU_WORKER_INSTALL_DIR
#define XPU_WORKER_INSTALL_DIR ""
#endif

std::mutex registeredMutex;
std::vector<std::string> &registeredWorkers() {
  static std::vector<std::string> paths;
  return paths;
}

void addCandidate(std::vector<std::string> &candidates, StringRef dir,
                  StringRef sub, StringRef name) {
  if (dir.empty())
    return;
  SmallString<256> candidate(dir);
  sys::path::append(candidate, sub, name);
  sys::path::remove_dots(candidate, /*remove_dot_dot=*/true);
  if (!llvm::is_contained(candidates, candidate.str()))
    candidates.push_back(candidate.str().str());
}

/// Where a worker may be, in search order: next to (or in the configured
/// relative directories of) the object holding this code and the main
/// executable, then the paths registered by the program, then the configured
/// install directory.
} // namespace

std::vector<std::string> detail::workerCandidates(WorkerProgram program) {
  StringRef name = getWorkerProgramName(program);
  std::vector<std::string> bases;
  Dl_info info;
  if (::dladdr(reinterpret_cast<void *>(&findWorkerExecutable), &info) &&
      info.dli_fname && *info.dli_fname)
    bases.push_back(info.dli_fname);
  static int anchor;
  bases.push_back(sys::fs::getMainExecutable(nullptr, &anchor));

  SmallVector<StringRef, 4> relativeDirs;
  StringRef(XPU_WORKER_RELATIVE_DIRS)
      .split(relativeDirs, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);

  std::vector<std::string> candidates;
  for (const std::string &base : bases) {
    if (base.empty())
      continue;
    SmallString<256> object(base);
    (void)sys::fs::make_absolute(object);
    SmallVector<SmallString<256>, 2> dirs{
        SmallString<256>(sys::path::parent_path(object))};
    // Also relative to where a symlinked library really lives.
    SmallString<256> real;
    if (!sys::fs::real_path(object, real))
      dirs.emplace_back(sys::path::parent_path(real));
    for (const SmallString<256> &dir : dirs) {
      addCandidate(candidates, dir, "", name);
      for (StringRef sub : relativeDirs)
        addCandidate(candidates, dir, sub, name);
    }
  }
  {
    std::lock_guard<std::mutex> lock(registeredMutex);
    // Registered paths name the compiler worker; the package's other
    // programs are installed beside it.
    for (const std::string &path : registeredWorkers()) {
      if (program == WorkerProgram::CompileWorker) {
        if (!llvm::is_contained(candidates, path))
          candidates.push_back(path);
        continue;
      }
      addCandidate(candidates, sys::path::parent_path(path), "", name);
    }
  }
  addCandidate(candidates, XPU_WORKER_INSTALL_DIR, "", name);
  return candidates;
}

void registerWorkerExecutable(StringRef path) {
  if (path.empty())
    return;
  std::lock_guard<std::mutex> lock(registeredMutex);
  if (!llvm::is_contained(registeredWorkers(), path))
    registeredWorkers().push_back(path.str());
}

StringRef getWorkerProgramName(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "xpu-spirv-emitter"
                                                : "xpu-compile-worker";
}

StringRef getWorkerProgramEnvVar(WorkerProgram program) {
  return program == WorkerProgram::SPIRVEmitter ? "XPU_CODEGEN_SPIRV_EMITTER"
                                                : "XPU_CODEGEN_WORKER";
}

std::string findWorkerExecutable(WorkerProgram program) {
  if (const char *env =
          std::getenv(getWorkerProgramEnvVar(program).str().c_str());
      env && *env)
    return env;
  for (const std::string &candidate : detail::workerCandidates(program))
    if (sys::fs::can_execute(candidate) && !sys::fs::is_directory(candidate))
      return candidate;
  return "";
}

} // namespace mlir::xpu
