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
//===----------------------------------------------------------------------===//

#include "OfflineDriver.h"

#include "XPUCodegen/Target/Device/DeviceTable.h"
#include "XPUCodegen/Target/Native/GRFBuild.h"
#include "XPUCodegen/Target/Native/Zebin.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Target/Worker/WorkerPool.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace llvm;

namespace mlir::xpu::ze_offline {
namespace {

/// Tags that make a stale or foreign handle an error instead of a crash in
/// most cases (the API gives no stronger guarantee).
enum class Tag : uint32_t {
  Driver = 0x5a450001,
  Device,
  Context,
  Module,
  BuildLog,
  Kernel,
};

struct Object {
  explicit Object(Tag tag) : tag(tag) {}
  Tag tag;
};

struct Driver;

struct Device : Object {
  Device() : Object(Tag::Device) {}
  Driver *driver = nullptr;
  const DeviceInfo *info = nullptr;
  uint16_t pciId = 0;
  std::string name;
};

struct Driver : Object {
  Driver() : Object(Tag::Driver) {}
  std::vector<std::unique_ptr<Device>> devices;
};

struct Context : Object {
  Context() : Object(Tag::Context) {}
  Driver *driver = nullptr;
};

struct BuildLog : Object {
  BuildLog() : Object(Tag::BuildLog) {}
  std::string text;
};

/// What zeKernelGetProperties reports for one kernel.
struct KernelFacts {
  std::string name;
  uint32_t simd = 0;
  uint32_t spillMemSize = 0;
  uint32_t privateMemSize = 0;
};

struct Module : Object {
  Module() : Object(Tag::Module) {}
  Device *device = nullptr;
  std::vector<char> binary;
  std::vector<KernelFacts> kernels;
};

struct Kernel : Object {
  Kernel() : Object(Tag::Kernel) {}
  Module *module = nullptr;
  const KernelFacts *facts = nullptr;
};

template <typename T> constexpr Tag tagOf();
template <> constexpr Tag tagOf<Driver>() { return Tag::Driver; }
template <> constexpr Tag tagOf<Device>() { return Tag::Device; }
template <> constexpr Tag tagOf<Context>() { return Tag::Context; }
template <> constexpr Tag tagOf<Module>() { return Tag::Module; }
template <> constexpr Tag tagOf<BuildLog>() { return Tag::BuildLog; }
template <> constexpr Tag tagOf<Kernel>() { return Tag::Kernel; }

/// The object behind `handle`, or null for a null or foreign handle.
template <typename T, typename H> T *unwrap(H handle) {
  auto *object = reinterpret_cast<Object *>(handle);
  if (!object || object->tag != tagOf<T>())
    return nullptr;
  return static_cast<T *>(object);
}

template <typename H, typename T> H wrap(T *object) {
  return reinterpret_cast<H>(static_cast<Object *>(object));
}

/// Process-wide driver state. Deliberately leaked: an application may call
/// into the driver from its own static destructors.
struct State {
  std::once_flag initOnce;
  ze_result_t initResult = ZE_RESULT_ERROR_UNINITIALIZED;
  Driver driver;

