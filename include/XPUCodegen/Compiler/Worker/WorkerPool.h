//===- WorkerPool.h - Isolated native compiler worker processes -*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// IGC calls exit()/abort() on bad SPIR-V, installs signal handlers, reads
// stray files from the current directory and can use gigabytes. It therefore
// never runs in the host process: a pool of persistent worker processes
// (xpu-compile-worker), each with the compiler loaded once, a private empty
// working directory, a process group of its own and memory/time limits,
// takes jobs over pipes. A worker that dies or overruns becomes an error for
// that job and is respawned; one that dies or stalls before it is up is
// replaced and costs no job.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_WORKER_WORKERPOOL_H
#define XPUCODEGEN_COMPILER_WORKER_WORKERPOOL_H

#include "XPUCodegen/Compiler/Codegen/CodegenOptionDefaults.h"
#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {

/// Which compiler a worker drives for a job. LLVMSPIRV is LLVM's SPIR-V
/// backend in xpu-spirv-emitter: the request's input is LLVM bitcode, its
/// `device` the target triple and its `options` the optimization level
/// ("-O0".."-O3"); the response's binary is the SPIR-V.
enum class WorkerBackend : uint8_t { Ocloc = 0, LevelZero = 1, LLVMSPIRV = 2 };
constexpr unsigned kNumWorkerBackends = 3;
// Arrays indexed by a backend are sized by this: a new backend must grow it.
static_assert(unsigned(WorkerBackend::LLVMSPIRV) + 1 == kNumWorkerBackends,
              "kNumWorkerBackends must count every WorkerBackend");

/// The programs a WorkerPool runs: the isolated native compiler
/// (xpu-compile-worker, $XPU_CODEGEN_WORKER) or the SPIR-V emitter
/// (xpu-spirv-emitter, $XPU_CODEGEN_SPIRV_EMITTER). Both speak the protocol
/// of WorkerProtocol.h and are found the same way (findWorkerExecutable).
enum class WorkerProgram : uint8_t { CompileWorker = 0, SPIRVEmitter = 1 };

/// The executable name of `program`, e.g. "xpu-compile-worker".
llvm::StringRef getWorkerProgramName(WorkerProgram program);
/// The environment variable naming `program`'s executable.
llvm::StringRef getWorkerProgramEnvVar(WorkerProgram program);

/// One compile job: SPIR-V to native code for one device with one set of
/// build options.
struct WorkerRequest {
  WorkerBackend backend = WorkerBackend::Ocloc;
  /// Canonical device name (e.g. "pvc").
  std::string device;
  /// Build options (`-options`), in the spelling of the backend. May be
  /// empty: the worker then passes a blank, never an empty `-options` (ocloc
  /// reads option files from disk when it is empty).
  std::string options;
  /// The SPIR-V module (LLVM bitcode for WorkerBackend::LLVMSPIRV).
  std::vector<char> spirv;
};

/// Per-kernel facts that only the Level Zero backend reports
/// (zeKernelGetProperties).
struct WorkerKernelProperties {
  std::string name;
  uint64_t spillMemSize = 0;
  uint64_t privateMemSize = 0;
};

/// What a worker returns for a job that it finished (whether or not the
/// compiler accepted the input).
struct WorkerResponse {
  /// True when the compiler produced a native binary.
  bool succeeded = false;
  /// The compiler's return code (ocloc) or ze_result_t (Level Zero).
  int32_t returnCode = 0;
  /// The build log (IGC warnings such as spill reports, or errors).
  std::string log;
  /// The native binary (zebin) when succeeded.
  std::vector<char> binary;
  /// Level Zero only: per-kernel properties.
  std::vector<WorkerKernelProperties> kernels;
  /// Wall time the worker spent in the compiler, in milliseconds.
  double compileMs = 0;
};

