//===- XPUCodegenModule.cpp - Native half of the xpu_codegen package ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The extension module `xpu_codegen._xpu_codegen`: compiles MLIR text (the
// whole xpu-codegen-pipeline, in-process) or SPIR-V bytes (native code
// generation only, through the NativeCodegenDriver) and reads zebins.
//
// Compile functions never raise for a compile failure: they return a
// dictionary with the located diagnostics, one JSON report entry per module
// (produced by getReportEntry, the single owner of the field mapping, so
// Python sees exactly what the pass report says) and the native binaries.
// The Python half turns failures into exceptions. llvm::Error never crosses
// the boundary, and no LLVM code runs while the GIL is held.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/InitAllXPU.h"
#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Target/Codegen/Report.h"
#include "XPUCodegen/Target/Device/DeviceTable.h"
#include "XPUCodegen/Target/Native/Zebin.h"
#include "XPUCodegen/Target/Worker/WorkerPool.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::xpu;

namespace {

/// Options shared by both inputs, as the Python half passes them (strings
/// already validated there; checked again here because this module is
/// importable on its own).
struct CompileOptions {
  std::string arch;
  std::string grfMode;
  std::string backend;
  int64_t spillThreshold = 0;
  std::string autoStrategy;
  std::string cacheDir;
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
};

/// One compiled (or failed) module.
struct ModuleOutcome {
  /// The report entry, serialized (getReportEntry or getReportErrorEntry).
  std::string entry;
  /// The native binary; absent for a module that failed.
  std::optional<std::string> binary;
};

/// What a compile function returns to Python.
struct CompileOutcome {
  bool success = true;
  /// Every diagnostic, formatted "file:line:col: error: message".
  std::string diagnostics;
  std::vector<ModuleOutcome> modules;

