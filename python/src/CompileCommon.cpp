//===- CompileCommon.cpp - Shared by the xpu_codegen extensions -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "CompileCommon.h"

#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Target/Cache/SharedCache.h"
#include "XPUCodegen/Target/Codegen/ResultFields.h"
#include "XPUCodegen/Target/Worker/WorkerPool.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace py = pybind11;
using namespace mlir::xpu;
using namespace mlir::xpu::python;

void CompileOutcome::addError(const llvm::Twine &message) {
  success = false;
  llvm::raw_string_ostream os(diagnostics);
  os << message << "\n";
}

std::optional<BackendKind> python::parseBackend(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<BackendKind>>(name)
      .Case("auto", BackendKind::Auto)
      .Case("ocloc", BackendKind::Ocloc)
      .Case("level-zero", BackendKind::LevelZero)
      .Default(std::nullopt);
}

std::optional<AutoStrategy> python::parseAutoStrategy(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<AutoStrategy>>(name)
      .Case("measure", AutoStrategy::Measure)
      .Case("igc", AutoStrategy::IGC)
      .Default(std::nullopt);
}

/// Checks what needs no compiler; an error is reported against `location`.
bool python::checkOptions(const CompileOptions &options,
                          llvm::StringRef location, CompileOutcome &outcome) {
  auto fail = [&](const llvm::Twine &message) {
    outcome.addError(location + ": error: " + message);
    return false;
  };
  if (!lookupDevice(options.arch))
    return fail(describeUnknownDevice(options.arch));
  if (!symbolizeGRFMode(options.grfMode))
    return fail("unknown GRF mode '" + options.grfMode +
                "'; valid: small, large, xlarge, auto, default, or a register "
                "count (32, 64, 96, 128, 160, 192, 256, 512)");
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
  // The URL (or $XPU_CODEGEN_CACHE_URL); the server itself is never an
  // error.
  if (llvm::Expected<std::optional<SharedCacheConfig>> shared =
          resolveSharedCache(options.cacheUrl);
      !shared)
    return fail(llvm::toString(shared.takeError()));
  return true;
}

/// Text for Python: diagnostics quote the user's source, which need not be
/// valid UTF-8; invalid bytes become U+FFFD instead of an exception.
py::str python::toText(llvm::StringRef text) {
  PyObject *str = PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (!str)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(str);
}

py::object python::toPython(const llvm::json::Value &value) {
  switch (value.kind()) {
  case llvm::json::Value::Null:
    return py::none();
  case llvm::json::Value::Boolean:
    return py::bool_(*value.getAsBoolean());
  case llvm::json::Value::Number:
    if (std::optional<int64_t> integer = value.getAsInteger())
      return py::int_(*integer);
    if (std::optional<uint64_t> large = value.getAsUINT64())
      return py::int_(*large);
    return py::float_(*value.getAsNumber());
  case llvm::json::Value::String:
    return toText(*value.getAsString());
  case llvm::json::Value::Array: {
    py::list list;
    for (const llvm::json::Value &element : *value.getAsArray())
      list.append(toPython(element));
    return list;
  }
  case llvm::json::Value::Object: {
    const llvm::json::Object &object = *value.getAsObject();
    std::vector<llvm::StringRef> keys;
    for (const auto &field : object)
      keys.push_back(field.first);
    llvm::sort(keys);
    py::dict dict;
    for (llvm::StringRef key : keys)
      dict[toText(key)] = toPython(*object.get(key));
    return dict;
  }
  }
  llvm_unreachable("unknown JSON kind");
}

void python::defineResultFields(py::module_ &module) {
  py::module_ fields = module.def_submodule(
      "fields", "The keys of a module's result (report entry, properties).");
  for (llvm::StringRef key : mlir::xpu::fields::kAll)
    fields.attr(key.upper().c_str()) = key.str();
}

py::dict python::toPython(const CompileOutcome &outcome) {
  py::list modules;
  for (const ModuleOutcome &module : outcome.modules) {
    py::dict item;
    item["entry"] = toPython(module.entry);
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
void python::applyExtraOptions(CompileOptions &options, const py::dict &extra) {
  for (auto [key, value] : extra) {
    std::string name = py::cast<std::string>(key);
    if (name == "flags")
      options.flags = py::cast<std::string>(value);
    else if (name == "cache_url")
      options.cacheUrl = py::cast<std::string>(value);
    else if (name == "compiler_root")
      options.compilerRoot = py::cast<std::string>(value);
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
    else if (name == "link")
      options.link = py::cast<bool>(value);
    else
      throw py::type_error("unknown compile option '" + name + "'");
  }
}

CompileOptions python::makeOptions(std::string arch, std::string grfMode,
                                   std::string backend, int64_t spillThreshold,
                                   std::string autoStrategy,
                                   std::string cacheDir, unsigned jobs) {
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

std::atomic<bool> python::shuttingDown{false};
std::atomic<unsigned> python::nativeCalls{0};

/// How long exit waits for native calls after cancelling their jobs.
static constexpr auto kExitWait = std::chrono::seconds(60);

void python::parkForever() {
  for (;;)
    ::pause();
}

CompileOutcome python::refusedAtExit() {
  CompileOutcome outcome;
  outcome.addError("<xpu_codegen>: error: the interpreter is exiting");
  return outcome;
}

void python::defineShutdown(py::module_ &module) {
  module.def(
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
}