/// Resource limits applied to each worker process; by default those of
/// memory-limit-mb and timeout-ms (CodegenOptions.def).
struct WorkerLimits {
  /// Address-space limit per worker in MiB (0: unlimited).
  uint64_t memoryMiB = codegen_option_default::toUnsigned(
      codegen_option_default::memoryLimitMiB);
  /// Wall-clock limit per job in milliseconds (0: unlimited).
  uint64_t timeoutMs =
      codegen_option_default::toUnsigned(codegen_option_default::timeoutMs);
};

/// How long a worker may take to start (load and warm the compiler) and
/// say hello ($XPU_CODEGEN_WORKER_STARTUP_MS overrides it for the shared
/// pools; 0: no limit). A start that fails is replaced by a retry; when a
/// retry fails too, the pool starts nothing for a few seconds and fails the
/// jobs no live worker can take at once, with the error: a broken worker
/// costs two start-ups, not one per module.
constexpr uint64_t kDefaultStartupMs = 60000;

/// An idle worker (with ~150 MB of compiler loaded) exits after this long
/// without a job; $XPU_CODEGEN_WORKER_IDLE_MS overrides it (0: never).
constexpr uint64_t kDefaultIdleMs = 30000;

/// The largest accepted limits: beyond them RLIMIT_AS bytes or a deadline in
/// nanoseconds would overflow (2^40 MiB, 2^40 ms: about 35 years).
constexpr uint64_t kMaxMemoryMiB = uint64_t(1) << 40;
constexpr uint64_t kMaxTimeoutMs = uint64_t(1) << 40;

/// An error naming a limit out of range.
llvm::Error checkWorkerLimits(const WorkerLimits &limits);

/// A pool of persistent worker processes. Thread-safe: any number of threads
/// may call run() concurrently; at most `maxWorkers` workers run or start at
/// once. Workers start in the background while jobs wait for them, each job
/// taking whichever worker is up first, and inherit the environment at that
/// moment (e.g. XPU_CODEGEN_OCLOC_LIBRARY, the libocloc to load; IGC_*
/// variables).
/// Destroying the pool stops its idle workers; no run() may be in flight.
///
/// A pool belongs to the process that created it: after fork(), the child
/// never touches the parent's workers (their channels, processes or
/// directories); getShared() gives the child pools of its own, and any
/// other use of an inherited pool is an error.
class WorkerPool {
public:
  /// Creates a pool that starts up to `maxWorkers` workers on demand
  /// (0: number of hardware threads). Workers idle for `idleMs` exit
  /// (default: $XPU_CODEGEN_WORKER_IDLE_MS, else kDefaultIdleMs; 0: never).
  /// `program` says which program `workerPath` (default: the one
  /// findWorkerExecutable(program) finds) is, for messages. A worker that
  /// has served `maxJobsPerWorker` jobs (0: no limit) is stopped when it
  /// goes idle and replaced by a fresh one on demand. `compiler` is the
  /// installation compile workers load, resolved by the caller (none: the
  /// system's); the pool reads no compiler root of its own.
  static llvm::Expected<std::unique_ptr<WorkerPool>>
  create(unsigned maxWorkers, WorkerLimits limits = {},
         std::string workerPath = "", std::optional<uint64_t> idleMs = {},
         uint64_t startupMs = kDefaultStartupMs,
         WorkerProgram program = WorkerProgram::CompileWorker,
         unsigned maxJobsPerWorker = 0,
         const CompilerInstallation *compiler = nullptr);
  /// A process-wide pool per program and set of limits, shared by every pass
  /// run in this process and grown to at least `maxWorkers`. Shared pools
  /// are never destroyed (they outlive static destructors, so threads still
  /// compiling at exit never find them gone). `maxJobsPerWorker` applies
  /// when the pool is created. `compiler` is the installation the compile
  /// workers load, resolved once at the caller's edge (CompileSession from
  /// the compiler-root option, the Level Zero offline driver from the
  /// environment); none: the system's. Pools are per resolved installation,
  /// never per spelling of its root.
  static llvm::Expected<WorkerPool &>
  getShared(unsigned maxWorkers, WorkerLimits limits = {},
            WorkerProgram program = WorkerProgram::CompileWorker,
            unsigned maxJobsPerWorker = 0,
            const CompilerInstallation *compiler = nullptr);

