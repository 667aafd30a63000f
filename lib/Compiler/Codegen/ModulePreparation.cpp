//===- ModulePreparation.cpp - Checks before any compiler runs ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A module request before its first build: the SPIR-V's structure and
// validity, the GRF policy the device can honour, the backend and the
// compiler's identity (and that it knows the device), and the launch limits
// its binaries must fit.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenDriverImpl.h"

#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Device/BuildFlags.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// What the module's binaries must fit to launch: the work-group sizes and
/// required SIMD widths its SPIR-V declares (SPIR-V that does not parse has
/// none: its binary is still checked against the default size), the size the
/// caller launches the others with, and the device.
LaunchLimits
mlir::xpu::detail::getLaunchLimits(const ModuleCompileRequest &request,
                                   const NativeCodegenOptions &options,
                                   const PreparedModule &module) {
  LaunchLimits limits;
  limits.device = module.device;
  limits.defaultWorkGroupSize = request.maxWorkGroupSize
                                    ? request.maxWorkGroupSize
                                    : options.maxWorkGroupSize;
  for (const SPIRVKernelInfo &kernel : module.spirvKernels) {
    KernelWorkGroup workGroup;
    workGroup.name = kernel.name;
    if (kernel.localSize)
      workGroup.size = uint64_t((*kernel.localSize)[0]) *
                       (*kernel.localSize)[1] * (*kernel.localSize)[2];
    workGroup.requiredSimd = kernel.subgroupSize.value_or(0);
    limits.kernels.push_back(std::move(workGroup));
  }
  return limits;
}

/// The checks of the SPIR-V itself: structure always, SPIRV-Tools per the
/// validation mode (a warning is kept in the module), and the kernels'
/// declared sub-group and work-group sizes.
static llvm::Error checkSPIRV(const ModuleCompileRequest &request,
                              const NativeCodegenOptions &options,
                              PreparedModule &module) {
  if (!isSPIRV(request.spirv))
    return llvm::createStringError("not a SPIR-V module");
  // Structural, whatever the validation mode: IGC reads whole words.
  if (request.spirv.size() % 4 != 0)
    return llvm::createStringError(llvm::formatv(
        "truncated SPIR-V module: {0} bytes is not a whole number of words",
        request.spirv.size()));
  if (options.validation != SPIRVValidation::Off) {
    if (llvm::Error error = validateSPIRV(request.spirv)) {
      if (options.validation == SPIRVValidation::Strict)
        return error;
      module.validation = llvm::toString(std::move(error));
    }
  }
  // Best effort: the widths IGC was asked for, for the report. SPIR-V that
  // does not parse still goes to the isolated worker, which decides.
  if (llvm::Expected<SPIRVModuleInfo> info = readSPIRVModuleInfo(request.spirv))
    module.spirvKernels = std::move(info->kernels);
  else
    llvm::consumeError(info.takeError());
  return llvm::Error::success();
}

/// The policy the device can honour: large is an error without a large
/// register file, and measured auto there is small (measuring a large build
/// would measure a small one twice).
static llvm::Error resolvePolicy(const ModuleCompileRequest &request,
                                 const NativeCodegenOptions &options,
                                 PreparedModule &module) {
  module.policy = request.policy;
  // A count that no mode names (the modes have their own messages below).
  std::optional<BuildGRF> forced = getForcedBuildGRF(request.policy);
  int64_t registers = forced ? getNRegs(*forced) : 0;
  if (registers && registers != 128 && registers != 256 && registers != 512 &&
      !module.device->buildsRegisterCount(registers, module.device->knownTo))
    return llvm::createStringError(
        describeMissingRegisterCount(*module.device, request.arch, registers));
  if (request.policy == GRFMode::XLarge && !module.device->supportsXLargeGRF())
    return llvm::createStringError(
        describeMissingRegisterCount(*module.device, request.arch, 512));
  if (module.device->supportsLargeGRF())
    return llvm::Error::success();
  if (request.policy == GRFMode::Large)
    return llvm::createStringError(
        describeMissingRegisterCount(*module.device, request.arch, 256));
  if (request.policy == GRFMode::Auto &&
      options.autoStrategy == AutoStrategy::Measure) {
    module.policy = GRFMode::Small;
    module.policyNote =
        llvm::formatv("arch '{0}' has no large GRF mode; ", module.device->name)
            .str();
  }
  return llvm::Error::success();
}

/// A device the compiler does not know would only fail inside IGC with a
/// terse message: name the compiler and the devices it does know. A compiler
/// that did not list its devices (Level Zero) is not checked here.
static llvm::Error checkCompilerKnowsDevice(const CompilerIdentity &identity,
                                            const DeviceInfo &device,
                                            llvm::StringRef arch) {
  // By name or alias: IGC 2.40 lists lnl-m, not lnl, though it takes both.
  if (isKnownToCompiler(device, identity.devices))
    return llvm::Error::success();
  std::vector<std::string> known;
  for (const DeviceInfo &candidate : getDevices())
    if (isKnownToCompiler(candidate, identity.devices))
      known.push_back(candidate.name.str());
  return llvm::createStringError(llvm::formatv(
      "arch '{0}' is not known to the selected compiler ({1}); it knows: "
      "{2} (select another with compiler-root=DIR or {3})",
      arch, identity.text, llvm::join(known, ", "), kCompilerRootEnvVar));
}

/// A request after the checks that need no compiler, with its backend,
/// compiler identity and SPIR-V digest.
llvm::Expected<PreparedModule> mlir::xpu::detail::prepare(
    const ModuleCompileRequest &request, const NativeCodegenOptions &options,
    const CompilerInstallation &compiler,
    llvm::function_ref<llvm::Expected<CompilerIdentity>(WorkerBackend)>
        getCompilerIdentity) {
  PreparedModule module;
  module.device = lookupDevice(request.arch);
  if (!module.device)
    return llvm::createStringError(describeUnknownDevice(request.arch));
  if (llvm::Error error = checkExtraFlags(request.extraFlags))
    return error;
  if (llvm::Error error = checkSPIRV(request, options, module))
    return error;
  if (llvm::Error error = resolvePolicy(request, options, module))
    return error;

  llvm::Expected<BackendChoice> backend =
      selectBackend(options.backend, *module.device, compiler);
  if (!backend)
    return backend.takeError();
  module.backend = *backend;

  llvm::Expected<CompilerIdentity> identity =
      getCompilerIdentity(module.backend.worker);
  if (!identity)
    return identity.takeError();
  if (llvm::Error error =
          checkCompilerKnowsDevice(*identity, *module.device, request.arch))
    return error;
  module.compilerIdentity = identity->text;

  module.spirvDigest = llvm::toHex(
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(
          llvm::StringRef(request.spirv.data(), request.spirv.size()))),
      /*LowerCase=*/true);
  return module;
}
