//===- LevelZeroBackend.cpp - Level Zero compiler backend -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Compiles through whatever Level Zero driver the real loader finds (the GPU
// driver, or the project's offline driver named in ZE_ENABLE_ALT_DRIVERS):
// zeModuleCreate from SPIR-V with the build flags in Level Zero spelling, the
// build log, zeModuleGetNativeBinary, zeKernelGetProperties per kernel, and
// a reload of the native binary (ZE_MODULE_FORMAT_NATIVE) as a check that
// the bytes are usable ahead of time.
//
// It runs in the isolated worker, so neither the loader nor the driver ever
// touches the host. zeInit happens once per worker; after a failed zeInit
// nothing else is called (loader 1.8.12 segfaults in zeDriverGet then).
//
// A request with empty SPIR-V is a probe: the response succeeds when a
// device of the requested arch exists, and its log lists the devices found.
// BackendSelection uses it to decide backend=level-zero/auto without ever
// initializing Level Zero in the host.
//
//===----------------------------------------------------------------------===//

#include "CompilerBackend.h"

#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <level_zero/ze_api.h>

#include <chrono>
#include <cstdlib>

using namespace llvm;

namespace mlir::xpu::worker {
namespace {

/// "0x78000001 (ZE_RESULT_ERROR_UNINITIALIZED)" for the codes users meet.
std::string describe(ze_result_t result) {
  StringRef name;
  switch (result) {
  case ZE_RESULT_SUCCESS:
    name = "ZE_RESULT_SUCCESS";
    break;
  case ZE_RESULT_ERROR_UNINITIALIZED:
    name = "ZE_RESULT_ERROR_UNINITIALIZED";
    break;
  case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
    name = "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
    break;
  case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
    name = "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
    break;
  case ZE_RESULT_ERROR_INVALID_NATIVE_BINARY:
    name = "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY";
    break;
  case ZE_RESULT_ERROR_DEVICE_LOST:
    name = "ZE_RESULT_ERROR_DEVICE_LOST";
    break;
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
    name = "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    break;
  case ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE:
    name = "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE";
    break;
  default:
    return formatv("{0:x}", unsigned(result)).str();
  }
  return formatv("{0:x} ({1})", unsigned(result), name).str();
}

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// One device the loader reported, with the arch it matches (if any).
struct FoundDevice {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_device_properties_t properties{};
  const DeviceInfo *info = nullptr;
  /// Created on the first compile for this device.
  ze_context_handle_t context = nullptr;

  std::string describe() const {
    std::string arch = info ? info->name.str() : "unknown arch";
    return formatv("'{0}' (vendor {1:x4}, device {2:x4}: {3})", properties.name,
                   properties.vendorId, properties.deviceId, arch)
        .str();
  }
};

class LevelZeroBackend : public CompilerBackend {
public:
  static Expected<std::unique_ptr<CompilerBackend>> load();

  Expected<std::string> getIdentity() override;
  Expected<WorkerResponse> compile(const WorkerRequest &request) override;

private:
  std::string listDevices() const;
  FoundDevice *findDevice(StringRef arch);
  Expected<WorkerResponse> build(FoundDevice &device,
                                 const WorkerRequest &request);

