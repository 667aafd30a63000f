//===- WorkerServer.h - Worker side of the WorkerPool protocol --*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The process side shared by the programs a WorkerPool runs
// (xpu-compile-worker, xpu-spirv-emitter): command line, channel set-up off
// the standard descriptors, address-space limit, private working directory,
// hello, exit on host hang-up, and the request loop. A program supplies the
// jobs through a WorkerService.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_WORKER_WORKERSERVER_H
#define XPUCODEGEN_COMPILER_WORKER_WORKERSERVER_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::xpu::worker {

/// What a worker program does with the requests it is sent.
class WorkerService {
public:
  virtual ~WorkerService();
  /// Called once before the hello, inside the working directory and under
  /// the memory limit (0: none): load and warm what the jobs need, so that
  /// the host's per-job time limit never includes start-up.
  virtual void setUp(uint64_t memoryMiB) {}
  /// Runs one job. An error is sent as an Error frame: the job could not be
  /// attempted, and the process stays usable.
  virtual llvm::Expected<WorkerResponse>
  compile(const WorkerRequest &request) = 0;
  /// The identity of the compiler behind `backend`.
  virtual llvm::Expected<std::string> getIdentity(WorkerBackend backend) = 0;
};

/// Runs the program `name` (for messages) over the channel on its standard
/// input/output until the host closes it or goes away, then exits with the
/// process group it leads (whatever the compiler forked); returns the exit
/// status of a worker that cannot serve.
/// Arguments: [--memory-mib=N] [--work-dir=DIR] (WorkerPool passes both).
int runWorkerServer(int argc, char **argv, llvm::StringRef name,
                    WorkerService &service);

} // namespace mlir::xpu::worker

#endif // XPUCODEGEN_COMPILER_WORKER_WORKERSERVER_H
