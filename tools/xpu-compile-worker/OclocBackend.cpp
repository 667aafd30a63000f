//===- OclocBackend.cpp - IGC through libocloc, in memory -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Drives IGC through libocloc's oclocInvoke with in-memory input and output:
// no temporary files, no process per job. The library is loaded once per
// worker and warmed with a tiny kernel so that the first real job does not
// pay for IGC's start-up.
//
//===----------------------------------------------------------------------===//

#include "CompilerBackend.h"
#include "CompilerLibraryHash.h"

#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <ocloc_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <iterator>
#include <link.h>
#include <map>

using namespace llvm;

namespace mlir::xpu::worker {
namespace {

/// An empty-ish OpenCL kernel (`store i32 0` through a global pointer),
/// SPIR-V 1.4 from llc -mtriple=spirv64-unknown-unknown; only used to load
/// and initialize IGC at worker start.
const uint32_t kWarmupKernel[] = {
    0x07230203, 0x00010400, 0x002b0016, 0x00000013, 0x00000000, 0x00020011,
    0x00000006, 0x00020011, 0x00000004, 0x0005000b, 0x00000001, 0x6e65704f,
    0x732e4c43, 0x00006474, 0x0003000e, 0x00000002, 0x00000002, 0x0005000f,
    0x00000006, 0x00000008, 0x6d726177, 0x00000000, 0x00030010, 0x00000008,
    0x0000001f, 0x00030003, 0x00000004, 0x000186a0, 0x00030005, 0x00000007,
    0x00000070, 0x00040005, 0x00000008, 0x6d726177, 0x00000000, 0x00040015,
    0x00000002, 0x00000020, 0x00000000, 0x00040020, 0x00000003, 0x00000005,
    0x00000002, 0x00020013, 0x00000004, 0x00040021, 0x00000005, 0x00000004,
    0x00000003, 0x0003002e, 0x00000002, 0x00000006, 0x00050036, 0x00000004,
    0x00000008, 0x00000000, 0x00000005, 0x00030037, 0x00000003, 0x00000007,
    0x000200f8, 0x00000009, 0x0005003e, 0x00000007, 0x00000006, 0x00000002,
    0x00000004, 0x000100fd, 0x00010038,
};

/// Options passed when a job has none: ocloc reads `<name>_options.txt`
/// from the working directory when -options is empty, and a single space
/// is non-empty but adds no flag.
constexpr const char *kNoOptions = " ";

/// Name of the in-memory source and of the binary output: IGC 1.0.12504's
/// ocloc names it exactly that (-output_no_suffix), ocloc 26.x adds ".bin"
/// even then, and some versions add the device ("k_pvc.bin").
constexpr const char *kSourceName = "k.spv";
constexpr const char *kOutputName = "k";

/// The binary among ocloc's named outputs (see kOutputName); null when
/// there is none.
const std::string *
findBinaryOutput(const std::map<std::string, std::string> &outputs) {
  for (StringRef name : {StringRef(kOutputName), StringRef("k.bin")}) {
    auto it = outputs.find(name.str());
    if (it != outputs.end())
      return &it->second;
  }
  const std::string *found = nullptr;
  for (const auto &[name, data] : outputs) {
    if (!StringRef(name).starts_with("k_") ||
        !StringRef(name).ends_with(".bin"))
      continue;
    if (found)
      return nullptr; // Several devices: ambiguous, never guess.
    found = &data;
  }
  return found;
}

/// The outputs of one oclocInvoke, freed with oclocFreeOutput.
struct OclocOutputs {
  uint32_t num = 0;
  uint8_t **data = nullptr;
  uint64_t *lens = nullptr;
  char **names = nullptr;
};

/// Paths of the shared objects loaded in this process.
std::vector<std::string> loadedObjects() {
  std::vector<std::string> paths;
  ::dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) {
        if (info->dlpi_name && *info->dlpi_name)
          static_cast<std::vector<std::string> *>(data)->push_back(
              info->dlpi_name);
        return 0;
      },
      &paths);
  llvm::sort(paths);
  return paths;
}

class OclocBackend : public CompilerBackend {
public:
  static Expected<std::unique_ptr<CompilerBackend>> load();
  ~OclocBackend() override;

  Expected<std::string> getIdentity() override;
  Expected<WorkerResponse> compile(const WorkerRequest &request) override;

private:
  OclocBackend(void *handle, std::string path) : handle(handle), path(path) {}

  /// Adds IGC's libraries beside libocloc to compilerObjects: ocloc 26.x
  /// loads them per compile and unloads them after, so the warm-up leaves
  /// only libocloc mapped, yet they are the compiler.
  void addCompilerSiblings();