  std::vector<FoundDevice> devices;
  std::string identity;
};

Expected<std::unique_ptr<CompilerBackend>> LevelZeroBackend::load() {
  ze_result_t result = zeInit(ZE_INIT_FLAG_GPU_ONLY);
  if (result != ZE_RESULT_SUCCESS) {
    // Nothing else may be called now: the loader keeps function pointers of
    // the driver it unloaded.
    const char *alt = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    std::string hint =
        alt && *alt
            ? formatv("ZE_ENABLE_ALT_DRIVERS={0}", alt).str()
            : "no Intel GPU driver found; the offline driver is enabled "
              "with ZE_ENABLE_ALT_DRIVERS=<path to libze_xpu_offline.so>";
    return makeError(formatv("zeInit failed: {0}: no usable Level Zero "
                             "driver ({1})",
                             describe(result), hint));
  }
  auto backend = std::make_unique<LevelZeroBackend>();
  uint32_t driverCount = 0;
  if ((result = zeDriverGet(&driverCount, nullptr)) != ZE_RESULT_SUCCESS)
    return makeError("zeDriverGet failed: " + describe(result));
  SmallVector<ze_driver_handle_t> drivers(driverCount);
  if (driverCount &&
      (result = zeDriverGet(&driverCount, drivers.data())) != ZE_RESULT_SUCCESS)
    return makeError("zeDriverGet failed: " + describe(result));
  drivers.resize(driverCount);
  for (ze_driver_handle_t driver : drivers) {
    uint32_t deviceCount = 0;
    if (zeDeviceGet(driver, &deviceCount, nullptr) != ZE_RESULT_SUCCESS ||
        deviceCount == 0)
      continue;
    SmallVector<ze_device_handle_t> handles(deviceCount);
    if (zeDeviceGet(driver, &deviceCount, handles.data()) != ZE_RESULT_SUCCESS)
      continue;
    handles.resize(deviceCount);
    for (ze_device_handle_t handle : handles) {
      FoundDevice found;
      found.driver = driver;
      found.device = handle;
      found.properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (zeDeviceGetProperties(handle, &found.properties) != ZE_RESULT_SUCCESS)
        continue;
      if (found.properties.type == ZE_DEVICE_TYPE_GPU &&
          found.properties.vendorId == 0x8086)
        found.info = lookupDeviceByPCIId(found.properties.deviceId);
      backend->devices.push_back(found);
    }
  }
  return std::unique_ptr<CompilerBackend>(std::move(backend));
}

std::string LevelZeroBackend::listDevices() const {
  if (devices.empty())
    return "none";
  SmallVector<std::string> parts;
  for (const FoundDevice &device : devices)
    parts.push_back(device.describe());
  return join(parts, ", ");
}

FoundDevice *LevelZeroBackend::findDevice(StringRef arch) {
  const DeviceInfo *wanted = lookupDevice(arch);
  for (FoundDevice &device : devices)
    if (wanted && device.info == wanted)
      return &device;
  return nullptr;
}

Expected<std::string> LevelZeroBackend::getIdentity() {
  if (!identity.empty())
    return identity;
  // The driver UUID and version name the compiler behind it (the offline
  // driver hashes its IGC identity into the UUID).
  SmallVector<std::string> parts;
  SmallVector<ze_driver_handle_t> seen;
  for (const FoundDevice &device : devices) {
    if (is_contained(seen, device.driver))
      continue;
    seen.push_back(device.driver);
    ze_driver_properties_t properties{};
    properties.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
    ze_result_t result = zeDriverGetProperties(device.driver, &properties);
    if (result != ZE_RESULT_SUCCESS)
      return makeError("zeDriverGetProperties failed: " + describe(result));
    ze_api_version_t api = ZE_API_VERSION_1_0;
    (void)zeDriverGetApiVersion(device.driver, &api);
    parts.push_back(formatv("driver {0} version {1:x} API {2}.{3}",
                            toHex(ArrayRef<uint8_t>(properties.uuid.id),
                                  /*LowerCase=*/true),
                            properties.driverVersion, ZE_MAJOR_VERSION(api),
                            ZE_MINOR_VERSION(api)));
  }
  identity = formatv("level-zero ({0}; devices: {1})", join(parts, "; "),
                     listDevices());
  return identity;
}

Expected<WorkerResponse>
LevelZeroBackend::compile(const WorkerRequest &request) {
  FoundDevice *device = findDevice(request.device);
  if (request.spirv.empty()) {
    WorkerResponse probe;
    probe.succeeded = device != nullptr;
    probe.log = listDevices();
    return probe;
  }
  if (!device)
    return makeError(formatv("no Level Zero device for arch '{0}'; devices "
                             "found: {1}",
                             request.device, listDevices()));
  return build(*device, request);
}

/// The build log's text; destroys the log.
std::string takeBuildLog(ze_module_build_log_handle_t log) {
  if (!log)
    return "";
  std::string text;
  size_t size = 0;
  if (zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS &&
      size > 0) {
    text.resize(size);
    if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS)
      text.clear();
    text.resize(StringRef(text.c_str()).size());
  }
  (void)zeModuleBuildLogDestroy(log);
  return text;
}

/// The device's context, created on first use.
static Error ensureContext(FoundDevice &device) {
  if (device.context)
    return Error::success();
  ze_context_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  ze_result_t result = zeContextCreate(device.driver, &desc, &device.context);
  if (result == ZE_RESULT_SUCCESS)
    return Error::success();
  device.context = nullptr;
  return makeError("zeContextCreate failed: " + describe(result));
}

/// The built module's native binary.
static Error readNativeBinary(ze_module_handle_t module,
                              std::vector<char> &binary) {
  size_t size = 0;
  ze_result_t result = zeModuleGetNativeBinary(module, &size, nullptr);
  if (result != ZE_RESULT_SUCCESS || size == 0)
    return makeError("zeModuleGetNativeBinary failed: " + describe(result));
  binary.resize(size);
  result = zeModuleGetNativeBinary(module, &size,
                                   reinterpret_cast<uint8_t *>(binary.data()));
  if (result != ZE_RESULT_SUCCESS)
    return makeError("zeModuleGetNativeBinary failed: " + describe(result));
  binary.resize(size);
  return Error::success();
}

/// What the driver says of each kernel of the built module.
static Error readKernelProperties(ze_module_handle_t module,
                                  std::vector<WorkerKernelProperties> &out) {
  uint32_t count = 0;
  ze_result_t result = zeModuleGetKernelNames(module, &count, nullptr);
  if (result != ZE_RESULT_SUCCESS)
    return makeError("zeModuleGetKernelNames failed: " + describe(result));
  std::vector<const char *> names(count);
  if (count && (result = zeModuleGetKernelNames(
                    module, &count, names.data())) != ZE_RESULT_SUCCESS)
    return makeError("zeModuleGetKernelNames failed: " + describe(result));
  names.resize(count);
  for (const char *name : names) {
    ze_kernel_desc_t kernelDesc{};
    kernelDesc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
    kernelDesc.pKernelName = name;
    ze_kernel_handle_t kernel = nullptr;
    if ((result = zeKernelCreate(module, &kernelDesc, &kernel)) !=
        ZE_RESULT_SUCCESS)
      return makeError(
          formatv("zeKernelCreate({0}) failed: {1}", name, describe(result)));
    ze_kernel_properties_t properties{};
    properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    result = zeKernelGetProperties(kernel, &properties);
    (void)zeKernelDestroy(kernel);
    if (result != ZE_RESULT_SUCCESS)
      return makeError(formatv("zeKernelGetProperties({0}) failed: {1}", name,
                               describe(result)));
    out.push_back({name, properties.spillMemSize, properties.privateMemSize});
  }
  return Error::success();
}

/// What ahead-of-time users do with the bytes: load them back as native
/// code. A binary the driver cannot reload is a failed build.
static Error reloadNative(FoundDevice &device, ArrayRef<char> binary) {
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = binary.size();
  desc.pInputModule = reinterpret_cast<const uint8_t *>(binary.data());
  desc.pBuildFlags = "";
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t result =
      zeModuleCreate(device.context, device.device, &desc, &module, &log);
  std::string text = takeBuildLog(log);
  if (result != ZE_RESULT_SUCCESS)
    return makeError("reloading the native binary (ZE_MODULE_FORMAT_NATIVE) "
                     "failed: " +
                     describe(result) +
                     (text.empty() ? "" : ": " + StringRef(text).trim()));
  (void)zeModuleDestroy(module);
  return Error::success();
}

Expected<WorkerResponse> LevelZeroBackend::build(FoundDevice &device,
                                                 const WorkerRequest &request) {
  if (Error error = ensureContext(device))
    return std::move(error);

  WorkerResponse response;
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = request.spirv.size();
  desc.pInputModule = reinterpret_cast<const uint8_t *>(request.spirv.data());
  desc.pBuildFlags = request.options.c_str();
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  auto start = std::chrono::steady_clock::now();
  ze_result_t result =
      zeModuleCreate(device.context, device.device, &desc, &module, &log);
  auto end = std::chrono::steady_clock::now();
  response.compileMs =
      std::chrono::duration<double, std::milli>(end - start).count();
  response.returnCode = int32_t(result);
  response.log = takeBuildLog(log);
  auto fail = [&](Error error) {
    if (!response.log.empty() && !StringRef(response.log).ends_with("\n"))
      response.log += "\n";
    response.log += toString(std::move(error)) + "\n";
    response.succeeded = false;
    response.binary.clear();
    response.kernels.clear();
    if (module)
      (void)zeModuleDestroy(module);
    return response;
  };
  if (result != ZE_RESULT_SUCCESS) {
    module = nullptr;
    return fail(makeError("zeModuleCreate failed: " + describe(result)));
  }
  if (Error error = readNativeBinary(module, response.binary))
    return fail(std::move(error));
  if (Error error = readKernelProperties(module, response.kernels))
    return fail(std::move(error));
  (void)zeModuleDestroy(module);
  module = nullptr;
  if (Error error = reloadNative(device, response.binary))
    return fail(std::move(error));
  response.succeeded = true;
  return response;
}

} // namespace

Expected<std::unique_ptr<CompilerBackend>> createLevelZeroBackend() {
  return LevelZeroBackend::load();
}

} // namespace mlir::xpu::worker
