//===- OfflineModule.cpp - Offline driver contexts, modules, kernels ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The context, module, build-log and kernel entry points of the offline
// Level Zero driver. zeModuleCreate builds or loads through
// OfflineDriverState.cpp; the rest hands out what that measured.
//
//===----------------------------------------------------------------------===//

#include "OfflineDriver.h"
#include "OfflineDriverState.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;

namespace mlir::xpu::ze_offline {

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

ze_result_t ZE_APICALL contextCreate(ze_driver_handle_t hDriver,
                                     const ze_context_desc_t *desc,
                                     ze_context_handle_t *phContext) {
  Driver *driver = unwrap<Driver>(hDriver);
  if (!driver)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phContext)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto *context = new Context;
  context->driver = driver;
  *phContext = wrap<ze_context_handle_t>(context);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL contextDestroy(ze_context_handle_t hContext) {
  Context *context = unwrap<Context>(hContext);
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  context->tag = Tag{};
  delete context;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL contextGetStatus(ze_context_handle_t hContext) {
  return unwrap<Context>(hContext) ? ZE_RESULT_SUCCESS
                                   : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

//===----------------------------------------------------------------------===//
// Module and build log
//===----------------------------------------------------------------------===//

ze_result_t ZE_APICALL moduleCreate(ze_context_handle_t hContext,
                                    ze_device_handle_t hDevice,
                                    const ze_module_desc_t *desc,
                                    ze_module_handle_t *phModule,
                                    ze_module_build_log_handle_t *phBuildLog) {
  Context *context = unwrap<Context>(hContext);
  Device *device = unwrap<Device>(hDevice);
  if (!context || !device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phModule || !desc->pInputModule)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *phModule = nullptr;
  if (phBuildLog)
    *phBuildLog = nullptr;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV &&
      desc->format != ZE_MODULE_FORMAT_NATIVE)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->inputSize == 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  // Specialization constants and extension descriptors (e.g. multi-module
  // programs) are outside the subset.
  if ((desc->pConstants && desc->pConstants->numConstants) || desc->pNext)
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;

  auto module = std::make_unique<Module>();
  module->device = device;
  ArrayRef<char> input(reinterpret_cast<const char *>(desc->pInputModule),
                       desc->inputSize);
  std::string log;
  ze_result_t result =
      desc->format == ZE_MODULE_FORMAT_IL_SPIRV
          ? buildFromSPIRV(*device, input,
                           desc->pBuildFlags ? desc->pBuildFlags : "", *module,
                           log)
          : loadNative(input, *module, log);
  trace(formatv("zeModuleCreate -> {0:x}", unsigned(result)));
  // Always a real log object: with several drivers the loader dereferences
  // the returned handle without a null check.
  if (phBuildLog) {
    auto *buildLog = new BuildLog;
    buildLog->text = std::move(log);
    *phBuildLog = wrap<ze_module_build_log_handle_t>(buildLog);
  }
  if (result == ZE_RESULT_SUCCESS)
    *phModule = wrap<ze_module_handle_t>(module.release());
  return result;
}

ze_result_t ZE_APICALL moduleDestroy(ze_module_handle_t hModule) {
  Module *module = unwrap<Module>(hModule);
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  module->tag = Tag{};
  delete module;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL moduleGetNativeBinary(ze_module_handle_t hModule,
                                             size_t *pSize,
                                             uint8_t *pModuleNativeBinary) {
  Module *module = unwrap<Module>(hModule);
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!pModuleNativeBinary) {
    *pSize = module->binary.size();
    return ZE_RESULT_SUCCESS;
  }
  if (*pSize < module->binary.size())
    return ZE_RESULT_ERROR_INVALID_SIZE;
  std::memcpy(pModuleNativeBinary, module->binary.data(),
              module->binary.size());
  *pSize = module->binary.size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL moduleGetKernelNames(ze_module_handle_t hModule,
                                            uint32_t *pCount,
                                            const char **pNames) {
  Module *module = unwrap<Module>(hModule);
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !pNames) {
    *pCount = module->kernels.size();
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min<uint32_t>(*pCount, module->kernels.size());
  for (uint32_t i = 0; i < *pCount; ++i)
    pNames[i] = module->kernels[i].name.c_str();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL moduleGetProperties(
    ze_module_handle_t hModule, ze_module_properties_t *pModuleProperties) {
  if (!unwrap<Module>(hModule))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pModuleProperties)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  pModuleProperties->flags = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
moduleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog) {
  BuildLog *log = unwrap<BuildLog>(hModuleBuildLog);
  if (!log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  log->tag = Tag{};
  delete log;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
moduleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
                        size_t *pSize, char *pBuildLog) {
  BuildLog *log = unwrap<BuildLog>(hModuleBuildLog);
  if (!log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return copyString(log->text, pSize, pBuildLog);
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

ze_result_t ZE_APICALL kernelCreate(ze_module_handle_t hModule,
                                    const ze_kernel_desc_t *desc,
                                    ze_kernel_handle_t *phKernel) {
  Module *module = unwrap<Module>(hModule);
  if (!module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !desc->pKernelName || !phKernel)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto it = find_if(module->kernels, [&](const KernelFacts &facts) {
    return facts.name == desc->pKernelName;
  });
  if (it == module->kernels.end())
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  auto *kernel = new Kernel;
  kernel->module = module;
  kernel->facts = &*it;
  *phKernel = wrap<ze_kernel_handle_t>(kernel);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelDestroy(ze_kernel_handle_t hKernel) {
  Kernel *kernel = unwrap<Kernel>(hKernel);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  kernel->tag = Tag{};
  delete kernel;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelGetProperties(
    ze_kernel_handle_t hKernel, ze_kernel_properties_t *pKernelProperties) {
  Kernel *kernel = unwrap<Kernel>(hKernel);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pKernelProperties)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const KernelFacts &facts = *kernel->facts;
  ze_kernel_properties_t &p = *pKernelProperties;
  // Argument and work-group facts are not read from the zebin (yet): zero
  // means "unknown / not required" here.
  p.numKernelArgs = 0;
  p.requiredGroupSizeX = p.requiredGroupSizeY = p.requiredGroupSizeZ = 0;
  p.requiredNumSubGroups = 0;
  p.requiredSubgroupSize = 0;
  p.maxSubgroupSize = facts.simd;
  p.maxNumSubgroups = facts.simd ? 1024 / facts.simd : 0;
  p.localMemSize = 0;
  p.privateMemSize = facts.privateMemSize;
  p.spillMemSize = facts.spillMemSize;
  std::memset(&p.uuid, 0, sizeof(p.uuid));
  uint64_t hash = hashBinary(kernel->module->binary);
  std::memcpy(p.uuid.mid, &hash, sizeof(hash));
  uint64_t kid = xxh3_64bits(facts.name);
  std::memcpy(p.uuid.kid, &kid, sizeof(kid));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernelGetName(ze_kernel_handle_t hKernel, size_t *pSize,
                                     char *pName) {
  Kernel *kernel = unwrap<Kernel>(hKernel);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return copyString(kernel->facts->name, pSize, pName);
}

} // namespace mlir::xpu::ze_offline
