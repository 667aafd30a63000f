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

#include "XPUCodegen/Compiler/Native/LaunchLimits.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

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
  case BuildGRF::Regs32:
  case BuildGRF::Regs64:
  case BuildGRF::Regs96:
  case BuildGRF::Regs160:
  case BuildGRF::Regs192:
    return static_cast<unsigned>(getNRegs(mode));
  case BuildGRF::Default:
    // IGC picks the count; the binary's own is checked after the build.
    return device.getMostThreadsRegisters();
  case BuildGRF::IGCAuto:
    return 0;
  }
  return 0;
}

uint64_t LaunchLimits::getWorkGroupSize(StringRef kernel) const {
  for (const KernelWorkGroup &known : kernels) {
    if (known.name != kernel)
      continue;
    if (known.unlaunchable)
      return 0;
    if (known.size)
      return known.size;
  }
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
  if (unsigned threads = device.getLaunchThreadsPerEU(registers))
    os << " (" << device.eusPerCore << " vector engines x " << threads
       << " threads x " << simd << " lanes, device limit "
       << device.maxWorkGroupSize << ")";
  return text;
}

/// Why `kernel`'s work-group of `size` work-items does not fit `registers`
/// registers per thread at SIMD `simd` on `device`; std::nullopt when it does
/// (or the size is unknown).
static std::optional<WorkGroupLimit>
checkWorkGroup(StringRef kernel, uint64_t size, const DeviceInfo &device,
               unsigned registers, unsigned simd) {
  uint64_t limit = device.getMaxWorkGroupSize(registers, simd);
  if (!size || size <= limit)
    return std::nullopt;
  return WorkGroupLimit{
      describeWorkGroupLimit(kernel, size, device, registers, simd), size,
      limit};
}

/// The SIMD width a kernel is checked at before its build: the one it
/// requires, else the widest the device has (where the most work-items fit).
static unsigned getCheckedSimd(const KernelWorkGroup &kernel,
                               const DeviceInfo &device) {
  if (kernel.requiredSimd)
    return kernel.requiredSimd;
  return device.subgroupSizes.empty() ? 32 : device.subgroupSizes.back();
}

std::optional<WorkGroupLimit>
LaunchLimits::checkBeforeBuild(BuildGRF mode) const {
  if (!device)
    return std::nullopt;
  unsigned registers = getModeRegisters(mode, *device);
  if (!registers || !device->getThreadsPerEU(registers))
    return std::nullopt;
  for (const KernelWorkGroup &kernel : kernels)
    if (std::optional<WorkGroupLimit> limit =
            checkWorkGroup(kernel.name, getWorkGroupSize(kernel.name), *device,
                           registers, getCheckedSimd(kernel, *device)))
      return limit;
  // Kernels unknown before the build: the option's size at the widest SIMD.
  if (kernels.empty())
    return checkWorkGroup("*", defaultWorkGroupSize, *device, registers,
                          getCheckedSimd(KernelWorkGroup(), *device));
  return std::nullopt;
}

/// "'a', 'b'".
static std::string quoteNames(ArrayRef<StringRef> names) {
  std::string text;
  raw_string_ostream os(text);
  interleave(
      names, os, [&](StringRef name) { os << "'" << name << "'"; }, ", ");
  return text;
}

std::optional<UnlaunchableKernel>
mlir::xpu::checkAnyMode(const LaunchLimits &limits) {
  const DeviceInfo *device = limits.device;
  if (!device || device->grfModes.empty())
    return std::nullopt;
  // The count with the most threads runs the largest work-groups.
  unsigned registers = device->getMostThreadsRegisters();
  std::optional<UnlaunchableKernel> first;
  KernelWorkGroup every{"*", limits.defaultWorkGroupSize, 0};
  SmallVector<StringRef> failing, others;
  for (const KernelWorkGroup &kernel :
       limits.kernels.empty() ? ArrayRef(every) : ArrayRef(limits.kernels)) {
    if (kernel.unlaunchable) {
      others.push_back(kernel.name);
      continue;
    }
    uint64_t size = kernel.size ? kernel.size : limits.defaultWorkGroupSize;
    std::optional<WorkGroupLimit> limit = checkWorkGroup(
        kernel.name, size, *device, registers, getCheckedSimd(kernel, *device));
    (limit ? failing : others).push_back(kernel.name);
    if (limit && !first)
      first = UnlaunchableKernel{kernel.name, std::move(*limit)};
  }
  if (!first)
    return std::nullopt;
  std::string &message = first->limit.message;
  message =
      "cannot launch in any GRF mode: " + message + ", the most of any mode";
  if (failing.size() > 1)
    message += "; neither can " + quoteNames(ArrayRef(failing).drop_front());
  // Flags apply per module, so its kernels share one binary: none of them
  // is built, and the message says how to get the others built.
  if (!others.empty())
    message +=
        "; the module's other kernels (" + quoteNames(others) +
        ") were not built with it: they share its binary. Move " +
        quoteNames(failing) +
        " into a module of its own (a gpu.module of its own) to build them";
  return first;
}

std::vector<std::string> mlir::xpu::exemptUnlaunchable(LaunchLimits &limits) {
  std::vector<std::string> warnings;
  const DeviceInfo *device = limits.device;
  if (!device || device->grfModes.empty())
    return warnings;
  unsigned registers = device->getMostThreadsRegisters();
  for (KernelWorkGroup &kernel : limits.kernels) {
    if (!kernel.size || kernel.unlaunchable)
      continue;
    std::optional<WorkGroupLimit> limit =
        checkWorkGroup(kernel.name, kernel.size, *device, registers,
                       getCheckedSimd(kernel, *device));
    if (!limit)
      continue;
    kernel.unlaunchable = true;
    warnings.push_back(
        "cannot launch in any GRF mode: " + limit->message +
        ", the most of any mode; it is built, but the driver will refuse to "
        "launch it with that work-group, and it does not constrain the GRF "
        "mode of the kernels that share its binary (strict-launch=true makes "
        "this an error)");
  }
  return warnings;
}

Expected<GRFDecision> mlir::xpu::decideLaunchableGRF(
    GRFMode policy, AutoStrategy strategy, int64_t spillThreshold,
    AutoPlan plan, ArrayRef<BuildGRF> ladder, LaunchLimits limits,
    bool strictLaunch, function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  std::vector<std::string> warnings;
  if (!strictLaunch)
    warnings = exemptUnlaunchable(limits);
  if (std::optional<UnlaunchableKernel> kernel = checkAnyMode(limits))
    return make_error<OutOfResourcesError>(
        kWorkGroupResource, kernel->limit.required, kernel->limit.limit,
        kernel->limit.message);
  Expected<GRFDecision> decision =
      decideGRF(policy, strategy, spillThreshold, plan, ladder, limits, build);
  if (decision)
    decision->launchWarnings = std::move(warnings);
  return decision;
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