  void addError(const llvm::Twine &message) {
    success = false;
    llvm::raw_string_ostream os(diagnostics);
    os << message << "\n";
  }
};

std::optional<BackendKind> parseBackend(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<BackendKind>>(name)
      .Case("auto", BackendKind::Auto)
      .Case("ocloc", BackendKind::Ocloc)
      .Case("level-zero", BackendKind::LevelZero)
      .Default(std::nullopt);
}

std::optional<AutoStrategy> parseAutoStrategy(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<AutoStrategy>>(name)
      .Case("measure", AutoStrategy::Measure)
      .Case("igc", AutoStrategy::IGC)
      .Default(std::nullopt);
}

std::optional<GRFPolicy> parsePolicy(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<GRFPolicy>>(name)
      .Case("small", GRFPolicy::Small)
      .Case("large", GRFPolicy::Large)
      .Case("default", GRFPolicy::Default)
      .Case("auto", GRFPolicy::Auto)
      .Default(std::nullopt);
}

/// Checks what needs no compiler; an error is reported against `location`.
bool checkOptions(const CompileOptions &options, llvm::StringRef location,
                  CompileOutcome &outcome) {
  auto fail = [&](const llvm::Twine &message) {
    outcome.addError(location + ": error: " + message);
    return false;
  };
  if (!lookupDevice(options.arch))
    return fail(describeUnknownDevice(options.arch));
  if (!parsePolicy(options.grfMode))
    return fail("unknown GRF mode '" + options.grfMode +
                "'; valid: small, large, auto, default");
  if (!parseBackend(options.backend))
    return fail("unknown backend '" + options.backend +
                "'; valid: auto, ocloc, level-zero");
  if (!parseAutoStrategy(options.autoStrategy))
    return fail("unknown auto strategy '" + options.autoStrategy +
                "'; valid: measure, igc");
  if (options.spillThreshold < 0)
    return fail("spill threshold must be >= 0 bytes");
  if (options.nRegsDefault != 0 && options.nRegsDefault != 128)
    return fail("n_regs_default must be 0 or 128");
  if (llvm::Error error = checkWorkerLimits(
          WorkerLimits{options.memoryLimitMiB, options.timeoutMs}))
    return fail(llvm::toString(std::move(error)));
  return true;
}

std::string serialize(llvm::json::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

//===----------------------------------------------------------------------===//
// SPIR-V input
//===----------------------------------------------------------------------===//

/// A SPIR-V module to compile: its name (for reports) and bytes.
using SPIRVInput = std::pair<std::string, std::string>;

CompileOutcome compileSPIRV(const std::vector<SPIRVInput> &inputs,
                            const CompileOptions &options) {
  CompileOutcome outcome;
  // A copy: the conditional's result is a temporary std::string.
  const std::string location = inputs.empty() ? "<spirv>" : inputs[0].first;
  if (!checkOptions(options, location, outcome))
    return outcome;

  NativeCodegenOptions driverOptions;
  driverOptions.backend = *parseBackend(options.backend);
  driverOptions.spillThreshold = options.spillThreshold;
  driverOptions.autoStrategy = *parseAutoStrategy(options.autoStrategy);
  driverOptions.cacheDir = options.cacheDir;
  driverOptions.jobs = options.jobs;
  driverOptions.limits.timeoutMs = options.timeoutMs;
  driverOptions.limits.memoryMiB = options.memoryLimitMiB;
  driverOptions.validation = options.validation;
  driverOptions.maxWorkGroupSize = options.maxWorkGroupSize;
  driverOptions.nRegsDefault = options.nRegsDefault;
  llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
      NativeCodegenDriver::create(driverOptions);
  if (!driver) {
    outcome.addError(location + ": error: cannot start the native compiler: " +
                     llvm::toString(driver.takeError()));
    return outcome;
  }

  std::vector<ModuleCompileRequest> requests;
  for (const auto &[name, bytes] : inputs) {
    ModuleCompileRequest request;
    request.name = name;
    request.arch = options.arch;
    request.policy = *parsePolicy(options.grfMode);
    request.extraFlags = options.flags;
    request.spirv.assign(bytes.begin(), bytes.end());
    requests.push_back(std::move(request));
  }
  std::vector<llvm::Expected<ModuleCompileResult>> results =
      (*driver)->compile(requests);
  for (const std::string &warning : (*driver)->takeWarnings()) {
    llvm::raw_string_ostream os(outcome.diagnostics);
    os << location << ": warning: " << warning << "\n";
  }
  for (auto [request, result] : llvm::zip_equal(requests, results)) {
    if (!result) {
      ModuleError error = takeModuleError(result.takeError());
      outcome.addError(request.name + ": error: module '" + request.name +
                       "' for arch '" + request.arch +
                       "' failed: " + error.message);
      outcome.modules.push_back(
          {serialize(getReportErrorEntry(request.name, request.arch, error)),
           std::nullopt});
      continue;
    }
    // As the pass does: a forced mode that spills is worth a warning.
    const BuildAttempt &chosen = result->decision.getChosen();
    if (request.policy == GRFPolicy::Small ||
        request.policy == GRFPolicy::Large) {
      llvm::raw_string_ostream os(outcome.diagnostics);
      for (const KernelMeasurement &kernel : chosen.kernels)
        if (kernel.spillSize > 0)
          os << request.name << ": warning: kernel '" << kernel.name
             << "' spills " << kernel.spillSize << " bytes per thread in "
             << stringifyBuildGRF(chosen.mode) << " GRF mode on "
             << result->arch << "\n";
    }
    const std::vector<char> &binary = chosen.binary;
    outcome.modules.push_back({serialize(getReportEntry(*result)),
                               std::string(binary.begin(), binary.end())});
  }
  return outcome;
}

//===----------------------------------------------------------------------===//
// MLIR input
//===----------------------------------------------------------------------===//

/// Everything MLIR text may use: what xpu-opt registers.
const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry();
    registerAllDialects(*registry);
    registerAllExtensions(*registry);
    registerAllToLLVMIRTranslations(*registry);
    registerXPUDialectAndModels(*registry);
    return registry;
  }();
  return *registry;
}

