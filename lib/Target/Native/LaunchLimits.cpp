//===- LaunchLimits.cpp - whether a build can launch
//------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Work-group sizes and per-thread scratch against the device table, before
// and after a build.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Native/GRFBuild.h"
#include "XPUCodegen/Target/Native/Zebin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::xpu;

//===----------------------------------------------------------------------===//
// Launch limits
//===----------------------------------------------------------------------===//

/// Registers per thread that `mode` pins on `device` before building;
/// 0 when only the binary will tell (IGC's auto flag).
static unsigned getModeRegisters(BuildGRF mode, const DeviceInfo &device) {
  switch (mode) {
  case BuildGRF::Small:
  case BuildGRF::Large:
  case BuildGRF::XLarge:
    return static_cast<unsigned>(getNRegs(mode));
  case BuildGRF::Default:
    return device.grfModes.front().registers;
  case BuildGRF::IGCAuto:
    return 0;
  }
  return 0;
}

uint64_t LaunchLimits::getWorkGroupSize(StringRef kernel) const {
  for (const KernelWorkGroup &known : kernels)
    if (known.name == kernel && known.size)
      return known.size;
  return defaultWorkGroupSize;
}

/// "kernel 'k' has a work-group of 1024 work-items; 256-register mode on pvc
/// runs at most 512 at SIMD16 (8 vector engines x 4 threads x 16 lanes)".
static std::string describeWorkGroupLimit(StringRef kernel, uint64_t size,
                                          const DeviceInfo &device,
                                          unsigned registers, unsigned simd) {
  std::string text;
  raw_string_ostream os(text);
  os << "kernel '" << kernel << "' has a work-group of " << size
     << " work-items; " << registers << "-register GRF mode on " << device.name
     << " runs at most " << device.getMaxWorkGroupSize(registers, simd)
     << " at SIMD" << simd;
  if (unsigned threads = device.getThreadsPerEU(registers))
    os << " (" << device.eusPerCore << " vector engines x " << threads
       << " threads x " << simd << " lanes, device limit "
       << device.maxWorkGroupSize << ")";
  return text;
}

std::optional<WorkGroupLimit>
LaunchLimits::checkBeforeBuild(BuildGRF mode) const {
  if (!device)
    return std::nullopt;
  unsigned registers = getModeRegisters(mode, *device);
  if (!registers || !device->getGRFMode(registers))
    return std::nullopt;
  unsigned widest =
      device->subgroupSizes.empty() ? 32 : device->subgroupSizes.back();
  auto check = [&](StringRef name, uint64_t size,
                   unsigned simd) -> std::optional<WorkGroupLimit> {
    uint64_t limit = device->getMaxWorkGroupSize(registers, simd);
    if (!size || size <= limit)
      return std::nullopt;
    return WorkGroupLimit{
        describeWorkGroupLimit(name, size, *device, registers, simd), size,
        limit};
  };
  for (const KernelWorkGroup &kernel : kernels)
    if (std::optional<WorkGroupLimit> limit =
            check(kernel.name, getWorkGroupSize(kernel.name),
                  kernel.requiredSimd ? kernel.requiredSimd : widest))
      return limit;
  // Kernels unknown before the build: the option's size at the widest SIMD.
  if (kernels.empty())
    return check("*", defaultWorkGroupSize, widest);
  return std::nullopt;
}

Error LaunchLimits::checkBuild(const BuildAttempt &attempt) const {
  if (!device)
    return Error::success();
  for (const KernelMeasurement &kernel : attempt.kernels) {
    if (uint64_t(kernel.scratchSize) > device->maxScratchPerThread)
      return make_error<OutOfResourcesError>(
          kScratchResource, kernel.scratchSize,
          int64_t(device->maxScratchPerThread),
          Twine("kernel '") + kernel.name + "' needs " +
              Twine(kernel.scratchSize) +
              " bytes of per-thread scratch space in " +
              stringifyBuildGRF(attempt.mode) + " GRF mode (" +
              Twine(kernel.grfCount) + " registers); " + device->name +
              " allows at most " + Twine(device->maxScratchPerThread) +
              " (PTSS)");
    uint64_t size = getWorkGroupSize(kernel.name);
    auto registers = static_cast<unsigned>(kernel.grfCount);
    auto simd = static_cast<unsigned>(kernel.simd);
    if (!size || !simd || !device->getThreadsPerEU(registers))
      continue;
    uint64_t limit = device->getMaxWorkGroupSize(registers, simd);
    if (size > limit)
      return make_error<OutOfResourcesError>(
          kWorkGroupResource, size, limit,
          describeWorkGroupLimit(kernel.name, size, *device, registers, simd));
  }
  return Error::success();
}
