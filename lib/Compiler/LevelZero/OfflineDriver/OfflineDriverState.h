//===- OfflineDriverState.h - Offline driver objects and state --*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Compiler/LevelZero/OfflineDriver: the objects behind the
// Level Zero handles, the process-wide state and the build helpers
// (OfflineDriverState.cpp), shared by the driver/device entry points
// (OfflineDriver.cpp) and the context/module/kernel ones (OfflineModule.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVERSTATE_H
#define XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVERSTATE_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mlir::xpu::ze_offline {

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

State &getState();

/// Writes `message` to stderr when isTracing().
void trace(const llvm::Twine &message);

/// True once zeInit has configured the devices.
bool isInitialized();

/// Parses XPU_ZE_OFFLINE_DEVICES into devices. A bad entry fails zeInit
/// with a message on stderr: the loader then reports ZE_RESULT_ERROR_
/// UNINITIALIZED and nothing else would tell the user why.
ze_result_t configureDevices(Driver &driver);

/// The shared worker pool, XPU_ZE_OFFLINE_JOBS wide (0: the default).
llvm::Expected<WorkerPool &> getPool();

/// The content hash that keys State::measured and the kernel UUIDs.
uint64_t hashBinary(llvm::ArrayRef<char> binary);

/// SPIR-V -> native code on an isolated worker, measured. Compiler and
/// validation failures are ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with the
/// reason in `log`.
ze_result_t buildFromSPIRV(Device &device, llvm::ArrayRef<char> spirv,
                           llvm::StringRef zeOptions, Module &module,
                           std::string &log);

/// A native binary: must be a readable zebin with kernels. Spills come from
/// the build of the same bytes in this process, else .ze_info spill_size,
/// else the scratch size (an upper bound, what NEO 22.43 reported).
ze_result_t loadNative(llvm::ArrayRef<char> binary, Module &module,
                       std::string &log);

/// The Level Zero "size query" idiom for strings: report the size including
/// the terminator, or copy as much as fits.
ze_result_t copyString(llvm::StringRef text, size_t *pSize, char *out);

/// Hands out up to *pCount handles, or the total when *pCount is 0.
template <typename H, typename T>
ze_result_t copyHandles(llvm::ArrayRef<T *> objects, uint32_t *pCount, H *out) {
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

} // namespace mlir::xpu::ze_offline

#endif // XPUCODEGEN_LIB_TARGET_LEVELZERO_OFFLINEDRIVER_OFFLINEDRIVERSTATE_H