/// Removes a file when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      (void)llvm::sys::fs::remove(path);
  }
};

/// The native objects the pass produced, in its walk order.
struct NativeObject {
  std::string module;
  std::string binary;
};

std::vector<NativeObject> collectNativeObjects(ModuleOp module) {
  std::vector<NativeObject> objects;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || !isa<TargetAttr>(object.getTarget()) ||
          !object.getProperties() || !object.getProperties().contains("n_regs"))
        continue;
      objects.push_back(
          {binary.getName().str(), object.getObject().getValue().str()});
    }
  });
  return objects;
}

/// Brackets nested deeper than this are rejected before parsing: the parser
/// and the passes recurse once per level (a region level costs kilobytes of
/// stack), and no real kernel comes anywhere near it.
constexpr unsigned kMaxNesting = 2048;
/// Stack of the thread that parses and runs the pipeline: ample for
/// kMaxNesting levels, whatever the caller's thread has.
constexpr unsigned kCompileStackBytes = 512u << 20;

/// Where `text` first nests (, [, { or < deeper than kMaxNesting, as a
/// 1-based line and column; string literals and comments do not count.
std::optional<std::pair<unsigned, unsigned>>
findExcessiveNesting(llvm::StringRef text) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"':
      // A string literal ends at its closing quote or the end of the line.
      while (i + 1 < e && text[i + 1] != '"' && text[i + 1] != '\n')
        i += text[i + 1] == '\\' && i + 2 < e && text[i + 2] != '\n' ? 2 : 1;
      if (i + 1 < e && text[i + 1] == '"')
        ++i;
      break;
    case '/':
      if (next == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '<':
      if (next == '=')
        break;
      [[fallthrough]];
    case '(':
    case '[':
    case '{':
      if (++depth > kMaxNesting)
        return std::make_pair(line, static_cast<unsigned>(i - lineStart + 1));
      break;
    case '>':
      if (next == '=' || (i > 0 && text[i - 1] == '-'))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

CompileOutcome compileMLIR(const std::string &text,
                           const std::string &bufferName,
                           const CompileOptions &options) {
  CompileOutcome outcome;
  if (!checkOptions(options, bufferName, outcome))
    return outcome;
  if (auto where = findExcessiveNesting(text)) {
    outcome.addError(llvm::formatv("{0}:{1}:{2}: error: brackets nest deeper "
                                   "than {3} levels",
                                   bufferName, where->first, where->second,
                                   kMaxNesting));
    return outcome;
  }

  // Single-threaded: every recursion over the IR stays on this thread's
  // large stack (native builds still run in parallel, in the workers).
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  llvm::raw_string_ostream diagnostics(outcome.diagnostics);
  SourceMgrDiagnosticHandler sourceMgrHandler(sourceMgr, &context, diagnostics);
  // Registered last, so it sees every diagnostic first; it only counts and
  // lets the source manager handler print.
  bool sawError = false;
  DiagnosticEngine::HandlerID counter =
      context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          sawError = true;
        return failure();
      });
  auto finish = [&]() -> CompileOutcome & {
    context.getDiagEngine().eraseHandler(counter);
    outcome.success = outcome.success && !sawError;
    return outcome;
  };

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module) {
    outcome.success = false;
    return finish();
  }

  TempFile report;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile(
          "xpu-codegen-report", "json", report.path)) {
    outcome.addError(
        bufferName +
        ": error: cannot create a temporary report file: " + error.message());
    return finish();
  }

  CodegenPipelineOptions pipeline;
  pipeline.arch = options.arch;
  pipeline.grfMode = *symbolizeGRFMode(options.grfMode);
  pipeline.backend = *parseBackend(options.backend);
  pipeline.spillThreshold = options.spillThreshold;
  pipeline.autoStrategy = *parseAutoStrategy(options.autoStrategy);
  pipeline.cacheDir = options.cacheDir;
  pipeline.jobs = options.jobs;
  pipeline.flags = options.flags;
  pipeline.maxWorkGroupSize = options.maxWorkGroupSize;
  pipeline.validateSPIRV = options.validation;
  pipeline.subgroupSize = options.subgroupSize;
  pipeline.nRegsDefault = options.nRegsDefault;
  pipeline.report = report.path.str().str();
  PassManager pm(&context, ModuleOp::getOperationName());
  buildCodegenPipeline(pm, pipeline);
  if (failed(pm.run(*module)))
    outcome.success = false;

  // The pass writes its report even when some modules failed; before the
  // pass ran, the file is still empty.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> reportText =
      llvm::MemoryBuffer::getFile(report.path);
  if (!reportText || (*reportText)->getBuffer().empty())
    return finish();
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*reportText)->getBuffer());
  const llvm::json::Array *entries =
      parsed && parsed->getAsObject()
          ? parsed->getAsObject()->getArray("modules")
          : nullptr;
  if (!entries) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    outcome.addError(bufferName + ": error: unreadable native codegen report");
    return finish();
  }

  // Report entries follow the pass's walk order, as do the objects; an
  // object already native before the pass ran has no entry, so match names.
  std::vector<NativeObject> objects = collectNativeObjects(*module);
  size_t next = 0;
  for (const llvm::json::Value &entry : *entries) {
    ModuleOutcome moduleOutcome{serialize(entry), std::nullopt};
    const llvm::json::Object *object = entry.getAsObject();
    if (object && !object->get("error")) {
      std::optional<llvm::StringRef> name = object->getString("module");
      while (next < objects.size() && name && objects[next].module != *name)
        ++next;
      if (next < objects.size())
        moduleOutcome.binary = std::move(objects[next++].binary);
    }
    outcome.modules.push_back(std::move(moduleOutcome));
  }
  return finish();
}

