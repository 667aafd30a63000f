//===- TestInputs.h - Shared helpers for the native unit tests --*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H
#define XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <string>

namespace mlir::xpu::test {

/// Contents of a file under test/Inputs/Native (see its README.md);
/// fails the test when it is missing.
inline std::string readInput(llvm::StringRef name) {
  std::string path = (llvm::Twine(XPU_NATIVE_TEST_INPUTS) + "/" + name).str();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  return (*buffer)->getBuffer().str();
}

/// A successful worker reply carrying `<stem>.zebin` and `<stem>.log` from
/// test/Inputs/Native.
inline WorkerResponse responseFor(llvm::StringRef stem) {
  WorkerResponse response;
  response.succeeded = true;
  std::string binary = readInput((stem + ".zebin").str());
  response.binary.assign(binary.begin(), binary.end());
  response.log = readInput((stem + ".log").str());
  response.compileMs = 12.5;
  return response;
}

} // namespace mlir::xpu::test

#endif // XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H
