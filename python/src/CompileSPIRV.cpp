//===- CompileSPIRV.cpp - compile_spirv for both extensions ---------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// `compile_spirv`, defined in both extension modules. Each extension links
// its own copy of the worker pool; once the MLIR half is loaded, the Python
// half sends SPIR-V there too, so a process compiling both kinds of input
// keeps one pool of compiler workers.
//
//===----------------------------------------------------------------------===//

#include "CompileCommon.h"

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Codegen/ResultMessages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir::xpu;
using namespace mlir::xpu::python;

namespace {

/// A SPIR-V module to compile: its name (for reports) and bytes.
using SPIRVInput = std::pair<std::string, std::string>;

CompileOutcome compileSPIRV(const std::vector<SPIRVInput> &inputs,
                            const CompileOptions &options) {
  CompileOutcome outcome;
  // A copy: the conditional's result is a temporary std::string.
  const std::string location = inputs.empty() ? "<spirv>" : inputs[0].first;
  if (!checkOptions(options, location, outcome))
    return outcome;

  llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
      NativeCodegenDriver::create(
          CompileSession::create(getNativeCodegenOptions(options)));
  if (!driver) {
    outcome.addError(
        location + ": error: " +
        getStartFailureMessage(llvm::toString(driver.takeError())));
    return outcome;
  }

  std::vector<ModuleCompileRequest> requests;
  for (const auto &[name, bytes] : inputs) {
    ModuleCompileRequest request;
    request.name = name;
    request.arch = options.arch;
    request.policy = *symbolizeGRFMode(options.grfMode);
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
      outcome.addError(
          request.name + ": error: " +
          getFailureMessage(request.name, request.arch, error.message));
      outcome.modules.push_back(
          {getReportErrorEntry(request.name, request.arch, error),
           std::nullopt});
      continue;
    }
    // The pass's warnings, worded alike (ResultMessages.h).
    llvm::raw_string_ostream os(outcome.diagnostics);
    for (const ResultMessage &message :
         getResultMessages(*result, request.policy, /*remarks=*/false))
      os << request.name << ": warning: " << message.getText() << "\n";
    const std::vector<char> &binary = result->decision.getChosen().binary;
    outcome.modules.push_back(
        {getReportEntry(*result), std::string(binary.begin(), binary.end())});
  }
  return outcome;
}

} // namespace

void mlir::xpu::python::defineCompileSPIRV(py::module_ &m) {
  m.def(
      "compile_spirv",
      [](const std::vector<std::pair<std::string, py::bytes>> &inputs,
         const py::kwargs &keywords) {
        std::vector<SPIRVInput> copies;
        for (const auto &[name, bytes] : inputs)
          copies.emplace_back(name, std::string(bytes));
        CompileOptions options = parseCompileOptions(keywords);
        return toPython(runNative([&] { return compileSPIRV(copies, options); },
                                  refusedAtExit()));
      },
      py::arg("inputs"),
      "Compiles SPIR-V modules [(name, bytes)] to native code; the options "
      "(codegen_options()) as keywords.");
}
