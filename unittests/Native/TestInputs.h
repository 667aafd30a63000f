//===- TestInputs.h - Shared helpers for the native unit tests --*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H
#define XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H

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

} // namespace mlir::xpu::test

#endif // XPUCODEGEN_UNITTESTS_NATIVE_TESTINPUTS_H
