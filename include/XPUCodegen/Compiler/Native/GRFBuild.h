//===- GRFBuild.h - GRF build modes, flags and the auto decision -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The one owner of the GRF decision: which builds to run, with which flags,
// and which result to keep. Independent of MLIR so the decision is unit
// tested and shared by the passes, the Python package and the benchmarks.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_NATIVE_GRFBUILD_H
#define XPUCODEGEN_COMPILER_NATIVE_GRFBUILD_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Device/BuildFlags.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::xpu {

/// The GRF setting of one build (what the flags pin), as opposed to the
/// requested policy: `auto` is a policy that runs builds up the device's
/// ladder (Small, Large, XLarge) or, on a variable register file, over its
/// register counts (RegsN: `-ze-exp-register-file-size N`); IGCAuto is one
/// build with IGC's own auto flag. (The values are stored in cache entries:
/// append, never reorder.)
enum class BuildGRF : uint8_t {
  Small,
  Large,
  Default,
  IGCAuto,
  XLarge,
  Regs32,
  Regs64,
  Regs96,
  Regs160,
  Regs192,
};
/// One past the largest BuildGRF value.
inline constexpr unsigned kNumBuildGRFs = 10;

/// "small", "large", "default", "igc-auto", "xlarge", and the register
/// count of the others ("32", ..., "192").
llvm::StringRef stringifyBuildGRF(BuildGRF mode);

/// A build for messages: "large GRF mode" (`modeWord` after the name of a
/// mode), "160-register count".
std::string describeBuildGRF(BuildGRF mode,
                             llvm::StringRef modeWord = "GRF mode");

/// The GRF flag of `mode` in the spelling of `backend` (empty for Default):
/// ocloc: -cl-intel-128-GRF-per-thread, -cl-intel-256-GRF-per-thread,
/// -cl-intel-512-GRF-per-thread, -cl-intel-enable-auto-large-GRF-mode;
/// Level Zero: -ze-intel-128-GRF-per-thread, -ze-opt-large-register-file,
/// -ze-intel-512-GRF-per-thread, -ze-intel-enable-auto-large-GRF-mode;
/// RegsN on both: -ze-exp-register-file-size N.
llvm::StringRef getGRFFlag(BuildGRF mode, WorkerBackend backend);

/// The build that pins `registers` registers per thread (128: Small, 256:
/// Large, 512: XLarge, 32 ... 192: RegsN); std::nullopt for any other count
/// (never asked for: 224 crashes IGC 2.40).
std::optional<BuildGRF> getBuildGRFForRegisters(unsigned registers);

/// The device's GRF ladder: one build per GRF mode of the device table,
/// smallest first (pvc: Small, Large; cri: Small, Large, XLarge).
llvm::SmallVector<BuildGRF, 3> getBuildLadder(const DeviceInfo &device);

/// True for any GRF flag of either backend (see getGRFFlag).
bool isGRFFlag(llvm::StringRef flag);

/// Full build options: the GRF flag followed by `extraFlags`, normalized
/// (single spaces, trimmed). GRF flags inside `extraFlags` are dropped: the
/// mode alone decides the register file (IGC would honour the last one).
std::string getBuildFlags(BuildGRF mode, WorkerBackend backend,
                          llvm::StringRef extraFlags);

/// n_regs as Triton defines it, derived from the final flags: 128 for the
/// small flag, 256 for the large flag, 512 for the 512 flag, N for
/// `-ze-exp-register-file-size N`, 0 when the flags do not pin the mode
/// (default, IGC auto).
int64_t getNRegs(BuildGRF mode);

/// getNRegs with `defaultNRegs` for flags that do not pin the mode (0, or
/// 128 as Triton reports them: `n-regs-default`).
int64_t getNRegs(BuildGRF mode, int64_t defaultNRegs);

/// IGC's spill warnings that describe the binaries it kept, per kernel,
/// converted to bytes. IGC prints "warning: kernel K  compiled SIMD16
/// allocated 128 regs and spilled around 136" where the number counts
/// GRF-sized units; bytes = units * grfBytes. IGC 2.x's RetryManager may
/// recompile a kernel and then keep the earlier version ("Used previous
/// version of the kernel"): the retry's warnings are then dropped.
struct LogSpill {
  std::string kernel;
  int64_t simd = 0;
  int64_t allocatedRegs = 0;
  int64_t spillBytes = 0;
};
std::vector<LogSpill> parseSpillWarnings(llvm::StringRef log,
                                         unsigned grfBytes);

/// Kernels for which IGC's RetryManager kept the earlier build after a
/// recompilation, sorted by name.
std::vector<std::string> parseKeptPreviousVersions(llvm::StringRef log);

/// Kernels IGC compiled at a narrower SIMD width because the intended one
/// would overflow the per-thread scratch: IGC 2.x prints "in kernel 'K':
/// we couldn't compile without exceeding max permitted PTSS, drop SIMD" and
/// succeeds, where IGC 1.0.12504 overflowed (docs/SpillMeasurement.md).
std::vector<std::string> parseSIMDDrops(llvm::StringRef log);

