//===- WorkerTestSupport.h - Helpers of the worker pool tests ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The requests (test/Inputs/Worker) and checks the worker pool tests share.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_UNITTESTS_WORKER_WORKERTESTSUPPORT_H
#define XPUCODEGEN_UNITTESTS_WORKER_WORKERTESTSUPPORT_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace mlir::xpu::test {

template <typename T> inline std::string errorText(llvm::Expected<T> &value) {
  return value ? std::string() : llvm::toString(value.takeError());
}

#define ASSERT_OK(value) ASSERT_TRUE(bool(value)) << errorText(value)

inline std::vector<char> readInput(llvm::StringRef name) {
  llvm::SmallString<256> path(XPU_WORKER_TEST_INPUTS);
  llvm::sys::path::append(path, name);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file) {
    ADD_FAILURE() << "cannot read " << path.str().str();
    return {};
  }
  return std::vector<char>((*file)->getBufferStart(), (*file)->getBufferEnd());
}

/// The path of `name` in test/Inputs/Worker.
inline std::string workerInput(llvm::StringRef name) {
  llvm::SmallString<256> path(XPU_WORKER_TEST_INPUTS);
  llvm::sys::path::append(path, name);
  return path.str().str();
}

/// test/Inputs/Worker/fake-worker.py, a worker that misbehaves on purpose.
inline std::string fakeWorker() { return workerInput("fake-worker.py"); }

/// Sets an environment variable for the scope (workers inherit it).
struct ScopedEnv {
  ScopedEnv(const char *name, const std::string &value) : name(name) {
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
  const char *name;
};

inline WorkerRequest request(llvm::StringRef input, std::string options = "") {
  WorkerRequest req;
  req.device = "pvc";
  req.options = std::move(options);
  req.spirv = readInput(input);
  return req;
}

inline bool isZebin(const std::vector<char> &binary) {
  // ELF magic and e_machine EM_INTELGT (0xcd).
  return binary.size() > 20 &&
         llvm::StringRef(binary.data(), 4) == "\x7f"
                                              "ELF" &&
         uint8_t(binary[18]) == 0xcd && binary[19] == 0;
}

inline bool haveOcloc() {
  if (const char *env = std::getenv("XPU_CODEGEN_OCLOC_LIBRARY"))
    return llvm::sys::fs::exists(env);
  for (llvm::StringRef dir :
       {"/usr/lib/x86_64-linux-gnu", "/usr/local/lib", "/usr/lib"})
    if (llvm::sys::fs::exists(dir + llvm::Twine("/libocloc.so")))
      return true;
  return false;
}

} // namespace mlir::xpu::test

#endif // XPUCODEGEN_UNITTESTS_WORKER_WORKERTESTSUPPORT_H
