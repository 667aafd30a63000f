//===- OfflineDriverState.cpp - Offline driver state and builds -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The offline driver's process-wide state, its device configuration and the
// two ways a module gets its binary: a SPIR-V build on an isolated worker
// (validated first, then measured) or a native binary read back.
//
//===----------------------------------------------------------------------===//

#include "OfflineDriverState.h"
#include "OfflineDriver.h"

#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

using namespace llvm;

namespace mlir::xpu::ze_offline {

State &getState() {
  static State *state = new State;
  return *state;
}

void trace(const Twine &message) {
  if (isTracing())
    std::fprintf(stderr, "ze_xpu_offline: %s\n", message.str().c_str());
}

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

namespace {

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

uint32_t clampU32(int64_t value) {
  return uint32_t(std::clamp<int64_t>(value, 0, UINT32_MAX));
}

} // namespace

/// The compiler the driver's workers load: this driver is an edge (the Level
/// Zero loader starts it, with no options), so it resolves
/// $XPU_CODEGEN_COMPILER_ROOT once per process, else the system's.
static Expected<const CompilerInstallation &> getDriverCompiler() {
  struct Resolved {
    std::optional<CompilerInstallation> compiler;
    std::string error;
  };
  static const Resolved resolved = [] {
    Resolved result;
    Expected<CompilerInstallation> compiler = resolveDefaultCompiler();
    if (compiler)
      result.compiler = std::move(*compiler);
    else
      result.error = toString(compiler.takeError());
    return result;
  }();
  if (!resolved.compiler)
    return createStringError(resolved.error);
  return *resolved.compiler;
}

Expected<WorkerPool &> getPool() {
  Expected<const CompilerInstallation &> compiler = getDriverCompiler();
  if (!compiler)
    return compiler.takeError();
  unsigned jobs = 0;
  if (const char *env = std::getenv("XPU_ZE_OFFLINE_JOBS"))
    (void)StringRef(env).getAsInteger(10, jobs);
  return WorkerPool::getShared(jobs, /*limits=*/{},
                               WorkerProgram::CompileWorker,
                               /*maxJobsPerWorker=*/0, &*compiler);
}

uint64_t hashBinary(ArrayRef<char> binary) {
  return xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(binary.data()), binary.size()));
}

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

bool isInitialized() {
  State &state = getState();
  return state.initResult == ZE_RESULT_SUCCESS;
}

bool isTracing() {
  static bool tracing = [] {
    const char *env = std::getenv("XPU_ZE_OFFLINE_DEBUG");
    return env && *env && StringRef(env) != "0";
  }();
  return tracing;
}

} // namespace mlir::xpu::ze_offline
