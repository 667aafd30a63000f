//===- NativeCodegenDriver.h - SPIR-V modules to native code ----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Compiles a batch of SPIR-V modules to native code with the GRF decision of
// each: unique builds run once (deduplicated by content), concurrently on the
// worker pool, and results come back in input order whatever the `jobs`
// value. Independent of MLIR: the passes, the gpu::TargetAttrInterface model
// and the Python package all drive it.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_NATIVECODEGENDRIVER_H
#define XPUCODEGEN_COMPILER_CODEGEN_NATIVECODEGENDRIVER_H

#include "XPUCodegen/Compiler/Codegen/CodegenOptionDefaults.h"
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"
#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/LaunchLimits.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVModuleInfo.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mlir::xpu {

/// Which native compiler to use.
enum class BackendKind : uint8_t { Auto, Ocloc, LevelZero };

llvm::StringRef stringifyBackendKind(BackendKind kind);

/// Parses a `cache-max-size` value: bytes, or with a k/m/g suffix
/// (LLVM's cache policy syntax), e.g. "512m", "4g".
llvm::Expected<uint64_t> parseCacheMaxSize(llvm::StringRef text);

/// The default of `cache-max-size` (CodegenOptions.def), in bytes.
uint64_t getDefaultCacheMaxSize();

struct NativeCodegenOptions {
  BackendKind backend = listed<BackendKind>(codegen_option_default::backend);
  /// `auto` builds large too only when small spills more than this (bytes).
  int64_t spillThreshold =
      listed<int64_t>(codegen_option_default::spillThreshold);
  AutoStrategy autoStrategy =
      listed<AutoStrategy>(codegen_option_default::autoStrategy);
  /// Worker processes (0: number of hardware threads).
  unsigned jobs = listed<unsigned>(codegen_option_default::jobs);
  /// Persistent cache directory; empty: default location, "none": disabled.
  std::string cacheDir;
  /// Shared tier behind the directory, `redis[s]://[user[:password]@]
  /// host:port[/db]`; empty: $XPU_CODEGEN_CACHE_URL, "none": none. Unused
  /// without a directory.
  std::string cacheUrl;
  /// The shared tier's password file, TLS files, signing key and trusted
  /// keys (comma-separated), as the options give them; empty: the
  /// environment's (CompileSession makes the SharedCacheSecurity).
  std::string cachePasswordFile;
  std::string cacheTlsCa;
  std::string cacheTlsCert;
  std::string cacheTlsKey;
  std::string cacheSignKey;
  std::string cacheTrust;
  /// Bound of the persistent cache in bytes (0: only LLVM's default
  /// pruning: 75% of the free space, entries unused for a week).
  uint64_t cacheMaxSize = getDefaultCacheMaxSize();
  /// The compiler: an ocloc installation directory (CompilerInstallation);
  /// empty: $XPU_CODEGEN_COMPILER_ROOT, else the system's.
  std::string compilerRoot;
  WorkerLimits limits;
  /// What a SPIRV-Tools rejection of the input is: a warning recorded in
  /// the result (the module still compiles in the isolated worker), the
  /// module's error, or not checked at all.
  SPIRVValidation validation =
      listed<SPIRVValidation>(codegen_option_default::validateSPIRV);
  /// When a predicted-large build spills, also build small and keep the
  /// lesser (some kernels spill more in large mode). Off saves that build.
  bool verifyPredictedLarge =
      listed<bool>(codegen_option_default::verifyPredictedLarge);
  /// Debugging: build every build a second time and warn, naming the
  /// module and the sections, when the compiler answers differently (the
  /// first result is kept; a cache hit is compared with a fresh build).
  bool verifyDeterminism =
      listed<bool>(codegen_option_default::verifyDeterminism);
  /// Work-items per work-group of kernels whose SPIR-V declares none
  /// (`LocalSize`): what the caller will launch them with, e.g. Triton's
  /// num_warps x threads_per_warp. 0: unknown (only declared sizes count).
  uint64_t maxWorkGroupSize =
      listed<uint64_t>(codegen_option_default::maxWorkGroupSize);
  /// A kernel whose declared work-group fits no GRF mode fails its module
  /// (else: a warning, and it constrains nothing; LaunchLimits.h).
  bool strictLaunch = listed<bool>(codegen_option_default::strictLaunch);
  /// n_regs of builds whose flags do not pin the mode (default, IGC's auto
  /// flag): 0 (DESIGN.md) or 128 (Triton's current convention).
  int64_t nRegsDefault = listed<int64_t>(codegen_option_default::nRegsDefault);

private:
  /// A default of CodegenOptions.def: each is written once, in the list.
  template <typename T> static T listed(std::string_view text) {
    return getCodegenOptionDefault<T>(
        llvm::StringRef(text.data(), text.size()));
  }
};