/// compileMLIR on a thread with a large stack.
CompileOutcome compileMLIROnLargeStack(const std::string &text,
                                       const std::string &bufferName,
                                       const CompileOptions &options) {
  CompileOutcome outcome;
  llvm::thread thread(std::optional<unsigned>(kCompileStackBytes), [&] {
    outcome = compileMLIR(text, bufferName, options);
  });
  thread.join();
  return outcome;
}

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
// child must never inherit a held lock (and it resets the count).
std::atomic<bool> shuttingDown{false};
std::atomic<unsigned> nativeCalls{0};

/// How long exit waits for native calls after cancelling their jobs.
constexpr auto kExitWait = std::chrono::seconds(60);

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
    for (;;)
      ::pause();
  }
  PyEval_RestoreThread(state);
  --nativeCalls;
  return result;
}

CompileOutcome refusedAtExit() {
  CompileOutcome outcome;
  outcome.addError("<xpu_codegen>: error: the interpreter is exiting");
  return outcome;
}

//===----------------------------------------------------------------------===//
// Python conversions
//===----------------------------------------------------------------------===//

/// Text for Python: diagnostics quote the user's source, which need not be
/// valid UTF-8; invalid bytes become U+FFFD instead of an exception.
py::str toText(llvm::StringRef text) {
  PyObject *str = PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (!str)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(str);
}

py::dict toPython(const CompileOutcome &outcome) {
  py::list modules;
  for (const ModuleOutcome &module : outcome.modules) {
    py::dict item;
    item["entry"] = toText(module.entry);
    item["binary"] = module.binary ? py::object(py::bytes(*module.binary))
                                   : py::object(py::none());
    modules.append(std::move(item));
  }
  py::dict result;
  result["success"] = outcome.success;
  result["diagnostics"] = toText(outcome.diagnostics);
  result["modules"] = std::move(modules);
  return result;
}