  std::mutex mutex;
  /// Measurements of every binary this process built, by content hash, so
  /// that a native reload reports the same spill as the build did.
  std::map<uint64_t, std::vector<KernelFacts>> measured;
  /// The compiler identity, hashed into the driver UUID.
  std::string compilerIdentity;
};

State &getState() {
  static State *state = new State;
  return *state;
}

void trace(const Twine &message) {
  if (isTracing())
    std::fprintf(stderr, "ze_xpu_offline: %s\n", message.str().c_str());
}

/// Parses XPU_ZE_OFFLINE_DEVICES into devices. A bad entry fails zeInit
/// with a message on stderr: the loader then reports ZE_RESULT_ERROR_
/// UNINITIALIZED and nothing else would tell the user why.
ze_result_t configureDevices(Driver &driver) {
  const char *env = std::getenv("XPU_ZE_OFFLINE_DEVICES");
  StringRef list = env && *env ? StringRef(env) : StringRef("pvc");
  SmallVector<StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef raw : names) {
    StringRef name = raw.trim();
    const DeviceInfo *info = lookupDevice(name);
    if (!info || info->pciDeviceIds.empty()) {
      SmallVector<StringRef> usable;
      for (const DeviceInfo &device : getDevices())
        if (!device.pciDeviceIds.empty())
          usable.push_back(device.name);
      std::fprintf(stderr,
                   "ze_xpu_offline: XPU_ZE_OFFLINE_DEVICES: %s device '%s' "
                   "(devices with a known PCI ID: %s)\n",
                   info ? "no PCI device ID known for" : "unknown",
                   name.str().c_str(), join(usable, ", ").c_str());
      driver.devices.clear();
      return ZE_RESULT_ERROR_UNINITIALIZED;
    }
    if (any_of(driver.devices, [&](const std::unique_ptr<Device> &d) {
          return d->info == info;
        }))
      continue;
    auto device = std::make_unique<Device>();
    device->driver = &driver;
    device->info = info;
    device->pciId = info->pciDeviceIds.front();
    // The arch is in the name so that both people and name-based matchers
    // can tell the devices apart.
    device->name =
        formatv("Intel(R) XPU offline device ({0})", info->name).str();
    driver.devices.push_back(std::move(device));
  }
  if (driver.devices.empty()) {
    std::fprintf(stderr, "ze_xpu_offline: XPU_ZE_OFFLINE_DEVICES names no "
                         "device\n");
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  return ZE_RESULT_SUCCESS;
}

/// Level Zero build options in ocloc/OpenCL spelling: the GRF flags differ
/// (docs/LevelZero.md), everything else is passed through.
std::string toOclocOptions(StringRef zeOptions) {
  static const std::pair<StringRef, StringRef> kMap[] = {
      {"-ze-opt-large-register-file", "-cl-intel-256-GRF-per-thread"},
      {"-ze-intel-128-GRF-per-thread", "-cl-intel-128-GRF-per-thread"},
      {"-ze-intel-enable-auto-large-GRF-mode",
       "-cl-intel-enable-auto-large-GRF-mode"},
      {"-ze-opt-disable", "-cl-opt-disable"},
      {"-ze-opt-greater-than-4GB-buffer-required",
       "-cl-intel-greater-than-4GB-buffer-required"},
  };
  SmallVector<StringRef> words;
  SplitString(zeOptions, words);
  SmallVector<std::string> out;
  for (StringRef word : words) {
    auto it =
        find_if(kMap, [&](const auto &entry) { return entry.first == word; });
    out.push_back(it != std::end(kMap) ? it->second.str() : word.str());
  }
  return join(out, " ");
}

Expected<WorkerPool &> getPool() {
  unsigned jobs = 0;
  if (const char *env = std::getenv("XPU_ZE_OFFLINE_JOBS"))
    (void)StringRef(env).getAsInteger(10, jobs);
  return WorkerPool::getShared(jobs);
}

uint32_t clampU32(int64_t value) {
  return uint32_t(std::clamp<int64_t>(value, 0, UINT32_MAX));
}

uint64_t hashBinary(ArrayRef<char> binary) {
  return xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(binary.data()), binary.size()));
}