/// A static register-pressure estimate of a module (its highest-pressure
/// kernel), as xpu-select-grf-mode recorded it in `xpu.pressure`.
struct PressureEstimate {
  /// Peak live bytes per lane.
  int64_t liveBytes = 0;
  /// Assumed SIMD width.
  int64_t simd = 0;
  /// Bytes per lane in the small register file.
  int64_t smallBudget = 0;
  GRFPrediction prediction = GRFPrediction::Uncertain;
};

/// One of the original modules of a linked module (xpu-link-modules).
struct LinkedPart {
  /// The original module's name.
  std::string name;
  /// Its kernels, as named in the linked SPIR-V.
  std::vector<std::string> kernels;
  /// The same kernels as the original module named them (for reports).
  std::vector<std::string> originalKernels;
  /// Its own estimate (xpu-select-grf-mode predict=true), for reports.
  std::optional<PressureEstimate> pressure;
};

/// One SPIR-V module to compile for one device.
struct ModuleCompileRequest {
  /// Name for diagnostics and reports (the gpu.module / gpu.binary name).
  std::string name;
  /// Device name or alias.
  std::string arch;
  GRFMode policy = GRFMode::Auto;
  /// How an `auto` policy runs its builds (xpu.auto_plan); only used with
  /// AutoStrategy::Measure.
  AutoPlan plan = AutoPlan::Measure;
  /// The estimate behind `plan`, for reports.
  std::optional<PressureEstimate> pressure;
  /// Extra build options appended to the GRF flag.
  std::string extraFlags;
  /// Overrides NativeCodegenOptions::maxWorkGroupSize for this module when
  /// non-zero.
  uint64_t maxWorkGroupSize = 0;
  std::vector<char> spirv;
  /// Set for a linked module: the original modules it holds. The module
  /// compiles once; each part then gets its own GRF decision, reusing the
  /// linked build where its decision asks for the mode that build has, and
  /// building alone (SPIR-V from emitPart) where it asks for another one.
  std::vector<LinkedPart> parts;
  /// The SPIR-V of part `i` alone (with the kernel names of the linked
  /// SPIR-V). May be called from several threads.
  std::function<llvm::Expected<std::vector<char>>(size_t)> emitPart;
};

struct LinkedPartResult;

/// The outcome for one module.
struct ModuleCompileResult {
  std::string name;
  /// Canonical device name.
  std::string arch;
  GRFDecision decision;
  /// The plan that ran and the estimate behind it (Measure and none when
  /// the module was not predicted).
  AutoPlan plan = AutoPlan::Measure;
  std::optional<PressureEstimate> pressure;
  /// Backend that compiled ("ocloc" or "level-zero") and why it was chosen.
  std::string backend;
  std::string backendReason;
  /// Identity of the compiler that produced the binary.
  std::string compilerIdentity;
  /// "hit" when every build came from the cache, "miss" when any compiled,
  /// "off" when the cache is disabled.
  std::string cache;
  /// SPIRV-Tools' rejection of the input under SPIRVValidation::Warn.
  std::string validation;
  /// The kernels of the SPIR-V as given: their required sub-group sizes.
  std::vector<SPIRVKernelInfo> spirvKernels;
  /// n_regs of the kept build: getNRegs of its mode, with
  /// NativeCodegenOptions::nRegsDefault for flags that do not pin the mode.
  int64_t nRegs = 0;
  /// For a linked request: one result per part, in order. The module's own
  /// decision is then its one linked build (no attempts when that build
  /// failed and every part was built alone).
  std::vector<LinkedPartResult> parts;
};

/// The outcome for one part of a linked module: its own decision, whose
/// attempts are the linked build restricted to its kernels or its own
/// builds.
struct LinkedPartResult {
  /// The part's result (named after the original module), or its error.
  std::optional<ModuleCompileResult> result;
  std::string error;
  /// True when the kept build is the part's own, not the linked one: the
  /// part is split out of the linked module.
  bool split = false;
};

/// The sub-group size every kernel of `result` requires (0 when none
/// requires one); std::nullopt when they differ.
std::optional<uint32_t>
getCommonRequiredSubgroupSize(const ModuleCompileResult &result);

/// The GRF mode a kept build really runs in: what its flags pin, or for
/// IGC's auto flag the mode IGC chose (read from the binary's grf_count).
/// "small", "large", "xlarge", "default", or a register count ("160") that
/// `-ze-exp-register-file-size` pinned.
llvm::StringRef getEffectiveGRFMode(const BuildAttempt &attempt);