  /// The device names this ocloc accepts (from `compile --help`).
  std::vector<std::string> queryDevices();

  /// Runs ocloc with `args` (without the leading "ocloc") and in-memory
  /// sources; returns the return code and the named outputs.
  int invoke(ArrayRef<const char *> args, ArrayRef<StringRef> sources,
             ArrayRef<const char *> sourceNames,
             std::map<std::string, std::string> &outputs);

  void *handle;
  std::string path;
  decltype(&::oclocInvoke) invokeFn = nullptr;
  decltype(&::oclocFreeOutput) freeFn = nullptr;
  decltype(&::oclocVersion) versionFn = nullptr;
  std::string identity;
  /// Shared objects loaded by dlopen and warm-up, i.e. the compiler.
  std::vector<std::string> compilerObjects;
};

Expected<std::unique_ptr<CompilerBackend>> OclocBackend::load() {
  const char *env = std::getenv("XPU_CODEGEN_OCLOC_LIBRARY");
  std::string path = env && *env ? env : "libocloc.so";
  std::vector<std::string> before = loadedObjects();
  // RTLD_LOCAL: IGC's LLVM 14 stays out of the global symbol scope.
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return createStringError(inconvertibleErrorCode(),
                             formatv("cannot load the ocloc library '{0}': "
                                     "{1} (install intel-opencl-icd or set "
                                     "XPU_CODEGEN_OCLOC_LIBRARY)",
                                     path, ::dlerror()));
  std::unique_ptr<OclocBackend> backend(new OclocBackend(handle, path));
  backend->invokeFn = reinterpret_cast<decltype(&::oclocInvoke)>(
      ::dlsym(handle, "oclocInvoke"));
  backend->freeFn = reinterpret_cast<decltype(&::oclocFreeOutput)>(
      ::dlsym(handle, "oclocFreeOutput"));
  backend->versionFn = reinterpret_cast<decltype(&::oclocVersion)>(
      ::dlsym(handle, "oclocVersion"));
  if (!backend->invokeFn || !backend->freeFn || !backend->versionFn)
    return createStringError(inconvertibleErrorCode(),
                             formatv("'{0}' does not export oclocInvoke, "
                                     "oclocFreeOutput and oclocVersion",
                                     path));

  // Warm up: the first compile in a process loads IGC (~80 ms).
  WorkerRequest warmup;
  warmup.device = "pvc";
  const char *bytes = reinterpret_cast<const char *>(kWarmupKernel);
  warmup.spirv.assign(bytes, bytes + sizeof(kWarmupKernel));
  Expected<WorkerResponse> warm = backend->compile(warmup);
  if (!warm)
    return warm.takeError();
  if (!warm->succeeded)
    return createStringError(inconvertibleErrorCode(),
                             formatv("the ocloc library '{0}' failed to "
                                     "compile the warm-up kernel (rc {1}): "
                                     "{2}",
                                     path, warm->returnCode, warm->log));
  std::vector<std::string> after = loadedObjects();
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(backend->compilerObjects));
  backend->addCompilerSiblings();
  return std::unique_ptr<CompilerBackend>(std::move(backend));
}

OclocBackend::~OclocBackend() {
  // Deliberately no dlclose: IGC registers process-wide state (signal
  // handlers, atexit hooks) that must not outlive its code.
}

int OclocBackend::invoke(ArrayRef<const char *> args,
                         ArrayRef<StringRef> sources,
                         ArrayRef<const char *> sourceNames,
                         std::map<std::string, std::string> &outputs) {
  SmallVector<const char *> argv{"ocloc"};
  argv.append(args.begin(), args.end());
  SmallVector<const uint8_t *> data;
  SmallVector<uint64_t> lens;
  for (StringRef source : sources) {
    data.push_back(reinterpret_cast<const uint8_t *>(source.data()));
    lens.push_back(source.size());
  }
  OclocOutputs out;
  int rc = invokeFn(argv.size(), argv.data(), sources.size(), data.data(),
                    lens.data(), const_cast<const char **>(sourceNames.data()),
                    0, nullptr, nullptr, nullptr, &out.num, &out.data,
                    &out.lens, &out.names);
  for (uint32_t i = 0; i < out.num; ++i)
    if (out.names && out.names[i] && out.data)
      outputs[out.names[i]] =
          std::string(reinterpret_cast<const char *>(out.data[i]),
                      out.data[i] ? out.lens[i] : 0);
  freeFn(&out.num, &out.data, &out.lens, &out.names);
  return rc;
}

