//===- CompileCommon.cpp - Shared by the xpu_codegen extensions -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "CompileCommon.h"

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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

std::string python::getPythonName(llvm::StringRef name) {
  std::string python = name.str();
  std::replace(python.begin(), python.end(), '-', '_');
  return python;
}

/// The first mistake of `options` by the list's checks (of option `only`
/// alone when given), spelled with the Python names.
static std::optional<std::string> checkListed(const CompileOptions &options,
                                              llvm::StringRef only = "") {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  if (only.empty() || only == getPythonName(NAME))                             \
    if (llvm::Error error = checkCodegenOptionValue(                           \
            CodegenOptionCheck::CHECK, getPythonName(NAME), options.FIELD))    \
      return llvm::toString(std::move(error));
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
  return std::nullopt;
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
  if (!symbolizeGRFMode(options.grfMode)) {
    std::vector<llvm::StringRef> valid;
    for (const CodegenOptionChoice &choice : getCodegenOptionChoices<GRFMode>())
      valid.push_back(choice.name);
    return fail("unknown GRF mode '" + options.grfMode +
                "'; valid: " + llvm::join(valid, ", "));
  }
  if (std::optional<std::string> problem = checkListed(options))
    return fail(*problem);
  if (llvm::Error error = checkPredictionBand(options.predictSmallBelow,
                                              options.predictLargeAbove))
    return fail(llvm::toString(std::move(error)));
  if (llvm::Error error =
          checkSharedCacheOptions(getNativeCodegenOptions(options)))
    return fail(llvm::toString(std::move(error)));
  return true;
}

/// Sets `field` from the Python value of option `name`.
template <typename T>
static void setOption(T &field, llvm::StringRef name, py::handle value) {
  if constexpr (std::is_enum_v<T>) {
    std::optional<T> parsed =
        parseCodegenOptionValue<T>(py::cast<std::string>(value));
    if (!parsed)
      throw py::value_error(
          (name + " has no value '" + py::cast<std::string>(value) + "'")
              .str());
    field = *parsed;
  } else {
    field = py::cast<T>(value);
  }
}

CompileOptions python::parseCompileOptions(const py::kwargs &keywords) {
  CompileOptions options;
  for (auto [key, value] : keywords) {
    std::string name = py::cast<std::string>(key);
    bool known = false;
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  if (!known && name == getPythonName(NAME)) {                                 \
    setOption(options.FIELD, name, value);                                     \
    known = true;                                                              \
  }
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
    if (!known)
      throw py::type_error("unknown compile option '" + name + "'");
  }
  return options;
}

/// An option's default as a Python value of its kind.
static py::object getPythonDefault(const CodegenOptionInfo &info) {
  switch (info.kind) {
  case CodegenOptionKind::Flag:
    return py::bool_(info.defaultValue == "true");
  case CodegenOptionKind::Integer: {
    int64_t value = 0;
    (void)info.defaultValue.getAsInteger(10, value);
    return py::int_(value);
  }
  case CodegenOptionKind::Text:
  case CodegenOptionKind::Choice:
    break;
  }
  return py::str(info.defaultValue.str());
}

void python::defineOptionList(py::module_ &module) {
  module.def(
      "codegen_options",
      [] {
        static constexpr const char *kKinds[] = {"text", "integer", "flag",
                                                 "choice"};
        static constexpr const char *kRoles[] = {"keyed", "location", "speed"};
        py::list options;
        for (const CodegenOptionInfo &info : getCodegenOptionInfos()) {
          py::dict option;
          option["name"] = getPythonName(info.name);
          option["option"] = info.name.str();
          option["kind"] = kKinds[unsigned(info.kind)];
          option["default"] = getPythonDefault(info);
          option["role"] = kRoles[unsigned(info.role)];
          option["description"] = info.description.str();
          // The values it accepts (none: any of its kind).
          py::list values;
          for (const CodegenOptionChoice &choice : info.choices)
            values.append(choice.name.str());
          for (int64_t value : getCodegenOptionCheckValues(info.check))
            values.append(value);
          for (llvm::StringRef word : getCodegenOptionCheckWords(info.check))
            values.append(word.str());
          option["values"] = std::move(values);
          bool integer = info.kind == CodegenOptionKind::Integer;
          option["minimum"] = integer ? py::object(py::int_(info.minimum))
                                      : py::object(py::none());
          option["maximum"] = integer ? py::object(py::int_(info.maximum))
                                      : py::object(py::none());
          options.append(std::move(option));
        }
        return options;
      },
      "The compile options (CodegenOptions.def), in order: name (Python), "
      "option (pass option), kind, default, role, description, values (the "
      "accepted ones; empty: any of its kind), minimum and maximum (an "
      "integer option's bounds; None for the others).");
  module.def(
      "check_option",
      [](const std::string &name, py::handle value) -> py::object {
        py::kwargs keywords;
        keywords[py::str(name)] = value;
        if (std::optional<std::string> problem =
                checkListed(parseCompileOptions(keywords), name))
          return py::str(*problem);
        return py::none();
      },
      py::arg("name"), py::arg("value"),
      "The mistake in option `name` set to `value` (the message every front "
      "end gives), or None.");
  module.def(
      "check_shared_cache",
      [](py::kwargs keywords) -> py::object {
        if (llvm::Error error = checkSharedCacheOptions(
                getNativeCodegenOptions(parseCompileOptions(keywords))))
          return py::str(llvm::toString(std::move(error)));
        return py::none();
      },
      "The mistake in the shared cache options (cache_url and its keys and "
      "secrets, as the cache will resolve them), or None.");
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
