//===- XPUCodegenModule.cpp - Native half of the xpu_codegen package ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The extension module `xpu_codegen._xpu_codegen`: compiles SPIR-V bytes
// (native code generation only, through the NativeCodegenDriver), reads
// zebins and answers device questions. It links no MLIR library, so
// `import xpu_codegen` and SPIR-V work do not load libMLIR; MLIR text is
// compiled by `_xpu_codegen_mlir` (XPUCodegenMLIRModule.cpp), which the
// Python half imports on first use.
//
// Compile functions never raise for a compile failure: they return a
// dictionary with the located diagnostics, one report entry per module (a
// dict printed by getReportEntry under the keys of ResultFields.def, so
// Python sees exactly what the pass report says) and the native binaries.
// The Python half turns failures into exceptions. llvm::Error never crosses
// the boundary, and no LLVM code runs while the GIL is held.
//
//===----------------------------------------------------------------------===//

#include "CompileCommon.h"

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"
#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir::xpu;
using namespace mlir::xpu::python;

/// read_zebin: a zebin's kernels and their measurements.
static void defineReadZebin(py::module_ &m) {
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
}

/// Arch and PCI ID lookups, and the messages for a bad arch or cache URL.
static void defineLookups(py::module_ &m) {
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
}

/// The device checks' messages, as the Device layer words them for every
/// front end (an unknown arch: its own message).
static void defineDeviceMessages(py::module_ &m) {
  auto onDevice = [](auto describe) {
    return [describe](const std::string &arch, int64_t value) -> std::string {
      const DeviceInfo *device = lookupDevice(arch);
      return device ? describe(*device, arch, value)
                    : describeUnknownDevice(arch);
    };
  };
  m.def("describe_missing_register_count",
        onDevice([](const DeviceInfo &device, llvm::StringRef arch,
                    int64_t registers) {
          return describeMissingRegisterCount(device, arch,
                                              unsigned(registers));
        }),
        py::arg("arch"), py::arg("registers"),
        "Why arch has no register file of that many registers per thread.");
  m.def("describe_unsupported_subgroup_size",
        onDevice(&describeUnsupportedSubgroupSize), py::arg("arch"),
        py::arg("size"), "Why arch cannot run that sub-group size.");
}

/// The compiler a compile would use, resolved as its session resolves it.
static void defineCompilerLookups(py::module_ &m) {
  m.def(
      "requested_compiler_root",
      [](const std::string &root) { return getRequestedCompilerRoot(root); },
      py::arg("root"),
      "The root a compile with compiler_root=root resolves: '' (the "
      "system's) for 'system', $XPU_CODEGEN_COMPILER_ROOT for ''.");
  m.def(
      "resolve_compiler",
      [](const std::string &root) {
        // The same resolution as a compile's session.
        py::dict result;
        llvm::Expected<CompilerInstallation> compiler =
            resolveCompilerRoot(getRequestedCompilerRoot(root));
        if (!compiler) {
          result["error"] = llvm::toString(compiler.takeError());
          return result;
        }
        result["root"] = compiler->root;
        result["library_dirs"] = compiler->getCompilerLibraryDirs();
        return result;
      },
      py::arg("root"),
      "The compiler a compile with compiler_root=root uses: its root ('' "
      "for the system's) and library_dirs, or error.");
}

/// Device table facts, and where the compiler worker is.
static void defineDeviceFacts(py::module_ &m) {
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
        py::list counts, countThreads, launchThreads;
        for (int64_t registers : getGRFCounts(*device)) {
          auto count = static_cast<unsigned>(registers);
          counts.append(registers);
          countThreads.append(device->getThreadsPerEU(count));
          launchThreads.append(device->getLaunchThreadsPerEU(count));
        }
        info["grf_counts"] = counts;
        info["threads_per_count"] = countThreads;
        info["launch_threads_per_count"] = launchThreads;
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
  m.def(
      "resolve_cache_dir",
      [](const std::string &option) {
        return CompileCache::resolveDirectory(option);
      },
      py::arg("option"),
      "The cache directory a compile with cache_dir=option uses, or None "
      "when it uses none.");
}

PYBIND11_MODULE(_xpu_codegen, m) {
  m.doc() = "Native half of xpu_codegen (SPIR-V, zebins, devices; no MLIR); "
            "use the xpu_codegen package.";

  defineCompileSPIRV(m);
  defineResultFields(m);
  defineReadZebin(m);
  defineShutdown(m);
  defineOptionList(m);
  defineLookups(m);
  defineDeviceFacts(m);
  defineDeviceMessages(m);
  defineCompilerLookups(m);
}
