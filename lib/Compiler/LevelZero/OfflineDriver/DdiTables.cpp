//===- DdiTables.cpp - Loader entry points of the offline driver ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The loader (1.8.12) accepts a driver only when it exports every table
// getter it asks for (46 required: ze, zet and zes), requests the tables at
// its own API version (1.4) and copies the function pointers out. Rules kept
// here (docs/LevelZero.md, "The offline driver: Level Zero without a GPU"):
// - export every getter of the installed headers, required or optional;
// - fill only entries that exist at the requested version (a table struct
//   of an older loader is shorter; writing past it corrupts the loader), so
//   every entry is assigned by name, never by memset or struct copy;
// - in the tables the driver implements, every other 1.0 entry returns
//   ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; tables it does not implement are
//   left as the loader passed them (null entries: the application gets
//   ZE_RESULT_ERROR_UNSUPPORTED_FEATURE from the loader).
//
//===----------------------------------------------------------------------===//

#include "OfflineDriver.h"

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <cstdio>

using namespace mlir::xpu::ze_offline;

namespace {

/// A function with the signature of table entry `Fn` that implements
/// nothing.
template <typename Fn> struct Unsupported;
template <typename... Args>
struct Unsupported<ze_result_t(ZE_APICALL *)(Args...)> {
  static ze_result_t ZE_APICALL call(Args...) {
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
};
template <typename Fn> void unsupported(Fn &entry) {
  entry = &Unsupported<Fn>::call;
}

/// Common checks of every getter; also traces the loader's requests.
ze_result_t checkRequest(const char *table, ze_api_version_t version,
                         const void *pDdiTable) {
  if (isTracing())
    std::fprintf(stderr, "ze_xpu_offline: %s table requested at %u.%u\n", table,
                 ZE_MAJOR_VERSION(version), ZE_MINOR_VERSION(version));
  if (!pDdiTable)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT) ||
      version < ZE_API_VERSION_1_0)
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  return ZE_RESULT_SUCCESS;
}

} // namespace

#define XPU_ZE_EXPORT extern "C" __attribute__((visibility("default")))

#define XPU_ZE_CHECK(TABLE)                                                    \
  if (ze_result_t result = checkRequest(TABLE, version, pDdiTable);            \
      result != ZE_RESULT_SUCCESS)                                             \
  return result

//===----------------------------------------------------------------------===//
// Implemented tables (all entries used are API 1.0)
//===----------------------------------------------------------------------===//

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(
    ze_api_version_t version, ze_global_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Global");
  pDdiTable->pfnInit = init;
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(
    ze_api_version_t version, ze_driver_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Driver");
  pDdiTable->pfnGet = driverGet;
  pDdiTable->pfnGetApiVersion = driverGetApiVersion;
  pDdiTable->pfnGetProperties = driverGetProperties;
  unsupported(pDdiTable->pfnGetIpcProperties);
  pDdiTable->pfnGetExtensionProperties = driverGetExtensionProperties;
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(
    ze_api_version_t version, ze_device_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Device");
  pDdiTable->pfnGet = deviceGet;
  pDdiTable->pfnGetSubDevices = deviceGetSubDevices;
  pDdiTable->pfnGetProperties = deviceGetProperties;
  pDdiTable->pfnGetComputeProperties = deviceGetComputeProperties;
  pDdiTable->pfnGetModuleProperties = deviceGetModuleProperties;
  unsupported(pDdiTable->pfnGetCommandQueueGroupProperties);
  unsupported(pDdiTable->pfnGetMemoryProperties);
  unsupported(pDdiTable->pfnGetMemoryAccessProperties);
  unsupported(pDdiTable->pfnGetCacheProperties);
  unsupported(pDdiTable->pfnGetImageProperties);
  unsupported(pDdiTable->pfnGetExternalMemoryProperties);
  unsupported(pDdiTable->pfnGetP2PProperties);
  unsupported(pDdiTable->pfnCanAccessPeer);
  unsupported(pDdiTable->pfnGetStatus);
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(
    ze_api_version_t version, ze_context_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Context");
  pDdiTable->pfnCreate = contextCreate;
  pDdiTable->pfnDestroy = contextDestroy;
  pDdiTable->pfnGetStatus = contextGetStatus;
  unsupported(pDdiTable->pfnSystemBarrier);
  unsupported(pDdiTable->pfnMakeMemoryResident);
  unsupported(pDdiTable->pfnEvictMemory);
  unsupported(pDdiTable->pfnMakeImageResident);
  unsupported(pDdiTable->pfnEvictImage);
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(
    ze_api_version_t version, ze_module_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Module");
  pDdiTable->pfnCreate = moduleCreate;
  pDdiTable->pfnDestroy = moduleDestroy;
  unsupported(pDdiTable->pfnDynamicLink);
  pDdiTable->pfnGetNativeBinary = moduleGetNativeBinary;
  unsupported(pDdiTable->pfnGetGlobalPointer);
  pDdiTable->pfnGetKernelNames = moduleGetKernelNames;
  pDdiTable->pfnGetProperties = moduleGetProperties;
  unsupported(pDdiTable->pfnGetFunctionPointer);
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetModuleBuildLogProcAddrTable(
    ze_api_version_t version, ze_module_build_log_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze ModuleBuildLog");
  pDdiTable->pfnDestroy = moduleBuildLogDestroy;
  pDdiTable->pfnGetString = moduleBuildLogGetString;
  return ZE_RESULT_SUCCESS;
}

XPU_ZE_EXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(
    ze_api_version_t version, ze_kernel_dditable_t *pDdiTable) {
  XPU_ZE_CHECK("ze Kernel");
  pDdiTable->pfnCreate = kernelCreate;
  pDdiTable->pfnDestroy = kernelDestroy;
  unsupported(pDdiTable->pfnSetCacheConfig);
  unsupported(pDdiTable->pfnSetGroupSize);
  unsupported(pDdiTable->pfnSuggestGroupSize);
  unsupported(pDdiTable->pfnSuggestMaxCooperativeGroupCount);
  unsupported(pDdiTable->pfnSetArgumentValue);
  unsupported(pDdiTable->pfnSetIndirectAccess);
  unsupported(pDdiTable->pfnGetIndirectAccess);
  unsupported(pDdiTable->pfnGetSourceAttributes);
  pDdiTable->pfnGetProperties = kernelGetProperties;
  pDdiTable->pfnGetName = kernelGetName;
  return ZE_RESULT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Tables the loader requires but the driver does not implement
//===----------------------------------------------------------------------===//

#define XPU_ZE_EMPTY_TABLE(GETTER, TYPE, NAME)                                 \
  XPU_ZE_EXPORT ze_result_t ZE_APICALL GETTER(ze_api_version_t version,        \
                                              TYPE *pDdiTable) {               \
    XPU_ZE_CHECK(NAME);                                                        \
    return ZE_RESULT_SUCCESS;                                                  \
  }

XPU_ZE_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t,
                   "ze DeviceExp")
XPU_ZE_EMPTY_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t,
                   "ze CommandQueue")
XPU_ZE_EMPTY_TABLE(zeGetCommandListProcAddrTable, ze_command_list_dditable_t,
                   "ze CommandList")
XPU_ZE_EMPTY_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t, "ze Image")
XPU_ZE_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t,
                   "ze ImageExp")
XPU_ZE_EMPTY_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t, "ze Fence")
XPU_ZE_EMPTY_TABLE(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t,
                   "ze EventPool")
XPU_ZE_EMPTY_TABLE(zeGetEventProcAddrTable, ze_event_dditable_t, "ze Event")
XPU_ZE_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t,
                   "ze EventExp")
