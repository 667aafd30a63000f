//===- OfflineDriver.cpp - Level Zero driver on the offline compiler ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A Level Zero driver without a GPU: it presents one Intel device per arch
// named in XPU_ZE_OFFLINE_DEVICES (default "pvc") and implements the
// driver/device/context/module/build-log/kernel subset that ahead-of-time
// compilers use, on the real IGC. IGC never runs in the process that loaded
// the driver: every build goes to the project's isolated worker processes
// (WorkerPool, ocloc backend), after SPIR-V validation, so bad SPIR-V is a
// build failure, not a dead application.
//
// spillMemSize follows newer NEO (the zebin's per-thread `spill_size`): the
// bytes spilled per hardware thread as measured by measureBuild (IGC's build
// log x the GRF size, or .ze_info spill_size). NEO 22.43 reported the scratch
// size there instead, which also counts private arrays.
//
// Library code: it never calls exit()/abort(); every failure is a
// ze_result_t (and a message on the build log where there is one).
//
// This file holds the global, driver and device entry points;
// OfflineModule.cpp the context, module and kernel ones, and
// OfflineDriverState.cpp the objects, state and builds behind both.
//
//===----------------------------------------------------------------------===//

#include "OfflineDriver.h"
#include "OfflineDriverState.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstring>

using namespace llvm;