/// SPIR-V -> native code on an isolated worker, measured. Compiler and
/// validation failures are ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with the
/// reason in `log`.
ze_result_t buildFromSPIRV(Device &device, ArrayRef<char> spirv,
                           StringRef zeOptions, Module &module,
                           std::string &log) {
  // XPU_ZE_OFFLINE_VALIDATE=0 lets SPIR-V through unchecked (read per build,
  // for tests of the worker isolation): the workers then stand alone
  // between IGC and the application.
  const char *validate = std::getenv("XPU_ZE_OFFLINE_VALIDATE");
  bool skipValidation = validate && StringRef(validate) == "0";
  if (Error error = skipValidation ? Error::success() : validateSPIRV(spirv)) {
    log = "error: invalid SPIR-V, not passed to the compiler: " +
          toString(std::move(error)) + "\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  Expected<WorkerPool &> pool = getPool();
  if (!pool) {
    log = "error: cannot start the compiler workers: " +
          toString(pool.takeError()) + "\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  WorkerRequest request;
  request.backend = WorkerBackend::Ocloc;
  request.device = device.info->name.str();
  request.options = toOclocOptions(zeOptions);
  request.spirv.assign(spirv.begin(), spirv.end());
  trace(formatv("zeModuleCreate: {0} bytes of SPIR-V for {1}, ocloc options "
                "'{2}'",
                spirv.size(), request.device, request.options));
  Expected<WorkerResponse> response = pool->run(request);
  if (!response) {
    log =
        "error: the compiler worker failed: " + toString(response.takeError()) +
        "\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  log = response->log;
  Expected<BuildAttempt> attempt = measureBuild(
      BuildGRF::Default, request.options, *response, device.info->grfBytes);
  if (!attempt) {
    // measureBuild's message already carries the build log.
    log = "error: " + toString(attempt.takeError()) + "\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  module.binary = std::move(attempt->binary);
  for (const KernelMeasurement &m : attempt->kernels)
    module.kernels.push_back({m.name, clampU32(m.simd), clampU32(m.spillSize),
                              clampU32(m.privateSize)});
  State &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.measured[hashBinary(module.binary)] = module.kernels;
  return ZE_RESULT_SUCCESS;
}

/// A native binary: must be a readable zebin with kernels. Spills come from
/// the build of the same bytes in this process, else .ze_info spill_size,
/// else the scratch size (an upper bound, what NEO 22.43 reported).
ze_result_t loadNative(ArrayRef<char> binary, Module &module,
                       std::string &log) {
  Expected<ZebinInfo> info = readZebin(StringRef(binary.data(), binary.size()));
  if (!info) {
    log = "error: invalid native binary: " + toString(info.takeError()) + "\n";
    return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  }
  if (info->kernels.empty()) {
    log = "error: invalid native binary: no kernels\n";
    return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  }
  module.binary.assign(binary.begin(), binary.end());
  State &state = getState();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    auto it = state.measured.find(hashBinary(module.binary));
    if (it != state.measured.end()) {
      module.kernels = it->second;
      return ZE_RESULT_SUCCESS;
    }
  }
  for (const ZebinKernel &kernel : info->kernels)
    module.kernels.push_back(
        {kernel.name, clampU32(kernel.simd),
         clampU32(kernel.spillSize ? *kernel.spillSize : kernel.scratchSize),
         clampU32(kernel.privateSize)});
  return ZE_RESULT_SUCCESS;
}

/// The Level Zero "size query" idiom for strings: report the size including
/// the terminator, or copy as much as fits.
ze_result_t copyString(StringRef text, size_t *pSize, char *out) {
  if (!pSize)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!out) {
    *pSize = text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  if (*pSize == 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  size_t n = std::min(*pSize - 1, text.size());
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  return ZE_RESULT_SUCCESS;
}

/// Hands out up to *pCount handles, or the total when *pCount is 0.
template <typename H, typename T>
ze_result_t copyHandles(ArrayRef<T *> objects, uint32_t *pCount, H *out) {
  if (!pCount)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !out) {
    *pCount = objects.size();
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min<uint32_t>(*pCount, objects.size());
  for (uint32_t i = 0; i < *pCount; ++i)
    out[i] = wrap<H>(objects[i]);
  return ZE_RESULT_SUCCESS;
}

bool isInitialized() {
  State &state = getState();
  return state.initResult == ZE_RESULT_SUCCESS;
}

} // namespace

bool isTracing() {
  static bool tracing = [] {
    const char *env = std::getenv("XPU_ZE_OFFLINE_DEBUG");
    return env && *env && StringRef(env) != "0";
  }();
  return tracing;
}

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
