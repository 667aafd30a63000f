//===- OfflineDriver.h - Offline Level Zero driver entry points -*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The entry points of the offline Level Zero driver (libze_xpu_offline.so)
// that DdiTables.cpp hands to the loader. Each has the signature of the
// Level Zero function it implements; see OfflineDriver.cpp (driver, device)
// and OfflineModule.cpp (context, module, kernel) for semantics.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVER_H
#define XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVER_H

#include <level_zero/ze_api.h>

namespace mlir::xpu::ze_offline {

/// True when XPU_ZE_OFFLINE_DEBUG is set: the driver traces what the loader
/// asks of it on stderr.
bool isTracing();

ze_result_t ZE_APICALL init(ze_init_flags_t flags);

ze_result_t ZE_APICALL driverGet(uint32_t *pCount,
                                 ze_driver_handle_t *phDrivers);
ze_result_t ZE_APICALL driverGetApiVersion(ze_driver_handle_t hDriver,
                                           ze_api_version_t *version);
ze_result_t ZE_APICALL driverGetProperties(
    ze_driver_handle_t hDriver, ze_driver_properties_t *pDriverProperties);
ze_result_t ZE_APICALL driverGetExtensionProperties(
    ze_driver_handle_t hDriver, uint32_t *pCount,
    ze_driver_extension_properties_t *pExtensionProperties);

ze_result_t ZE_APICALL deviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                 ze_device_handle_t *phDevices);
ze_result_t ZE_APICALL deviceGetSubDevices(ze_device_handle_t hDevice,
                                           uint32_t *pCount,
                                           ze_device_handle_t *phSubdevices);
ze_result_t ZE_APICALL deviceGetProperties(
    ze_device_handle_t hDevice, ze_device_properties_t *pDeviceProperties);
ze_result_t ZE_APICALL
deviceGetComputeProperties(ze_device_handle_t hDevice,
                           ze_device_compute_properties_t *pComputeProperties);
ze_result_t ZE_APICALL
deviceGetModuleProperties(ze_device_handle_t hDevice,
                          ze_device_module_properties_t *pModuleProperties);

ze_result_t ZE_APICALL contextCreate(ze_driver_handle_t hDriver,
                                     const ze_context_desc_t *desc,
                                     ze_context_handle_t *phContext);
ze_result_t ZE_APICALL contextDestroy(ze_context_handle_t hContext);
ze_result_t ZE_APICALL contextGetStatus(ze_context_handle_t hContext);

ze_result_t ZE_APICALL moduleCreate(ze_context_handle_t hContext,
                                    ze_device_handle_t hDevice,
                                    const ze_module_desc_t *desc,
                                    ze_module_handle_t *phModule,
                                    ze_module_build_log_handle_t *phBuildLog);
ze_result_t ZE_APICALL moduleDestroy(ze_module_handle_t hModule);
ze_result_t ZE_APICALL moduleGetNativeBinary(ze_module_handle_t hModule,
                                             size_t *pSize,
                                             uint8_t *pModuleNativeBinary);
ze_result_t ZE_APICALL moduleGetKernelNames(ze_module_handle_t hModule,
                                            uint32_t *pCount,
                                            const char **pNames);
ze_result_t ZE_APICALL moduleGetProperties(
    ze_module_handle_t hModule, ze_module_properties_t *pModuleProperties);

ze_result_t ZE_APICALL
moduleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog);
ze_result_t ZE_APICALL
moduleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
                        size_t *pSize, char *pBuildLog);

ze_result_t ZE_APICALL kernelCreate(ze_module_handle_t hModule,
                                    const ze_kernel_desc_t *desc,
                                    ze_kernel_handle_t *phKernel);
ze_result_t ZE_APICALL kernelDestroy(ze_kernel_handle_t hKernel);
ze_result_t ZE_APICALL kernelGetProperties(
    ze_kernel_handle_t hKernel, ze_kernel_properties_t *pKernelProperties);
ze_result_t ZE_APICALL kernelGetName(ze_kernel_handle_t hKernel, size_t *pSize,
                                     char *pName);

} // namespace mlir::xpu::ze_offline

#endif // XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVER_H