Expected<WorkerResponse> OclocBackend::compile(const WorkerRequest &request) {
  if (request.device.empty())
    return createStringError(inconvertibleErrorCode(),
                             "compile request names no device");
  const char *options =
      request.options.empty() ? kNoOptions : request.options.c_str();
  // -ze-allow-zebin every time: the output format is sticky across calls.
  const char *args[] = {"compile",           "-file",
                        kSourceName,         "-spirv_input",
                        "-device",           request.device.c_str(),
                        "-internal_options", "-ze-allow-zebin",
                        "-options",          options,
                        "-output",           kOutputName,
                        "-output_no_suffix", "-exclude_ir"};
  StringRef spirv(request.spirv.data(), request.spirv.size());
  const char *names[] = {kSourceName};
  std::map<std::string, std::string> outputs;

  auto start = std::chrono::steady_clock::now();
  int rc = invoke(args, {spirv}, names, outputs);
  auto end = std::chrono::steady_clock::now();

  WorkerResponse response;
  response.returnCode = rc;
  response.compileMs =
      std::chrono::duration<double, std::milli>(end - start).count();
  auto log = outputs.find("stdout.log");
  if (log != outputs.end())
    response.log = log->second;
  if (const std::string *binary = findBinaryOutput(outputs))
    response.binary.assign(binary->begin(), binary->end());
  response.succeeded = rc == 0 && !response.binary.empty();
  if (rc == 0 && response.binary.empty()) {
    std::string names;
    for (const auto &output : outputs)
      names += (names.empty() ? "" : ", ") + output.first;
    response.log += "ocloc reported success but produced no binary (outputs: " +
                    (names.empty() ? std::string("none") : names) + ")\n";
  }
  if (!response.succeeded)
    response.binary.clear();
  return response;
}

void OclocBackend::addCompilerSiblings() {
  auto ocloc = llvm::find_if(compilerObjects, [](const std::string &object) {
    return sys::path::filename(object).starts_with("libocloc");
  });
  if (ocloc == compilerObjects.end())
    return;
  std::error_code ec;
  StringRef dir = sys::path::parent_path(*ocloc);
  std::vector<std::string> siblings;
  for (sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    StringRef name = sys::path::filename(it->path());
    bool isCompiler = name.starts_with("libigc.so") ||
                      name.starts_with("libigdfcl.so") ||
                      name.starts_with("libopencl-clang.so");
    SmallString<256> real;
    if (isCompiler && !sys::fs::real_path(it->path(), real))
      siblings.push_back(real.str().str());
  }
  for (std::string &object : compilerObjects) {
    SmallString<256> real;
    if (!sys::fs::real_path(object, real))
      object = real.str().str();
  }
  llvm::append_range(compilerObjects, siblings);
  llvm::sort(compilerObjects);
  compilerObjects.erase(llvm::unique(compilerObjects), compilerObjects.end());
}

std::vector<std::string> OclocBackend::queryDevices() {
  std::map<std::string, std::string> outputs;
  const char *args[] = {"compile", "--help"};
  (void)invoke(args, {}, {}, outputs);
  auto log = outputs.find("stdout.log");
  if (log == outputs.end())
    return {};
  return parseOclocDeviceHelp(log->second);
}

Expected<std::string> OclocBackend::getIdentity() {
  if (!identity.empty())
    return identity;
  std::map<std::string, std::string> outputs;
  const char *args[] = {"query", "OCL_DRIVER_VERSION"};
  std::string driver = "unknown";
  if (invoke(args, {}, {}, outputs) == 0) {
    auto it = outputs.find("OCL_DRIVER_VERSION");
    if (it != outputs.end())
      driver = StringRef(it->second).split('\0').first.trim().str();
  }
  int api = versionFn();

  // Version strings do not change when a library is rebuilt or swapped
  // (XPU_CODEGEN_OCLOC_LIBRARY); the libraries that the compiler brought
  // into this process (libocloc, libigc, IGC's LLVM and SPIR-V translator,
  // ...) do.
  uint64_t hash = 0;
  for (const std::string &libPath : compilerObjects) {
    Expected<uint64_t> libraryHash = hashCompilerLibrary(libPath);
    if (!libraryHash)
      return libraryHash.takeError();
    hash = *libraryHash ^ (hash * 0x9E3779B97F4A7C15ull);
  }
  CompilerIdentity reply;
  reply.text = formatv("ocloc {0} (API {1}.{2}; {3} libraries {4})", driver,
                       api >> 16, api & 0xffff, compilerObjects.size(),
                       format_hex_no_prefix(hash, 16));
  reply.devices = queryDevices();
  identity = formatCompilerIdentity(reply);
  return identity;
}

} // namespace

Expected<std::unique_ptr<CompilerBackend>> createOclocBackend() {
  return OclocBackend::load();
}

} // namespace mlir::xpu::worker
