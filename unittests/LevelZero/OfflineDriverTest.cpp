//===- OfflineDriverTest.cpp - The offline driver through the loader ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Uses libze_xpu_offline.so exactly as a Level Zero program in CI would: the
// real loader, ZE_ENABLE_ALT_DRIVERS, and nothing but the public API. The
// lit suite (test/Unit/lit.cfg.py) sets ZE_ENABLE_ALT_DRIVERS and
// XPU_ZE_OFFLINE_DEVICES=pvc,acm-g10; run by hand, the test points the
// loader at the driver it was built with.
//
// Expected numbers are IGC's measurements of the test kernels on pvc
// (test/Inputs/Native/README.md): the same facts the ocloc path reads.
//
//===----------------------------------------------------------------------===//

#include "TestInputs.h"

#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <level_zero/ze_api.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir::xpu;
using llvm::Expected;
using llvm::StringRef;

namespace {

std::string readWorkerInput(StringRef name) {
  std::string path = (llvm::Twine(XPU_WORKER_TEST_INPUTS) + "/" + name).str();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  return (*buffer)->getBuffer().str();
}

/// One loader session for the whole executable: the loader reads
/// ZE_ENABLE_ALT_DRIVERS once, at the first zeInit.
class OfflineDriver : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    if (!std::getenv("ZE_ENABLE_ALT_DRIVERS"))
      ::setenv("ZE_ENABLE_ALT_DRIVERS", XPU_ZE_OFFLINE_DRIVER, 1);
    initResult = zeInit(ZE_INIT_FLAG_GPU_ONLY);
    if (initResult != ZE_RESULT_SUCCESS)
      return; // Never call into the loader after a failed zeInit.
    uint32_t count = 1;
    if (zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count != 1)
      return;
    uint32_t deviceCount = 0;
    zeDeviceGet(driver, &deviceCount, nullptr);
    devices.resize(deviceCount);
    zeDeviceGet(driver, &deviceCount, devices.data());
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    zeContextCreate(driver, &desc, &context);
  }

  void SetUp() override {
    ASSERT_EQ(initResult, ZE_RESULT_SUCCESS)
        << "zeInit failed; ZE_ENABLE_ALT_DRIVERS="
        << std::getenv("ZE_ENABLE_ALT_DRIVERS");
    ASSERT_NE(driver, nullptr);
    ASSERT_NE(context, nullptr);
    ASSERT_FALSE(devices.empty());
  }

  /// The device whose name mentions `arch`.
  static ze_device_handle_t findDevice(StringRef arch) {
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
      if (zeDeviceGetProperties(device, &props) == ZE_RESULT_SUCCESS &&
          StringRef(props.name).contains(("(" + arch + ")").str()))
        return device;
    }
    return nullptr;
  }

  struct Build {
    ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
    ze_module_handle_t module = nullptr;
    std::string log;
  };

  static Build create(ze_module_format_t format, const std::string &bytes,
                      const char *flags, StringRef arch = "pvc") {
    Build build;
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = bytes.size();
    desc.pInputModule = reinterpret_cast<const uint8_t *>(bytes.data());
    desc.pBuildFlags = flags;
    ze_module_build_log_handle_t log = nullptr;
    build.result =
        zeModuleCreate(context, findDevice(arch), &desc, &build.module, &log);
    // The log handle is real on success and failure alike.
    EXPECT_NE(log, nullptr);
    if (log) {
      size_t size = 0;
      EXPECT_EQ(zeModuleBuildLogGetString(log, &size, nullptr),
                ZE_RESULT_SUCCESS);
      std::vector<char> text(size);
      EXPECT_EQ(zeModuleBuildLogGetString(log, &size, text.data()),
                ZE_RESULT_SUCCESS);
      build.log = text.data();
      EXPECT_EQ(zeModuleBuildLogDestroy(log), ZE_RESULT_SUCCESS);
    }
    return build;
  }

  static std::vector<std::string> kernelNames(ze_module_handle_t module) {
    uint32_t count = 0;
    EXPECT_EQ(zeModuleGetKernelNames(module, &count, nullptr),
              ZE_RESULT_SUCCESS);
    std::vector<const char *> names(count);
    EXPECT_EQ(zeModuleGetKernelNames(module, &count, names.data()),
              ZE_RESULT_SUCCESS);
    return std::vector<std::string>(names.begin(), names.end());
  }

  static ze_kernel_properties_t kernelProperties(ze_module_handle_t module,
                                                 const char *name) {
    ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t kernel = nullptr;
    EXPECT_EQ(zeKernelCreate(module, &desc, &kernel), ZE_RESULT_SUCCESS);
    if (!kernel)
      return props;
    EXPECT_EQ(zeKernelGetProperties(kernel, &props), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelDestroy(kernel), ZE_RESULT_SUCCESS);
    return props;
  }

  static std::string nativeBinary(ze_module_handle_t module) {
    size_t size = 0;
    EXPECT_EQ(zeModuleGetNativeBinary(module, &size, nullptr),
              ZE_RESULT_SUCCESS);
    std::string bytes(size, '\0');
    EXPECT_EQ(zeModuleGetNativeBinary(
                  module, &size, reinterpret_cast<uint8_t *>(bytes.data())),
              ZE_RESULT_SUCCESS);
    return bytes;
  }

  static inline ze_result_t initResult = ZE_RESULT_ERROR_UNINITIALIZED;
  static inline ze_driver_handle_t driver = nullptr;
  static inline std::vector<ze_device_handle_t> devices;
  static inline ze_context_handle_t context = nullptr;
};