namespace mlir::xpu::ze_offline {

//===----------------------------------------------------------------------===//
// Global and driver
//===----------------------------------------------------------------------===//

ze_result_t ZE_APICALL init(ze_init_flags_t flags) {
  trace(formatv("zeInit(flags {0:x})", flags));
  // Only GPUs here: a VPU-only request finds nothing.
  if (flags == ZE_INIT_FLAG_VPU_ONLY)
    return ZE_RESULT_ERROR_UNINITIALIZED;
  // The loader calls this more than once; configure once.
  State &state = getState();
  std::call_once(state.initOnce,
                 [&] { state.initResult = configureDevices(state.driver); });
  return state.initResult;
}

ze_result_t ZE_APICALL driverGet(uint32_t *pCount,
                                 ze_driver_handle_t *phDrivers) {
  if (!isInitialized())
    return ZE_RESULT_ERROR_UNINITIALIZED;
  Driver *driver = &getState().driver;
  return copyHandles<ze_driver_handle_t>(ArrayRef<Driver *>(driver), pCount,
                                         phDrivers);
}

ze_result_t ZE_APICALL driverGetApiVersion(ze_driver_handle_t hDriver,
                                           ze_api_version_t *version) {
  if (!unwrap<Driver>(hDriver))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The subset implemented is all 1.0 API; the tables are version-checked.
  *version = ZE_API_VERSION_1_0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driverGetProperties(
    ze_driver_handle_t hDriver, ze_driver_properties_t *pDriverProperties) {
  if (!unwrap<Driver>(hDriver))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pDriverProperties)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  State &state = getState();
  std::string identity;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    identity = state.compilerIdentity;
  }
  if (identity.empty()) {
    // The UUID identifies the compiler behind the driver, so that caches
    // keyed on it change when IGC does.
    Expected<WorkerPool &> pool = getPool();
    if (!pool) {
      consumeError(pool.takeError());
      return ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    Expected<std::string> id = pool->getCompilerIdentity(WorkerBackend::Ocloc);
    if (!id) {
      trace("cannot identify the compiler: " + toString(id.takeError()));
      return ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
    }
    identity = "ze_xpu_offline 1; " + *id;
    std::lock_guard<std::mutex> lock(state.mutex);
    state.compilerIdentity = identity;
  }
  uint64_t lo = xxh3_64bits(identity);
  uint64_t hi = xxh3_64bits(identity + "#");
  std::memcpy(pDriverProperties->uuid.id, &lo, 8);
  std::memcpy(pDriverProperties->uuid.id + 8, &hi, 8);
  pDriverProperties->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
driverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
                             ze_driver_extension_properties_t *) {
  if (!unwrap<Driver>(hDriver))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pCount = 0;
  return ZE_RESULT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

ze_result_t ZE_APICALL deviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                 ze_device_handle_t *phDevices) {
  Driver *driver = unwrap<Driver>(hDriver);
  if (!driver)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  SmallVector<Device *> devices;
  for (const std::unique_ptr<Device> &device : driver->devices)
    devices.push_back(device.get());
  return copyHandles<ze_device_handle_t>(ArrayRef<Device *>(devices), pCount,
                                         phDevices);
}

ze_result_t ZE_APICALL deviceGetSubDevices(ze_device_handle_t hDevice,
                                           uint32_t *pCount,
                                           ze_device_handle_t *) {
  if (!unwrap<Device>(hDevice))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pCount = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetProperties(
    ze_device_handle_t hDevice, ze_device_properties_t *pDeviceProperties) {
  Device *device = unwrap<Device>(hDevice);
  if (!device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pDeviceProperties)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_device_properties_t &p = *pDeviceProperties;
  bool xeHPC = device->info->grfBytes == 64;
  p.type = ZE_DEVICE_TYPE_GPU;
  p.vendorId = 0x8086;
  p.deviceId = device->pciId;
  p.flags = 0;
  p.subdeviceId = 0;
  p.coreClockRate = 1000;
  p.maxMemAllocSize = uint64_t(4) << 30;
  p.maxHardwareContexts = 1;
  p.maxCommandQueuePriority = 0;
  // The device table's facts, as a real driver reports them.
  p.numThreadsPerEU = device->info->grfModes.front().threadsPerEU;
  p.physicalEUSimdWidth = xeHPC ? 16 : 8;
  p.numEUsPerSubslice = device->info->eusPerCore;
  p.numSubslicesPerSlice = 1;
  p.numSlices = 1;
  p.timerResolution = 1;
  p.timestampValidBits = 64;
  p.kernelTimestampValidBits = 32;
  std::memset(p.uuid.id, 0, sizeof(p.uuid.id));
  std::memcpy(p.uuid.id, &device->pciId, sizeof(device->pciId));
  std::memcpy(p.uuid.id + 4, "xpuoffline", 10);
  std::snprintf(p.name, sizeof(p.name), "%s", device->name.c_str());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetComputeProperties(
    ze_device_handle_t hDevice, ze_device_compute_properties_t *pProps) {
  Device *device = unwrap<Device>(hDevice);
  if (!device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pProps)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  unsigned maxGroup = device->info->maxWorkGroupSize;
  pProps->maxTotalGroupSize = maxGroup;
  pProps->maxGroupSizeX = pProps->maxGroupSizeY = pProps->maxGroupSizeZ =
      maxGroup;
  pProps->maxGroupCountX = pProps->maxGroupCountY = pProps->maxGroupCountZ =
      UINT32_MAX;
  pProps->maxSharedLocalMemory = 64 * 1024;
  llvm::ArrayRef<unsigned> sizes = device->info->subgroupSizes;
  pProps->numSubGroupSizes =
      std::min<uint32_t>(sizes.size(), ZE_SUBGROUPSIZE_COUNT);
  for (uint32_t i = 0; i < pProps->numSubGroupSizes; ++i)
    pProps->subGroupSizes[i] = sizes[i];
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetModuleProperties(
    ze_device_handle_t hDevice, ze_device_module_properties_t *pProps) {
  if (!unwrap<Device>(hDevice))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pProps)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // What IGC 1.0.12504 reads (LLVM's SPIR-V backend emits 1.4).
  pProps->spirvVersionSupported = ZE_MAKE_VERSION(1, 4);
  pProps->flags =
      ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  pProps->fp16flags = pProps->fp32flags = pProps->fp64flags = 0;
  pProps->maxArgumentsSize = 2048;
  pProps->printfBufferSize = 4 * 1024 * 1024;
  std::memset(pProps->nativeKernelSupported.id, 0,
              sizeof(pProps->nativeKernelSupported.id));
  return ZE_RESULT_SUCCESS;
}

} // namespace mlir::xpu::ze_offline
