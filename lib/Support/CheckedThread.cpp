//===- CheckedThread.cpp - A thread whose start may fail ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/CheckedThread.h"

#include <cstring>
#include <memory>
#include <utility>

using namespace mlir::xpu;

static void *runBody(void *arg) {
  std::unique_ptr<std::function<void()>> body(
      static_cast<std::function<void()> *>(arg));
  (*body)();
  return nullptr;
}

llvm::Expected<CheckedThread>
CheckedThread::start(std::function<void()> body,
                     std::optional<size_t> stackBytes) {
  auto owned = std::make_unique<std::function<void()>>(std::move(body));
  CheckedThread thread;
  pthread_attr_t attr;
  ::pthread_attr_init(&attr);
  int error = stackBytes ? ::pthread_attr_setstacksize(&attr, *stackBytes) : 0;
  if (!error)
    error = ::pthread_create(&thread.handle, &attr, runBody, owned.get());
  ::pthread_attr_destroy(&attr);
  if (error)
    return llvm::createStringError(
        std::error_code(error, std::generic_category()),
        "cannot create a thread: %s", std::strerror(error));
  owned.release(); // The thread owns it now.
  thread.started = true;
  return std::move(thread);
}

CheckedThread::CheckedThread(CheckedThread &&other) noexcept
    : handle(other.handle), started(std::exchange(other.started, false)) {}

CheckedThread &CheckedThread::operator=(CheckedThread &&other) noexcept {
  if (this != &other) {
    if (started)
      detach();
    handle = other.handle;
    started = std::exchange(other.started, false);
  }
  return *this;
}

CheckedThread::~CheckedThread() {
  if (started)
    detach();
}

void CheckedThread::join() {
  if (std::exchange(started, false))
    ::pthread_join(handle, nullptr);
}

void CheckedThread::detach() {
  if (std::exchange(started, false))
    ::pthread_detach(handle);
}