/// The options that the Python half passes as keywords beyond the first
/// seven: absent keys keep their defaults.
void applyExtraOptions(CompileOptions &options, const py::dict &extra) {
  for (auto [key, value] : extra) {
    std::string name = py::cast<std::string>(key);
    if (name == "flags")
      options.flags = py::cast<std::string>(value);
    else if (name == "timeout_ms")
      options.timeoutMs = py::cast<uint64_t>(value);
    else if (name == "memory_limit_mb")
      options.memoryLimitMiB = py::cast<uint64_t>(value);
    else if (name == "validate") {
      std::optional<SPIRVValidation> validation =
          parseSPIRVValidation(py::cast<std::string>(value));
      if (!validation)
        throw py::value_error("validate must be warn, strict or off");
      options.validation = *validation;
    } else if (name == "subgroup_size")
      options.subgroupSize = py::cast<int>(value);
    else if (name == "max_workgroup_size")
      options.maxWorkGroupSize = py::cast<uint64_t>(value);
    else if (name == "n_regs_default")
      options.nRegsDefault = py::cast<int64_t>(value);
    else
      throw py::type_error("unknown compile option '" + name + "'");
  }
}

CompileOptions makeOptions(std::string arch, std::string grfMode,
                           std::string backend, int64_t spillThreshold,
                           std::string autoStrategy, std::string cacheDir,
                           unsigned jobs) {
  CompileOptions options;
  options.arch = std::move(arch);
  options.grfMode = std::move(grfMode);
  options.backend = std::move(backend);
  options.spillThreshold = spillThreshold;
  options.autoStrategy = std::move(autoStrategy);
  options.cacheDir = std::move(cacheDir);
  options.jobs = jobs;
  return options;
}

} // namespace