class CompileCache;
struct DeviceInfo;

/// A compiler identity the cache holds, and the backend it belongs to.
struct CachedCompilerIdentity {
  /// "ocloc" or "level-zero".
  std::string backend;
  std::string identity;
};

/// The shared tier's security options, named as the list does.
// clang-format off
#define XPU_CACHE_SECURITY_OPTIONS(X)                                          \
  X(cachePasswordFile) X(cacheTlsCa) X(cacheTlsCert) X(cacheTlsKey)           \
  X(cacheSignKey) X(cacheTrust)
// clang-format on

namespace detail {
/// HoldsOption_FIELD<T>::value: whether `T` holds option FIELD of the list.
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  template <typename T, typename = void>                                       \
  struct HoldsOption_##FIELD : std::false_type {};                             \
  template <typename T>                                                        \
  struct HoldsOption_##FIELD<                                                  \
      T, std::void_t<decltype(std::declval<const T &>().FIELD)>>               \
      : std::true_type {};
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"

/// TakesOption_FIELD<T>::value: whether the driver takes option FIELD from a
/// holder `T` as it is: both hold it under the list's name and a value of
/// the list's type is the driver's (options the driver holds in another
/// form, such as `cache-max-size` in bytes, are set on their own).
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  template <typename T, typename Driver = NativeCodegenOptions,                \
            typename = void>                                                   \
  struct TakesOption_##FIELD : std::false_type {};                             \
  template <typename T, typename Driver>                                       \
  struct TakesOption_##FIELD<                                                  \
      T, Driver,                                                               \
      std::void_t<decltype(std::declval<const T &>().FIELD),                   \
                  std::enable_if_t<std::is_assignable_v<                       \
                      decltype((std::declval<Driver &>().FIELD)), TYPE>>>>     \
      : std::true_type {};
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
} // namespace detail

/// The session's options from a holder of some or all of CodegenOptions.def's
/// options (the xpu-native-codegen pass, the Python binding's
/// CompileOptions; xpu-module-cache or xpu-start-workers run alone), whose
/// values are checked already (checkCodegenOption). Options it does not hold
/// keep the list's defaults.
template <typename Options>
NativeCodegenOptions getNativeCodegenOptions(const Options &options) {
  NativeCodegenOptions result;
  // Every option of the list the driver holds as the list names it (a
  // generic lambda: the members are looked up only where they exist).
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  [](auto &driver, const auto &holder) {                                       \
    using Holder = std::decay_t<decltype(holder)>;                             \
    if constexpr (detail::TakesOption_##FIELD<Holder>::value)                  \
      driver.FIELD = holder.FIELD;                                             \
  }(result, options);
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
  // Those it holds in its own form.
  if constexpr (detail::HoldsOption_memoryLimitMiB<Options>::value)
    result.limits.memoryMiB = options.memoryLimitMiB;
  if constexpr (detail::HoldsOption_timeoutMs<Options>::value)
    result.limits.timeoutMs = options.timeoutMs;
  if constexpr (detail::HoldsOption_validateSPIRV<Options>::value)
    result.validation = options.validateSPIRV;
  if constexpr (detail::HoldsOption_cacheMaxSize<Options>::value)
    result.cacheMaxSize =
        llvm::expectedToOptional(parseCacheMaxSize(options.cacheMaxSize))
            .value_or(getDefaultCacheMaxSize());
  return result;
}

class CompileSession;

class NativeCodegenDriver {
public:
  /// A driver on what `session` resolved: its compiler, cache and pool;
  /// it decides as `options` say (a shared session's own options may be
  /// another pass's, equal only in what the session resolves).
  static llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
  create(std::shared_ptr<CompileSession> session,
         const NativeCodegenOptions &options);
  /// A driver on what `session` resolved, deciding as its options say.
  static llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
  create(std::shared_ptr<CompileSession> session);
  /// A driver on a session of its own.
  static llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
  create(const NativeCodegenOptions &options);
  ~NativeCodegenDriver();

  /// Compiles every request; element i of the result belongs to request i.
  /// A failure of one module (invalid SPIR-V, build error, dead worker) is
  /// that module's error only.
  std::vector<llvm::Expected<ModuleCompileResult>>
  compile(llvm::ArrayRef<ModuleCompileRequest> requests);

  /// Warnings of the runs so far that belong to no module (e.g. the one
  /// "cannot write the compile cache" of a run), each once; clears them.
  std::vector<std::string> takeWarnings();

private:
  explicit NativeCodegenDriver(const NativeCodegenOptions &options);
  struct Impl;
  /// The steps of one compile() call.
  class Batch;
  NativeCodegenOptions options;
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_NATIVECODEGENDRIVER_H
