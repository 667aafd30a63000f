//===- embedder.cpp - A parent project's program --------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Prints the device table's valid names, through the embedded project's
// XPUCodegen::XPUCodegenDeviceTable.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/Support/raw_ostream.h"

int main() {
  llvm::outs() << "devices: " << mlir::xpu::getValidDeviceNames() << "\n";
  return 0;
}
