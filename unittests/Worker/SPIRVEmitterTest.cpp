//===- SPIRVEmitterTest.cpp - The SPIR-V emitter through WorkerPool -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Runs the real xpu-spirv-emitter (found next to the tests in build/bin)
// through WorkerPool: many modules per process, the same bytes whatever was
// emitted before, retirement after maxJobsPerWorker jobs, errors that name
// the emitter, and the time limit.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace llvm;
using namespace mlir::xpu;

namespace {

template <typename T> std::string errorText(Expected<T> &value) {
  return value ? std::string() : toString(value.takeError());
}

#define ASSERT_OK(value) ASSERT_TRUE(bool(value)) << errorText(value)

/// An OpenCL kernel `name` with `blocks` basic blocks, as LLVM IR text.
std::string kernel(StringRef name, unsigned blocks) {
  std::string ir = "define spir_kernel void @" + name.str() +
                   "(ptr addrspace(1) %p, i32 %n) {\nentry:\n"
                   "  br label %b0\n";
  for (unsigned i = 0; i < blocks; ++i) {
    std::string next = i + 1 < blocks ? "b" + std::to_string(i + 1) : "done";
    ir += "b" + std::to_string(i) + ":\n  store i32 " + std::to_string(i) +
          ", ptr addrspace(1) %p\n  %c" + std::to_string(i) +
          " = icmp sgt i32 %n, " + std::to_string(i) + "\n  br i1 %c" +
          std::to_string(i) + ", label %" + next + ", label %done\n";
  }
  return ir + "done:\n  ret void\n}\n";
}

WorkerRequest emitRequest(const std::string &ir, std::string optLevel = "-O0") {
  WorkerRequest request;
  request.backend = WorkerBackend::LLVMSPIRV;
  request.device = "spirv64-unknown-unknown";
  request.options = std::move(optLevel);
  request.spirv.assign(ir.begin(), ir.end());
  return request;
}

bool isSPIRV(const std::vector<char> &binary) {
  return binary.size() > 20 &&
         StringRef(binary.data(), 4) == "\x03\x02\x23\x07";
}

Expected<std::unique_ptr<WorkerPool>>
createEmitterPool(unsigned maxJobs = 0, uint64_t timeoutMs = 0) {
  WorkerLimits limits;
  limits.memoryMiB = 0;
  limits.timeoutMs = timeoutMs;
  return WorkerPool::create(1, limits, "", /*idleMs=*/0, kDefaultStartupMs,
                            WorkerProgram::SPIRVEmitter, maxJobs);
}

TEST(SPIRVEmitterTest, FoundBesideTheCompileWorker) {
  std::string emitter = findWorkerExecutable(WorkerProgram::SPIRVEmitter);
  std::string worker = findWorkerExecutable(WorkerProgram::CompileWorker);
  EXPECT_TRUE(StringRef(emitter).ends_with("/xpu-spirv-emitter")) << emitter;
  EXPECT_TRUE(StringRef(worker).ends_with("/xpu-compile-worker")) << worker;
}

TEST(SPIRVEmitterTest, ManyModulesOneProcessSameBytes) {
  auto pool = createEmitterPool();
  ASSERT_OK(pool);
  // Modules of different shapes, then each again in reverse order: the
  // second emission of a module must match the first, though the process
  // emitted other modules in between (llvm/llvm-project#160613).
  std::vector<std::string> modules;
  for (unsigned i = 0; i < 12; ++i)
    modules.push_back(kernel("k" + std::to_string(i), 1 + i % 5) +
                      (i % 3 ? kernel("extra", 2 + i % 4) : ""));
  std::vector<std::vector<char>> first;
  for (const std::string &ir : modules) {
    Expected<WorkerResponse> response = (*pool)->run(emitRequest(ir));
    ASSERT_OK(response);
    ASSERT_TRUE(response->succeeded) << response->log;
    EXPECT_TRUE(isSPIRV(response->binary));
    first.push_back(response->binary);
  }
  for (size_t i = modules.size(); i-- > 0;) {
    Expected<WorkerResponse> response = (*pool)->run(emitRequest(modules[i]));
    ASSERT_OK(response);
    EXPECT_EQ(response->binary, first[i]) << "module " << i;
  }
  EXPECT_EQ((*pool)->getWorkersStarted(), 1u);
}

TEST(SPIRVEmitterTest, RetiredAfterMaxJobs) {
  auto pool = createEmitterPool(/*maxJobs=*/2);
  ASSERT_OK(pool);
  std::string ir = kernel("k", 3);
  std::vector<char> expected;
  for (unsigned i = 0; i < 5; ++i) {
    Expected<WorkerResponse> response = (*pool)->run(emitRequest(ir, "-O2"));
    ASSERT_OK(response);
    if (expected.empty())
      expected = response->binary;
    EXPECT_EQ(response->binary, expected);
  }
  // 2 + 2 + 1 jobs; the retired ones are gone.
  EXPECT_EQ((*pool)->getWorkersStarted(), 3u);
  EXPECT_EQ((*pool)->getWorkersAlive(), 1u);
}

TEST(SPIRVEmitterTest, ErrorsNameTheEmitter) {
  auto pool = createEmitterPool();
  ASSERT_OK(pool);
  Expected<WorkerResponse> bad = (*pool)->run(emitRequest("this is not IR"));
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(errorText(bad).find("xpu-spirv-emitter: cannot read the module"),
            std::string::npos)
      << errorText(bad);
  WorkerRequest native = emitRequest(kernel("k", 1));
  native.backend = WorkerBackend::Ocloc;
  Expected<WorkerResponse> wrong = (*pool)->run(native);
  ASSERT_FALSE(bool(wrong));
  EXPECT_NE(errorText(wrong).find("not LLVM's SPIR-V backend"),
            std::string::npos);
  Expected<WorkerResponse> level =
      (*pool)->run(emitRequest(kernel("k", 1), "-O7"));
  ASSERT_FALSE(bool(level));
  // The process survived all three.
  Expected<WorkerResponse> good = (*pool)->run(emitRequest(kernel("k", 1)));
  ASSERT_OK(good);
  EXPECT_EQ((*pool)->getWorkersStarted(), 1u);
  Expected<std::string> identity =
      (*pool)->getCompilerIdentity(WorkerBackend::LLVMSPIRV);
  ASSERT_OK(identity);
  EXPECT_TRUE(StringRef(*identity).starts_with("LLVM ")) << *identity;
}

TEST(SPIRVEmitterTest, CrashAndHangAreThatJobsErrors) {
  // Emitters inherit the environment when they start (at a job).
  ::setenv("XPU_SPIRV_EMITTER_TEST_FAULT", "crash:boom,hang:stuck", 1);
  scope_exit unset([] { ::unsetenv("XPU_SPIRV_EMITTER_TEST_FAULT"); });
  auto pool = createEmitterPool(/*maxJobs=*/0, /*timeoutMs=*/1000);
  ASSERT_OK(pool);
  Expected<WorkerResponse> crash = (*pool)->run(emitRequest(kernel("boom", 1)));
  ASSERT_FALSE(bool(crash));
  EXPECT_NE(
      errorText(crash).find("SPIR-V emitter killed by signal 6 (Aborted)"),
      std::string::npos)
      << errorText(crash);
  Expected<WorkerResponse> hang = (*pool)->run(emitRequest(kernel("stuck", 1)));
  ASSERT_FALSE(bool(hang));
  EXPECT_NE(errorText(hang).find("SPIR-V emitter exceeded the 1000 ms time "
                                 "limit"),
            std::string::npos)
      << errorText(hang);
  Expected<WorkerResponse> good = (*pool)->run(emitRequest(kernel("fine", 2)));
  ASSERT_OK(good);
  EXPECT_TRUE(good->succeeded);
  EXPECT_EQ((*pool)->getWorkersStarted(), 3u);
}

} // namespace