  /// The compiler this pool's compile workers load (the installation it
  /// was created with; the system's when it was given none).
  virtual const CompilerInstallation &getCompiler() const = 0;

  /// Ends what the shared pools are doing, for a process about to exit:
  /// later run() calls fail at once, running jobs are killed (their run()
  /// returns an error), idle workers are stopped.
  static void cancelShared();

  virtual ~WorkerPool();

  /// Runs one job on an idle worker, blocking until it finishes. A worker
  /// that exits, crashes, exceeds its memory or time limit (counted from
  /// the job's start on it) yields an error that names the cause (e.g.
  /// "compiler worker killed by signal 6 (Aborted)", "compiler worker
  /// exceeded the <timeoutMs> ms time limit"); the worker is replaced and later
  /// jobs are unaffected. A start failure is an error only when starts are
  /// blocked (see kDefaultStartupMs) and no live worker is left to wait for.
  virtual llvm::Expected<WorkerResponse> run(const WorkerRequest &request) = 0;

  /// Identity of the compiler behind `backend` (library versions), for cache
  /// keys and reports, e.g. "ocloc 22.43.24595 (API 1.0; 3 libraries
  /// 0123456789abcdef)": the driver version, the API version and a hash of
  /// libocloc, libigdfcl and libigc as loaded by a worker (each one's ELF
  /// build ID and size, else its contents).
  /// Cached; errors (e.g. a backend the worker lacks) are not.
  virtual llvm::Expected<std::string>
  getCompilerIdentity(WorkerBackend backend) = 0;

  /// Starts workers in the background, up to the pool's size and never
  /// more than `builds` (the builds the caller is about to run: a worker
  /// more than that only costs a process), so that the first jobs find them
  /// running; one also answers `identityOf`'s identity query when given.
  /// Returns at once, whether it started any (none while the pool is full,
  /// counting starts in flight, or starts are blocked). A worker that fails
  /// to start is replaced when a job needs one, as without it.
  virtual bool prestart(std::optional<WorkerBackend> identityOf,
                        size_t builds) = 0;

  /// The files mapped into the worker that answered the identity query of
  /// `backend` (the worker, the compiler libraries and their dependencies;
  /// /proc/<pid>/maps), sorted. A persistent cache stores them with the
  /// identity and reuses it, without starting a worker, until one of them
  /// changes. Empty before getCompilerIdentity succeeded or without /proc.
  virtual std::vector<std::string>
  getCompilerIdentityFiles(WorkerBackend backend) = 0;

  /// Worker processes started so far (for tests and benchmarks: a fully
  /// cached run starts none).
  virtual unsigned getWorkersStarted() const = 0;

  virtual unsigned getMaxWorkers() const = 0;

  /// Worker processes alive now, busy or idle (for tests of idle reaping).
  virtual unsigned getWorkersAlive() const = 0;
};

/// Path of the worker executable: $XPU_CODEGEN_WORKER if set, otherwise the
/// first xpu-compile-worker found, in this order: relative to the library or
/// executable containing this code and to the main executable (in the build
/// tree and the install tree's layout, so that xpu-opt, the plugin in the
/// stock mlir-opt and the Python package find theirs), then the paths given
/// to registerWorkerExecutable(), then the configured install directory.
/// For WorkerProgram::SPIRVEmitter the same with $XPU_CODEGEN_SPIRV_EMITTER
/// and xpu-spirv-emitter (a registered worker path names the directory).
std::string
findWorkerExecutable(WorkerProgram program = WorkerProgram::CompileWorker);

/// Names a worker executable for findWorkerExecutable() to consider after the
/// places relative to the program. A program that links the libraries
/// statically from an installed package gets a call naming that package's
/// worker compiled in (XPUCodegenConfig.cmake, XPUCodegen::XPUCodegen); the
/// package's other programs (xpu-spirv-emitter) are looked for beside it.
void registerWorkerExecutable(llvm::StringRef path);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_WORKER_WORKERPOOL_H
