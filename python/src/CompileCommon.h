//===- CompileCommon.h - Shared by the xpu_codegen extensions -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What both extension modules of the xpu_codegen package share: the compile
// options as Python passes them, the outcome returned to Python, and the
// conversions. `_xpu_codegen` (SPIR-V, zebins, devices) links no MLIR;
// `_xpu_codegen_mlir` (the pipeline on MLIR text) links libMLIR and is only
// imported when MLIR text is compiled. Each module compiles its own copy of
// CompileCommon.cpp (symbols are hidden), so neither depends on the other.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PYTHON_COMPILECOMMON_H
#define XPUCODEGEN_PYTHON_COMPILECOMMON_H

#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

#include <pybind11/pybind11.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu::python {

/// Options shared by both inputs, as the Python half passes them (strings
/// already validated there; checked again here because the extension
/// modules are importable on their own).
struct CompileOptions {
  std::string arch;
  std::string grfMode;
  std::string backend;
  int64_t spillThreshold = 0;
  std::string autoStrategy;
  std::string cacheDir;
  /// The shared cache tier (`cache-url`); empty: $XPU_CODEGEN_CACHE_URL.
  std::string cacheUrl;
  /// The compiler root (`compiler-root`); empty: $XPU_CODEGEN_COMPILER_ROOT.
  std::string compilerRoot;
  unsigned jobs = 0;
  /// Extra build options (the pass option `flags`).
  std::string flags;
  uint64_t timeoutMs = 300000;
  uint64_t memoryLimitMiB = 8192;
  SPIRVValidation validation = SPIRVValidation::Warn;
  /// MLIR input: the sub-group size kernels require unless they set their
  /// own (-1: the device's default; 0: none).
  int subgroupSize = -1;
  uint64_t maxWorkGroupSize = 0;
  int64_t nRegsDefault = 0;
  /// MLIR input: link modules that build alike (the pipeline's `link`).
  bool link = true;
};

/// One compiled (or failed) module.
struct ModuleOutcome {
  /// The report entry (getReportEntry or getReportErrorEntry), handed to
  /// Python as a dict.
  llvm::json::Value entry;
  /// The native binary; absent for a module that failed.
  std::optional<std::string> binary;
};

/// What a compile function returns to Python.
struct CompileOutcome {
  bool success = true;
  /// Every diagnostic, formatted "file:line:col: error: message".
  std::string diagnostics;
  std::vector<ModuleOutcome> modules;

  void addError(const llvm::Twine &message);
};

std::optional<BackendKind> parseBackend(llvm::StringRef name);
std::optional<AutoStrategy> parseAutoStrategy(llvm::StringRef name);

/// Checks what needs no compiler; an error is reported against `location`.
bool checkOptions(const CompileOptions &options, llvm::StringRef location,
                  CompileOutcome &outcome);

/// Text for Python: diagnostics quote the user's source, which need not be
/// valid UTF-8; invalid bytes become U+FFFD instead of an exception.
pybind11::str toText(llvm::StringRef text);

/// `value` as Python values: objects become dicts (keys sorted, as the
/// report prints them), integral numbers ints.
pybind11::object toPython(const llvm::json::Value &value);

pybind11::dict toPython(const CompileOutcome &outcome);

/// Defines the submodule `fields` on `module`: each key of a module's result
/// (ResultFields.def) as an attribute named after it in upper case
/// (`fields.SPILL_SIZE == "spill_size"`), for Python's reader.
void defineResultFields(pybind11::module_ &module);
/// The options that the Python half passes as keywords beyond the first
/// seven: absent keys keep their defaults.
void applyExtraOptions(CompileOptions &options, const pybind11::dict &extra);

CompileOptions makeOptions(std::string arch, std::string grfMode,
                           std::string backend, int64_t spillThreshold,
                           std::string autoStrategy, std::string cacheDir,
                           unsigned jobs);

//===----------------------------------------------------------------------===//
// Calls into native code, and interpreter exit
//===----------------------------------------------------------------------===//

// Python daemon threads may still be compiling when the interpreter exits;
// the static destructors that run then must never tear LLVM down under
// them, and a thread must never take the GIL back once the interpreter is
// finalizing (CPython then ends it with pthread_exit, whose unwinding
// through a noexcept destructor such as gil_scoped_release's terminates the
// process). So an atexit hook (_shutdown) refuses new native calls, cancels
// running jobs and waits until every native call has either re-entered
// Python (counted down with the GIL held) or parked for good (a call that
// ends after _shutdown began never returns). Atomics, not a mutex: a fork()
// child must never inherit a held lock (and it resets the count). Each
// extension module has its own state and its own _shutdown (and its own
// copy of the worker pools it cancels); the Python half registers both.
extern std::atomic<bool> shuttingDown;
extern std::atomic<unsigned> nativeCalls;

/// Never returns (a native call that ended while the interpreter exits).
[[noreturn]] void parkForever();

/// Runs `work` without the GIL, counted as a native call (see above); an
/// exiting interpreter gets `refused` instead. Called with the GIL held.
template <typename Result, typename Work>
Result runNative(Work &&work, Result refused) {
  if (shuttingDown.load())
    return refused;
  ++nativeCalls;
  PyThreadState *state = PyEval_SaveThread();
  Result result = work();
  if (shuttingDown.load()) {
    // The interpreter is exiting: never touch Python again.
    --nativeCalls;
    parkForever();
  }
  PyEval_RestoreThread(state);
  --nativeCalls;
  return result;
}

/// The outcome of a compile refused because the interpreter is exiting.
CompileOutcome refusedAtExit();

/// Defines `_shutdown` on `module` and resets the call count in a forked
/// child.
void defineShutdown(pybind11::module_ &module);

/// Defines `compile_spirv` on `module` (CompileSPIRV.cpp).
void defineCompileSPIRV(pybind11::module_ &module);

} // namespace mlir::xpu::python

#endif // XPUCODEGEN_PYTHON_COMPILECOMMON_H