XPU_ZE_EMPTY_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t,
                   "ze KernelExp")
XPU_ZE_EMPTY_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t,
                   "ze Sampler")
XPU_ZE_EMPTY_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t,
                   "ze PhysicalMem")
XPU_ZE_EMPTY_TABLE(zeGetMemProcAddrTable, ze_mem_dditable_t, "ze Mem")
XPU_ZE_EMPTY_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t,
                   "ze VirtualMem")
XPU_ZE_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable,
                   ze_fabric_vertex_exp_dditable_t, "ze FabricVertexExp")
XPU_ZE_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable,
                   ze_fabric_edge_exp_dditable_t, "ze FabricEdgeExp")

XPU_ZE_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t,
                   "zet Device")
XPU_ZE_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t,
                   "zet Context")
XPU_ZE_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t,
                   "zet CommandList")
XPU_ZE_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t,
                   "zet Module")
XPU_ZE_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t,
                   "zet Kernel")
XPU_ZE_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t,
                   "zet MetricGroup")
XPU_ZE_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable,
                   zet_metric_group_exp_dditable_t, "zet MetricGroupExp")
XPU_ZE_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t,
                   "zet Metric")
XPU_ZE_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable,
                   zet_metric_streamer_dditable_t, "zet MetricStreamer")
XPU_ZE_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable,
                   zet_metric_query_pool_dditable_t, "zet MetricQueryPool")
XPU_ZE_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t,
                   "zet MetricQuery")
XPU_ZE_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t,
                   "zet TracerExp")
XPU_ZE_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t, "zet Debug")

XPU_ZE_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t,
                   "zes Driver")
XPU_ZE_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t,
                   "zes Device")
XPU_ZE_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t,
                   "zes Scheduler")
XPU_ZE_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable,
                   zes_performance_factor_dditable_t, "zes PerformanceFactor")
XPU_ZE_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t, "zes Power")
XPU_ZE_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t,
                   "zes Frequency")
XPU_ZE_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t,
                   "zes Engine")
XPU_ZE_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t,
                   "zes Standby")
XPU_ZE_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t,
                   "zes Firmware")
XPU_ZE_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t,
                   "zes Memory")
XPU_ZE_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t,
                   "zes FabricPort")
XPU_ZE_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t,
                   "zes Temperature")
XPU_ZE_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t, "zes Psu")
XPU_ZE_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t, "zes Fan")
XPU_ZE_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t, "zes Led")
XPU_ZE_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t, "zes Ras")
XPU_ZE_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t,
                   "zes Diagnostics")