PYBIND11_MODULE(_xpu_codegen, m) {
  m.doc() = "Native half of xpu_codegen; use the xpu_codegen package.";

  m.def(
      "compile_spirv",
      [](const std::vector<std::pair<std::string, py::bytes>> &inputs,
         std::string arch, std::string grfMode, std::string backend,
         int64_t spillThreshold, std::string autoStrategy, std::string cacheDir,
         unsigned jobs, const py::kwargs &extra) {
        std::vector<SPIRVInput> copies;
        for (const auto &[name, bytes] : inputs)
          copies.emplace_back(name, std::string(bytes));
        CompileOptions options = makeOptions(
            std::move(arch), std::move(grfMode), std::move(backend),
            spillThreshold, std::move(autoStrategy), std::move(cacheDir), jobs);
        applyExtraOptions(options, extra);
        return toPython(runNative([&] { return compileSPIRV(copies, options); },
                                  refusedAtExit()));
      },
      py::arg("inputs"), py::arg("arch"), py::arg("grf_mode"),
      py::arg("backend"), py::arg("spill_threshold"), py::arg("auto_strategy"),
      py::arg("cache_dir"), py::arg("jobs"),
      "Compiles SPIR-V modules [(name, bytes)] to native code.");

  m.def(
      "compile_mlir",
      [](py::bytes text, std::string bufferName, std::string arch,
         std::string grfMode, std::string backend, int64_t spillThreshold,
         std::string autoStrategy, std::string cacheDir, unsigned jobs,
         const py::kwargs &extra) {
        std::string source(text);
        CompileOptions options = makeOptions(
            std::move(arch), std::move(grfMode), std::move(backend),
            spillThreshold, std::move(autoStrategy), std::move(cacheDir), jobs);
        applyExtraOptions(options, extra);
        return toPython(runNative(
            [&] {
              return compileMLIROnLargeStack(source, bufferName, options);
            },
            refusedAtExit()));
      },
      py::arg("text"), py::arg("buffer_name"), py::arg("arch"),
      py::arg("grf_mode"), py::arg("backend"), py::arg("spill_threshold"),
      py::arg("auto_strategy"), py::arg("cache_dir"), py::arg("jobs"),
      "Runs xpu-codegen-pipeline on MLIR text (UTF-8 bytes).");

  m.def(
      "read_zebin",
      [](py::bytes data) {
        std::string binary(data);
        auto info = runNative(
            [&] {
              return std::make_shared<llvm::Expected<ZebinInfo>>(
                  readZebin(binary));
            },
            std::shared_ptr<llvm::Expected<ZebinInfo>>());
        py::dict result;
        if (!info) {
          result["error"] = toText("the interpreter is exiting");
          return result;
        }
        if (!*info) {
          result["error"] = toText(llvm::toString(info->takeError()));
          return result;
        }
        py::list kernels;
        for (const ZebinKernel &kernel : (*info)->kernels) {
          py::dict item;
          item["name"] = toText(kernel.name);
          item["grf_count"] = kernel.grfCount;
          item["simd"] = kernel.simd;
          item["scratch_size"] = kernel.scratchSize;
          item["private_size"] = kernel.privateSize;
          item["spill_size"] = kernel.spillSize
                                   ? py::object(py::int_(*kernel.spillSize))
                                   : py::object(py::none());
          item["code_size"] = kernel.codeSize;
          kernels.append(std::move(item));
        }
        result["error"] = py::none();
        result["ze_info_version"] = toText((*info)->zeInfoVersion);
        result["kernels"] = std::move(kernels);
        return result;
      },
      py::arg("data"),
      "Reads a zebin: {'error', 'ze_info_version', 'kernels': [...]}.");

  m.def(
      "_shutdown",
      [] {
        shuttingDown = true;
        py::gil_scoped_release release;
        WorkerPool::cancelShared();
        auto giveUp = std::chrono::steady_clock::now() + kExitWait;
        while (nativeCalls.load() && std::chrono::steady_clock::now() < giveUp)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
      },
      "At interpreter exit: refuses new compiles, cancels running ones and "
      "waits for them to return.");
  // A forked child has none of its parent's calls in flight.
  ::pthread_atfork(nullptr, nullptr, [] { nativeCalls = 0; });

  m.def(
      "lookup_arch",
      [](const std::string &name) -> std::optional<std::string> {
        if (const DeviceInfo *device = lookupDevice(name))
          return device->name.str();
        return std::nullopt;
      },
      py::arg("name"), "Canonical device name of an arch, or None.");
  m.def(
      "lookup_pci_id",
      [](uint32_t id) -> std::optional<std::string> {
        if (const DeviceInfo *device = lookupDeviceByPCIId(id))
          return device->name.str();
        return std::nullopt;
      },
      py::arg("id"), "Canonical device name of a PCI device ID, or None.");
  m.def(
      "describe_unknown_arch",
      [](const std::string &name) { return describeUnknownDevice(name); },
      py::arg("name"),
      "The unknown-arch message, with a suggestion when one is close.");
  m.def(
      "device_info",
      [](const std::string &name) -> std::optional<py::dict> {
        const DeviceInfo *device = lookupDevice(name);
        if (!device)
          return std::nullopt;
        py::dict info;
        info["name"] = device->name.str();
        info["family"] = device->family.str();
        py::list modes, threads;
        for (const GRFModeInfo &mode : device->grfModes) {
          modes.append(mode.registers);
          threads.append(mode.threadsPerEU);
        }
        info["grf_modes"] = modes;
        info["threads_per_eu"] = threads;
        info["eus_per_core"] = device->eusPerCore;
        info["max_work_group_size"] = device->maxWorkGroupSize;
        info["sub_group_sizes"] = py::cast(std::vector<unsigned>(
            device->subgroupSizes.begin(), device->subgroupSizes.end()));
        info["max_scratch_per_thread"] = device->maxScratchPerThread;
        return info;
      },
      py::arg("name"), "Device table facts of an arch, or None.");
  m.def(
      "valid_archs", [] { return getValidDeviceNames(); },
      "Every accepted arch name and alias, comma-separated.");
  m.def(
      "find_worker", [] { return findWorkerExecutable(); },
      "Path of the compiler worker the next compile would start.");
}
