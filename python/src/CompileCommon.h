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

#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

#include <pybind11/pybind11.h>

#include <atomic>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mlir::xpu::python {

/// The type an option has in this binding: the list's, but the GRF mode
/// by its name (as Python passes it; checkOptions reads it) and a URL as
/// plain text (nothing here prints it).
template <typename T> struct BindingType { using type = T; };
template <> struct BindingType<GRFMode> { using type = std::string; };
template <> struct BindingType<URLOptionText> { using type = std::string; };

/// The compile options of one call: every option of CodegenOptions.def,
/// at its default until a keyword sets it.
struct CompileOptions {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  typename BindingType<TYPE>::type FIELD =                                     \
      getCodegenOptionDefault<typename BindingType<TYPE>::type>(DEFAULT);
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
};

/// An option's name in Python: `timeout_ms` for `timeout-ms`.
std::string getPythonName(llvm::StringRef name);

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

/// The options of a call from its keywords (Python names): absent ones keep
/// their defaults; an unknown one is a TypeError, a value of the wrong type
/// a ValueError.
CompileOptions parseCompileOptions(const pybind11::kwargs &keywords);

/// Defines `codegen_options` (the list: name, kind, default, role,
/// description, accepted values) and `check_option` on `module`.
void defineOptionList(pybind11::module_ &module);

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