/// Per-kernel measurement of one build.
struct KernelMeasurement {
  std::string name;
  int64_t grfCount = 0;
  int64_t simd = 0;
  /// Bytes spilled per hardware thread.
  int64_t spillSize = 0;
  /// Per-thread private memory (private arrays), never counted as spill.
  int64_t privateSize = 0;
  /// Per-thread scratch space (spills and private arrays).
  int64_t scratchSize = 0;
  /// spillSize / (4 * simd): per-lane 4-byte slots, as Triton reports.
  int64_t nSpills = 0;
  /// Where IGC's build log gives another spill than the binary's .ze_info
  /// (spillSize is always the binary's): what each says. Empty otherwise.
  std::string spillNote;
};

/// One build: flags in, native binary and measurements out.
struct BuildAttempt {
  BuildGRF mode = BuildGRF::Default;
  std::string buildFlags;
  std::vector<char> binary;
  std::string log;
  std::vector<KernelMeasurement> kernels;
  /// Largest per-kernel spill of the module (flags apply per module).
  int64_t spillSize = 0;
  double compileMs = 0;
  /// Of a cache hit (whose compileMs is 0): what the build took when it
  /// ran.
  std::optional<double> builtMs;
  /// Cache status of this build: "hit", "miss" or "off".
  std::string cache = "off";
  /// Of a hit: "local" (this machine's cache directory) or "shared" (the
  /// shared tier). Not stored with the build.
  std::string cacheTier;
  /// True when an earlier module of the same batch (in input order) asked
  /// for the identical build: this one was deduplicated, not run again.
  bool reused = false;
  /// Why this build cannot be kept although it compiled (it cannot launch:
  /// LaunchLimits); empty for a usable build.
  std::string unusable;
};

/// A kernel needs more of a hardware resource than the device has: its
/// per-thread scratch space (spills and private arrays, over the PTSS limit)
/// or its work-group (more work-items than one core runs at once in the
/// build's GRF mode and SIMD width). Another GRF mode may fit: `auto` and
/// `default` try the next larger one; Python raises `OutOfResources`.
class OutOfResourcesError : public llvm::ErrorInfo<OutOfResourcesError> {
public:
  static char ID;
  /// What ran out, in Triton's words: kScratchResource or
  /// kWorkGroupResource.
  std::string resource;
  /// What the kernel needs and what the device allows (0 when unknown).
  int64_t required = 0;
  int64_t limit = 0;
  std::string message;

  OutOfResourcesError(llvm::StringRef resource, int64_t required, int64_t limit,
                      const llvm::Twine &message)
      : resource(resource.str()), required(required), limit(limit),
        message(message.str()) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};

inline constexpr llvm::StringLiteral kScratchResource =
    "per-thread scratch space (PTSS)";
inline constexpr llvm::StringLiteral kWorkGroupResource = "work-group size";

/// IGC's per-thread scratch overflow message in a build log ("total scratch
/// space exceeds HW supported limit for kernel K: N bytes (max permitted
/// PTSS M bytes)", or older phrasings): the sizes, 0 where the message has
/// none. std::nullopt when the log reports no overflow.
std::optional<std::pair<int64_t, int64_t>>
parseScratchOverflow(llvm::StringRef log);

/// Turns a worker's response into a BuildAttempt: reads the zebin, takes
/// spills from .ze_info spill_size, else the build log's spill warning (no
/// warning: 0); private memory is never counted as spill. Level Zero's
/// spillMemSize is not used as spill: NEO 22.43 reports the scratch size
/// there, which includes private arrays (newer NEO copies .ze_info
/// spill_size, read directly); its privateMemSize raises privateSize. A
/// failed build, an unreadable binary or one without kernels is an error
/// carrying the build log. IGC's per-thread scratch overflow (a failed build
/// whose log says so, or a degenerate zebin without `.text`/`.symtab` that
/// some IGC versions write instead) is an OutOfResourcesError.
llvm::Expected<BuildAttempt> measureBuild(BuildGRF mode,
                                          llvm::StringRef buildFlags,
                                          const WorkerResponse &response,
                                          unsigned grfBytes);

/// Checks what a build's binary says against what it can be: each kernel's
/// grf_count is one of the device's register counts `grfCounts` and, when
/// the flags pin the mode, the count they pin (n_regs); simd is 8, 16 or 32.
/// A mismatch is an error, never a silently wrong report.
llvm::Error checkBuildFacts(const BuildAttempt &attempt,
                            llvm::ArrayRef<int64_t> grfCounts);

/// Checks that a build's binary holds exactly the kernels `entryPoints`
/// names (the module's, or a linked part's), no more, no fewer: a compiler
/// that answers with another build's binary is caught even when its facts
/// are possible.
llvm::Error checkBuildKernels(const BuildAttempt &attempt,
                              llvm::ArrayRef<std::string> entryPoints);