TEST_F(OfflineDriver, PresentsOneIntelGPUPerConfiguredArch) {
  const char *configured = std::getenv("XPU_ZE_OFFLINE_DEVICES");
  bool two = configured && StringRef(configured) == "pvc,acm-g10";
  EXPECT_EQ(devices.size(), two ? 2u : 1u);
  ze_device_handle_t pvc = findDevice("pvc");
  ASSERT_NE(pvc, nullptr);
  ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_EQ(zeDeviceGetProperties(pvc, &props), ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.type, ZE_DEVICE_TYPE_GPU);
  EXPECT_EQ(props.vendorId, 0x8086u);
  EXPECT_EQ(props.deviceId, 0x0BD5u);
  if (two) {
    ze_device_handle_t acm = findDevice("acm-g10");
    ASSERT_NE(acm, nullptr);
    ASSERT_EQ(zeDeviceGetProperties(acm, &props), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.deviceId, 0x56A0u);
  }
  ze_driver_properties_t driverProps{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
  EXPECT_EQ(zeDriverGetProperties(driver, &driverProps), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, BuildsSPIRVWithBuildLogAndSpillSize) {
  Build build =
      create(ZE_MODULE_FORMAT_IL_SPIRV, test::readInput("spill_small_only.spv"),
             "-ze-intel-128-GRF-per-thread");
  ASSERT_EQ(build.result, ZE_RESULT_SUCCESS) << build.log;
  // IGC's warning reaches the build log.
  EXPECT_NE(build.log.find("spill_small_only  compiled SIMD32 allocated 128 "
                           "regs and spilled around 150"),
            std::string::npos)
      << build.log;
  EXPECT_EQ(kernelNames(build.module),
            std::vector<std::string>{"spill_small_only"});
  ze_kernel_properties_t props =
      kernelProperties(build.module, "spill_small_only");
  // 150 GRF-sized units x 64 bytes, per hardware thread.
  EXPECT_EQ(props.spillMemSize, 9600u);
  EXPECT_EQ(props.privateMemSize, 0u);
  EXPECT_EQ(props.maxSubgroupSize, 32u);

  Expected<ZebinInfo> info = readZebin(nativeBinary(build.module));
  ASSERT_TRUE(bool(info)) << llvm::toString(info.takeError());
  ASSERT_EQ(info->kernels.size(), 1u);
  EXPECT_EQ(info->kernels[0].grfCount, 128);
  EXPECT_EQ(zeModuleDestroy(build.module), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, MapsLevelZeroLargeGRFFlag) {
  Build build =
      create(ZE_MODULE_FORMAT_IL_SPIRV, test::readInput("spill_small_only.spv"),
             "-ze-opt-large-register-file");
  ASSERT_EQ(build.result, ZE_RESULT_SUCCESS) << build.log;
  EXPECT_EQ(kernelProperties(build.module, "spill_small_only").spillMemSize,
            0u);
  Expected<ZebinInfo> info = readZebin(nativeBinary(build.module));
  ASSERT_TRUE(bool(info)) << llvm::toString(info.takeError());
  EXPECT_EQ(info->kernels[0].grfCount, 256);
  EXPECT_EQ(zeModuleDestroy(build.module), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, NonSpillingKernelsReportNoSpill) {
  for (const char *name : {"nospill", "private_array"}) {
    Build build = create(ZE_MODULE_FORMAT_IL_SPIRV,
                         test::readInput((llvm::Twine(name) + ".spv").str()),
                         "-ze-intel-128-GRF-per-thread");
    ASSERT_EQ(build.result, ZE_RESULT_SUCCESS) << name << ": " << build.log;
    // private_array uses 32768 bytes of scratch but spills nothing.
    EXPECT_EQ(kernelProperties(build.module, name).spillMemSize, 0u) << name;
    EXPECT_EQ(zeModuleDestroy(build.module), ZE_RESULT_SUCCESS);
  }
}

TEST_F(OfflineDriver, ReloadsItsNativeBinary) {
  Build build =
      create(ZE_MODULE_FORMAT_IL_SPIRV, test::readInput("spill_both.spv"),
             "-ze-opt-large-register-file");
  ASSERT_EQ(build.result, ZE_RESULT_SUCCESS) << build.log;
  EXPECT_EQ(kernelProperties(build.module, "spill_both").spillMemSize, 11648u);
  std::string binary = nativeBinary(build.module);
  EXPECT_EQ(zeModuleDestroy(build.module), ZE_RESULT_SUCCESS);

  Build reload = create(ZE_MODULE_FORMAT_NATIVE, binary, "");
  ASSERT_EQ(reload.result, ZE_RESULT_SUCCESS) << reload.log;
  EXPECT_EQ(kernelNames(reload.module), std::vector<std::string>{"spill_both"});
  EXPECT_EQ(kernelProperties(reload.module, "spill_both").spillMemSize, 11648u);
  EXPECT_EQ(nativeBinary(reload.module), binary);
  EXPECT_EQ(zeModuleDestroy(reload.module), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, BadSPIRVIsABuildFailureNotACrash) {
  // Single-byte corruptions that make IGC exit(1) or abort() in-process.
  for (const char *name : {"corrupt-exit.spv", "corrupt-abort.spv"}) {
    Build build = create(ZE_MODULE_FORMAT_IL_SPIRV, readWorkerInput(name), "");
    EXPECT_EQ(build.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) << name;
    EXPECT_EQ(build.module, nullptr);
    EXPECT_NE(build.log.find("error"), std::string::npos) << build.log;
  }
  Build garbage = create(ZE_MODULE_FORMAT_IL_SPIRV,
                         std::string("\x03\x02\x23\x07garbage!", 12), "");
  EXPECT_EQ(garbage.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_NE(garbage.log.find("invalid SPIR-V"), std::string::npos)
      << garbage.log;
  // Without validation the corruptions reach IGC, which kills its worker
  // process: still a build failure here.
  ::setenv("XPU_ZE_OFFLINE_VALIDATE", "0", 1);
  for (const char *name : {"corrupt-exit.spv", "corrupt-abort.spv"}) {
    Build build = create(ZE_MODULE_FORMAT_IL_SPIRV, readWorkerInput(name), "");
    EXPECT_EQ(build.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) << name;
    EXPECT_NE(build.log.find("compiler worker"), std::string::npos)
        << build.log;
  }
  ::unsetenv("XPU_ZE_OFFLINE_VALIDATE");
  // Still here, and the driver still builds.
  Build good =
      create(ZE_MODULE_FORMAT_IL_SPIRV, test::readInput("nospill.spv"), "");
  ASSERT_EQ(good.result, ZE_RESULT_SUCCESS) << good.log;
  EXPECT_EQ(zeModuleDestroy(good.module), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, BadNativeBinaryIsAnError) {
  Build garbage = create(ZE_MODULE_FORMAT_NATIVE, std::string(256, '\x5a'), "");
  EXPECT_EQ(garbage.result, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
  EXPECT_EQ(garbage.module, nullptr);
  EXPECT_NE(garbage.log.find("invalid native binary"), std::string::npos)
      << garbage.log;

  std::string zebin = test::readInput("nospill.pvc.small.zebin");
  Build truncated =
      create(ZE_MODULE_FORMAT_NATIVE, zebin.substr(0, zebin.size() / 2), "");
  EXPECT_EQ(truncated.result, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);

  // A zebin made elsewhere (ocloc) loads; its spill comes from the binary.
  Build ocloc = create(ZE_MODULE_FORMAT_NATIVE, zebin, "");
  ASSERT_EQ(ocloc.result, ZE_RESULT_SUCCESS) << ocloc.log;
  EXPECT_EQ(kernelNames(ocloc.module), std::vector<std::string>{"nospill"});
  EXPECT_EQ(zeModuleDestroy(ocloc.module), ZE_RESULT_SUCCESS);
}

TEST_F(OfflineDriver, RejectsUnknownKernelsAndUnsupportedCalls) {
  Build build =
      create(ZE_MODULE_FORMAT_IL_SPIRV, test::readInput("nospill.spv"), "");
  ASSERT_EQ(build.result, ZE_RESULT_SUCCESS) << build.log;
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "nope"};
  ze_kernel_handle_t kernel = nullptr;
  EXPECT_EQ(zeKernelCreate(build.module, &desc, &kernel),
            ZE_RESULT_ERROR_INVALID_KERNEL_NAME);

  desc.pKernelName = "nospill";
  ASSERT_EQ(zeKernelCreate(build.module, &desc, &kernel), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeKernelSetGroupSize(kernel, 16, 1, 1),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(zeKernelDestroy(kernel), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeModuleDestroy(build.module), ZE_RESULT_SUCCESS);

  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t queue = nullptr;
  EXPECT_EQ(
      zeCommandQueueCreate(context, findDevice("pvc"), &queueDesc, &queue),
      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

} // namespace
