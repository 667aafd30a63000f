//===- CompilerBackend.h - One native compiler inside the worker -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Each backend (ocloc, Level Zero) lives in its own file behind this
// interface; the worker's main loop only dispatches. A backend runs inside
// the isolated worker process, so it may call into code that exits or
// crashes: the host turns that into an error for the job.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERBACKEND_H
#define XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERBACKEND_H

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir::xpu::worker {

class CompilerBackend {
public:
  virtual ~CompilerBackend() = default;

  /// Versions of the compiler behind this backend (stable while the
  /// libraries do not change).
  virtual llvm::Expected<std::string> getIdentity() = 0;

  /// Compiles one job. Compiler rejections are a response with
  /// `succeeded = false`; an error means the job could not be attempted.
  virtual llvm::Expected<WorkerResponse>
  compile(const WorkerRequest &request) = 0;
};

/// IGC through libocloc's in-memory oclocInvoke. Loads and warms the
/// library (dlopen of $XPU_CODEGEN_OCLOC_LIBRARY or libocloc.so).
llvm::Expected<std::unique_ptr<CompilerBackend>> createOclocBackend();

/// IGC through a Level Zero driver (zeModuleCreate).
llvm::Expected<std::unique_ptr<CompilerBackend>> createLevelZeroBackend();

} // namespace mlir::xpu::worker

#endif // XPUCODEGEN_TOOLS_XPU_COMPILE_WORKER_COMPILERBACKEND_H