/// The one build a forced policy makes (Small, Large, XLarge, RegsN);
/// std::nullopt for Auto and Default.
std::optional<BuildGRF> getForcedBuildGRF(GRFMode policy);
enum class AutoStrategy : uint8_t { Measure, IGC };

/// Why the decision came out the way it did, in one sentence for remarks and
/// reports.
struct GRFDecision {
  /// Every build that ran, in order.
  std::vector<BuildAttempt> attempts;
  /// Index into attempts of the build that is kept.
  size_t chosen = 0;
  std::string reason;
  /// What decided the kept mode: "measured" (builds compared, including a
  /// prediction that measurement overrode), "predicted" (the static
  /// estimate, confirmed by the one build it asked for), "speculated" (both
  /// modes built concurrently and compared), "forced" (small, large or
  /// default) or "igc" (IGC's own auto flag).
  std::string source = "measured";
  /// Why a GRF mode was ruled out because the kernels' work-groups cannot
  /// run in it (empty when none was).
  std::string workgroupLimit;
  /// One warning per kernel whose declared work-group fits no GRF mode (it
  /// is built, constrains nothing, and the driver refuses to launch it).
  std::vector<std::string> launchWarnings;
  /// The register count `auto` chose when the kept build's flags do not pin
  /// it (IGC's default build won the register-count search): its n_regs.
  /// 0 otherwise (the flags say it).
  int64_t registers = 0;
  const BuildAttempt &getChosen() const { return attempts[chosen]; }
};

/// A work-group that does not fit a GRF mode: why, and the sizes.
struct WorkGroupLimit {
  std::string message;
  uint64_t required = 0;
  uint64_t limit = 0;
};

/// A kernel's work-group as its SPIR-V declares it.
struct KernelWorkGroup {
  std::string name;
  /// Work-items per work-group (`LocalSize` x*y*z); 0 when not declared.
  uint64_t size = 0;
  /// `SubgroupSize` the kernel requires; 0 when IGC picks.
  uint32_t requiredSimd = 0;
  /// Its declared work-group fits no GRF mode and it was warned about: it is
  /// no longer checked, so it does not constrain its siblings (LaunchLimits.h).
  bool unlaunchable = false;
};

/// What a binary must fit to launch on its device: the work-group of every
/// kernel in the build's GRF mode and SIMD width, and the per-thread scratch
/// limit (PTSS). Without a device nothing is checked.
struct LaunchLimits {
  const DeviceInfo *device = nullptr;
  std::vector<KernelWorkGroup> kernels;
  /// The work-group of kernels that declare none (`max-workgroup-size`, as
  /// Triton knows it: num_warps x threads_per_warp); 0: unknown.
  uint64_t defaultWorkGroupSize = 0;

  /// Why a build in `mode` cannot run these work-groups, known before
  /// building (each kernel at its required SIMD width, else the widest the
  /// device has); std::nullopt when it may. IGC's auto flag is never ruled out
  /// here: the mode it picks is checked after the build.
  std::optional<WorkGroupLimit> checkBeforeBuild(BuildGRF mode) const;
  /// The built binary, at each kernel's real grf_count and simd_size: an
  /// OutOfResourcesError when a work-group cannot launch or the per-thread
  /// scratch is over the device's limit.
  llvm::Error checkBuild(const BuildAttempt &attempt) const;

private:
  uint64_t getWorkGroupSize(llvm::StringRef kernel) const;
};

/// The GRF decision for a module requested in `mode`, over `ladder` (the
/// builds of the device's GRF modes, smallest first; empty: the ladder of
/// `limits.device`, or Small, Large without a device). `build` compiles one
/// mode and returns the measured attempt.
/// - Forced modes (small, large, xlarge, a register count): one build; a
///   mode the work-groups cannot run in, or a build over a limit, is an
///   OutOfResourcesError (never a binary that cannot launch).
/// - auto with AutoStrategy::Measure: builds the first rung (or the one
///   `plan` predicts), then climbs to the next only while the last build
///   spills more than spillThreshold (or overflows the per-thread scratch)
///   and the next rung's work-group limit allows; a larger rung is kept only
///   when it spills strictly less than the best so far. The reason says where
///   and why the climb stopped. On a variable register file it searches the
///   register counts from IGC's default build first.
/// - auto with AutoStrategy::IGC: one build with IGC's auto flag (the mode IGC
///   picked is the binary's grf_count); a mode that cannot launch falls back
///   to the smallest rung.
/// - default: one build without a flag; a scratch overflow climbs as auto.
/// `plan` only matters for measured auto. `build` must be safe to call from
/// two threads at once when `plan` is Speculate: the large build runs on a
/// second thread while the small one runs on the caller's. When no mode
/// fits, the error carries the sizes.
llvm::Expected<GRFDecision>
decideGRF(GRFMode mode, AutoStrategy strategy, int64_t spillThreshold,
          AutoPlan plan, llvm::ArrayRef<BuildGRF> ladder,
          const LaunchLimits &limits,
          llvm::function_ref<llvm::Expected<BuildAttempt>(BuildGRF)> build);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_NATIVE_GRFBUILD_H
