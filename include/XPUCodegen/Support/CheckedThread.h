//===- CheckedThread.h - A thread whose start may fail ----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// std::thread throws std::system_error when the process may not create
// another thread (EAGAIN under a pids limit, as container runtimes and CI
// runners set one); in this -fno-exceptions code that is an abort of the
// host. A CheckedThread starts with pthread_create and returns the error, so
// that the caller fails one job, not the process.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_CHECKEDTHREAD_H
#define XPUCODEGEN_SUPPORT_CHECKEDTHREAD_H

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <pthread.h>

namespace mlir::xpu {

class CheckedThread {
public:
  /// Runs `body` on a new thread (with a stack of `stackBytes`, else the
  /// system's default), or says why none could be created.
  static llvm::Expected<CheckedThread>
  start(std::function<void()> body,
        std::optional<size_t> stackBytes = std::nullopt);

  CheckedThread() = default;
  CheckedThread(CheckedThread &&other) noexcept;
  CheckedThread &operator=(CheckedThread &&other) noexcept;
  CheckedThread(const CheckedThread &) = delete;
  CheckedThread &operator=(const CheckedThread &) = delete;
  /// A thread still joinable is detached: never a terminate, as
  /// std::thread's.
  ~CheckedThread();

  bool joinable() const { return started; }
  void join();
  void detach();

private:
  pthread_t handle{};
  bool started = false;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_SUPPORT_CHECKEDTHREAD_H
