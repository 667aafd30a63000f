//===- CompileSessionTest.cpp - What a run resolves once ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A compile session resolves the compiler root once, where the run starts:
// what the root holds later, or what $XPU_CODEGEN_COMPILER_ROOT says later,
// changes nothing for the run, and a broken root is one error kept for the
// stage that needs the compiler. Its cache is opened once and shared.
// Passes run alone share one session per run (getShared), and the session
// collects each module's result.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir::xpu;

namespace {

/// A directory that looks like an ocloc installation (no file loads).
struct FakeCompilerRoot {
  llvm::SmallString<128> root;
  llvm::SmallString<128> libDir;

  FakeCompilerRoot() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("xpu-session", root));
    libDir = root;
    llvm::sys::path::append(libDir, "usr", "lib", "x86_64-linux-gnu");
    EXPECT_FALSE(llvm::sys::fs::create_directories(libDir));
    for (const char *name : {"libocloc.so", "libigc.so.2"}) {
      llvm::SmallString<128> file(libDir);
      llvm::sys::path::append(file, name);
      int fd;
      EXPECT_FALSE(llvm::sys::fs::openFileForWrite(file, fd));
      llvm::sys::fs::closeFile(fd);
    }
  }
  ~FakeCompilerRoot() { llvm::sys::fs::remove_directories(root); }
};

NativeCodegenOptions getOptions(llvm::StringRef compilerRoot,
                                llvm::StringRef cacheDir) {
  NativeCodegenOptions options;
  options.compilerRoot = compilerRoot.str();
  options.cacheDir = cacheDir.str();
  options.cacheUrl = "none";
  return options;
}

TEST(CompileSessionTest, ResolvesTheCompilerRootOnceWhereTheRunStarts) {
  FakeCompilerRoot fake;
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getOptions(fake.root, "none"));
  llvm::Expected<const CompilerInstallation &> compiler =
      session->getCompiler();
  ASSERT_TRUE(bool(compiler)) << llvm::toString(compiler.takeError());
  EXPECT_EQ(compiler->root, fake.root.str().str());
  // Emptied later: the run keeps what it resolved at its start.
  ASSERT_FALSE(llvm::sys::fs::remove_directories(fake.libDir));
  llvm::Expected<const CompilerInstallation &> again = session->getCompiler();
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(&*again, &*compiler);
}

TEST(CompileSessionTest, TheEnvironmentIsReadWhenTheSessionIsMade) {
  FakeCompilerRoot fake;
  ASSERT_EQ(::setenv(kCompilerRootEnvVar.data(), fake.root.c_str(), 1), 0);
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getOptions("", "none"));
  ASSERT_EQ(::setenv(kCompilerRootEnvVar.data(), "/nonexistent/compiler", 1),
            0);
  llvm::Expected<const CompilerInstallation &> compiler =
      session->getCompiler();
  ::unsetenv(kCompilerRootEnvVar.data());
  ASSERT_TRUE(bool(compiler)) << llvm::toString(compiler.takeError());
  EXPECT_EQ(compiler->root, fake.root.str().str());
}

TEST(CompileSessionTest, ABrokenRootIsOneErrorForTheStageThatNeedsIt) {
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getOptions("/nonexistent/compiler", "none"));
  for (int i = 0; i < 2; ++i) {
    llvm::Expected<const CompilerInstallation &> compiler =
        session->getCompiler();
    ASSERT_FALSE(bool(compiler));
    EXPECT_EQ(llvm::toString(compiler.takeError()),
              "compiler root '/nonexistent/compiler' does not exist or is "
              "not a directory");
  }
  // The cache needs no compiler.
  EXPECT_EQ(session->getCache(), nullptr);
}

TEST(CompileSessionTest, OpensTheCacheOnceForEveryStage) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("xpu-session-cache", dir));
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getOptions("", dir));
  CompileCache *cache = session->getCache();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(session->getCache(), cache);
  llvm::Expected<CompileCache *> opened = session->openCache();
  ASSERT_TRUE(bool(opened));
  EXPECT_EQ(*opened, cache);
  llvm::sys::fs::remove_directories(dir);
}

TEST(CompileSessionTest, PassesRunAloneShareTheLiveSessionOfTheirOptions) {
  FakeCompilerRoot fake;
  NativeCodegenOptions moduleCache = getOptions(fake.root, "none");
  NativeCodegenOptions nativeCodegen = moduleCache;
  // What each pass decides or how many workers it asks for is its own.
  nativeCodegen.spillThreshold = 1000;
  nativeCodegen.jobs = 3;
  std::shared_ptr<CompileSession> first =
      CompileSession::getShared(moduleCache);
  EXPECT_EQ(CompileSession::getShared(nativeCodegen), first);

  NativeCodegenOptions otherRoot = getOptions("/nonexistent", "none");
  EXPECT_NE(CompileSession::getShared(otherRoot), first);
  // The shared tier's credentials and keys open another cache.
  NativeCodegenOptions otherTrust = moduleCache;
  otherTrust.cacheTrust = "team.pub";
  EXPECT_NE(CompileSession::getShared(otherTrust), first);

  // A run's session ends with the passes that hold it.
  std::weak_ptr<CompileSession> ended = first;
  first.reset();
  EXPECT_TRUE(ended.expired());
  std::shared_ptr<CompileSession> next = CompileSession::getShared(moduleCache);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->getOptions().compilerRoot, fake.root.str().str());
}

TEST(CompileSessionTest, CollectsEachModulesResultInTheOrderRecorded) {
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getOptions("", "none"));
  std::vector<ModuleReport> first(2), second(1);
  first[0].module = "a";
  first[1].module = "b";
  second[0].module = "c";
  session->addResults(std::move(first));
  session->addResults(std::move(second));
  std::vector<ModuleReport> taken = session->takeResults();
  ASSERT_EQ(taken.size(), 3u);
  EXPECT_EQ(taken[0].module, "a");
  EXPECT_EQ(taken[1].module, "b");
  EXPECT_EQ(taken[2].module, "c");
  EXPECT_TRUE(session->takeResults().empty());
}

} // namespace

TEST(CompileSessionTest, EveryLocationOptionTellsSessionsApart) {
  // Each row of CodegenOptions.def with role Location that the driver holds
  // is in the key: sessions differing in any of them are not shared.
  NativeCodegenOptions base = getOptions("/a", "/c");
  std::string key = CompileSession::getSessionKey(base);
  auto differs = [&](auto change) {
    NativeCodegenOptions changed = base;
    change(changed);
    return CompileSession::getSessionKey(changed) != key;
  };
  EXPECT_TRUE(differs([](auto &o) { o.compilerRoot = "/b"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheDir = "/d"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheUrl = "redis://h:1"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cachePasswordFile = "p"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheTlsCa = "ca"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheTlsCert = "cert"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheTlsKey = "key"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheSignKey = "sign"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheTrust = "trust"; }));
  EXPECT_TRUE(differs([](auto &o) { o.cacheMaxSize = 1; }));
  EXPECT_TRUE(differs([](auto &o) { o.backend = BackendKind::Ocloc; }));
  // What a pool's user decides is not: its jobs and limits (getPool).
  EXPECT_FALSE(differs([](auto &o) { o.jobs = 3; }));
  EXPECT_FALSE(differs([](auto &o) { o.limits.timeoutMs = 5; }));
  EXPECT_FALSE(differs([](auto &o) { o.spillThreshold = 7; }));
}
