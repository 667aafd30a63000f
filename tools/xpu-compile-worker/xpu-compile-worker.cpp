//===- xpu-compile-worker.cpp - Isolated native compiler process ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Started by WorkerPool (lib/Compiler/Worker) with a socket on stdin/stdout;
// runWorkerServer (WorkerServer.h) limits its address space, moves it into a
// private empty working directory (IGC reads option files from the current
// directory) and serves the protocol. This program loads and warms the
// compiler once and runs the jobs. Whatever the compiler does to this
// process (exit, abort, runaway memory) only costs the host one job.
//
//===----------------------------------------------------------------------===//

#include "CompilerBackend.h"

#include "XPUCodegen/Compiler/Worker/WorkerServer.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::worker;

namespace {

/// Lazily created backends; a backend that cannot load answers every job
/// with the same error and the worker stays up.
struct Backends final : WorkerService {
  std::unique_ptr<CompilerBackend> instances[2];
  std::string loadErrors[2];
  bool tried[2] = {false, false};
  /// Appended to every load failure under a memory limit: a tight limit
  /// breaks dlopen ("failed to map") or IGC's own initialisation (ocloc
  /// then says only that loading IGC failed), and nothing else names it.
  std::string limitNote;

  std::string annotate(std::string message) const {
    return message + limitNote;
  }

  Expected<CompilerBackend &> get(WorkerBackend kind) {
    if (kind != WorkerBackend::Ocloc && kind != WorkerBackend::LevelZero)
      return createStringError(inconvertibleErrorCode(),
                               "xpu-compile-worker: backend " +
                                   std::to_string(unsigned(kind)) +
                                   " is not a native compiler (LLVM's SPIR-V "
                                   "backend runs in xpu-spirv-emitter)");
    unsigned index = unsigned(kind);
    if (!tried[index]) {
      tried[index] = true;
      Expected<std::unique_ptr<CompilerBackend>> backend =
          kind == WorkerBackend::Ocloc ? createOclocBackend()
                                       : createLevelZeroBackend();
      if (backend)
        instances[index] = std::move(*backend);
      else
        loadErrors[index] = annotate(toString(backend.takeError()));
    }
    if (!instances[index])
      return createStringError(inconvertibleErrorCode(), loadErrors[index]);
    return *instances[index];
  }

  void setUp(uint64_t memoryMiB) override {
    // Load and warm the default compiler before saying hello, so that the
    // host's per-job time limit never includes start-up.
    if (memoryMiB)
      limitNote = " (under the worker's " + std::to_string(memoryMiB) +
                  " MiB memory limit)";
    if (Expected<CompilerBackend &> ocloc = get(WorkerBackend::Ocloc); !ocloc)
      consumeError(ocloc.takeError()); // Reported on each ocloc job.
  }

  Expected<WorkerResponse> compile(const WorkerRequest &request) override {
    Expected<CompilerBackend &> backend = get(request.backend);
    if (!backend)
      return backend.takeError();
    return backend->compile(request);
  }

  Expected<std::string> getIdentity(WorkerBackend kind) override {
    Expected<CompilerBackend &> backend = get(kind);
    if (!backend)
      return backend.takeError();
    return backend->getIdentity();
  }
};

} // namespace

int main(int argc, char **argv) {
  Backends backends;
  return runWorkerServer(argc, argv, "xpu-compile-worker", backends);
}
