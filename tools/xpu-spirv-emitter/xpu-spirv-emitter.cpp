//===- xpu-spirv-emitter.cpp - LLVM's SPIR-V backend as a worker ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Started by WorkerPool (WorkerProgram::SPIRVEmitter) and served by
// runWorkerServer: each job is one module of LLVM bitcode (translated and
// optimized by the host, lib/Target/SPIRV/SPIRVEmitter.cpp) or IR text
// (tests) that this process compiles to SPIR-V with LLVM's SPIR-V backend,
// as `llc -mtriple=<triple> -O<n> -filetype=obj` would, byte for byte.
//
// Many modules per process, safely. LLVM 22.1.8's SPIR-V backend keeps its
// module analysis in a static (SPIRVModuleAnalysis::MAI,
// llvm/llvm-project#160613; a member since PR 160956, after 22.1.8). Every
// table in it is cleared at the start of each module except
// BBNumToRegMap, which maps (MachineFunction *, block number) to the
// block's SPIR-V id. Once a module's MachineFunctions are freed, the next
// module's can be allocated at the same addresses and then inherit stale
// label ids: "Id 2 is defined more than once", or valid SPIR-V numbered
// differently than by a fresh process. That happens with a fresh
// TargetMachine and pass manager per module, sequentially, in about 2% of
// modules (docs/NativeCodegen.md, "SPIR-V emission"). The fix here: no
// MachineFunction of this process is ever freed. Every job keeps its
// context, module, target machine and pass manager (which owns the
// MachineModuleInfo and thus the MachineFunctions), and the pass pipeline
// leaves out the pass that frees each MachineFunction after printing, so
// no address can be reused and the stale entries never match. That costs
// about 1 MiB per module; the host retires an emitter after
// kSPIRVEmitterModulesPerProcess modules (a fresh process starts with a
// fresh static).
//
// Jobs run one at a time (WorkerPool sends one per process): the static is
// never shared between threads.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/WorkerServer.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <chrono>
#include <cstdlib>
#include <thread>

extern "C" {
void LLVMInitializeSPIRVTargetInfo();
void LLVMInitializeSPIRVTarget();
void LLVMInitializeSPIRVTargetMC();
void LLVMInitializeSPIRVAsmPrinter();
}

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::worker;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "xpu-spirv-emitter: " + message);
}

/// The legacy pass manager of one job, without the pass that frees each
/// MachineFunction once it is printed (see the file comment).
class RetainingPassManager final : public legacy::PassManager {
public:
  void add(Pass *pass) override {
    if (StringRef(pass->getPassName()) == "Free MachineFunction") {
      delete pass;
      return;
    }
    legacy::PassManager::add(pass);
  }
};

/// Everything a job created, kept for the life of the process (members are
/// destroyed in reverse order: pass manager first, context last).
struct RetainedJob {
  std::unique_ptr<LLVMContext> context;
  std::unique_ptr<Module> module;
  std::unique_ptr<TargetMachine> targetMachine;
  std::unique_ptr<RetainingPassManager> passManager;
};

/// Test hook: $XPU_SPIRV_EMITTER_TEST_FAULT=crash:NAME or hang:NAME makes
/// the job of a module that defines function NAME crash (abort(), as LLVM
/// does on a failed assertion; also under sanitizers, which would turn a
/// SIGSEGV into their own report) or hang, so tests can check that the host
/// names the failure and carries on.
void injectFault(const Module &module) {
  const char *env = std::getenv("XPU_SPIRV_EMITTER_TEST_FAULT");
  if (!env)
    return;
  SmallVector<StringRef> faults;
  StringRef(env).split(faults, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef fault : faults) {
    auto [kind, name] = fault.split(':');
    const Function *function = module.getFunction(name);
    if (!function || function->isDeclaration())
      continue;
    if (kind == "crash")
      std::abort();
    if (kind == "hang")
      for (;;)
        std::this_thread::sleep_for(std::chrono::hours(1));
  }
}

/// The request's "-O<n>" as a code generation level.
static Expected<CodeGenOptLevel> parseOptLevel(StringRef options) {
  StringRef level = options;
  unsigned optLevel = 0;
  if (!level.consume_front("-O") || level.getAsInteger(10, optLevel) ||
      optLevel > 3)
    return makeError("optimization level '" + options +
                     "' is not -O0, -O1, -O2 or -O3");
  return *CodeGenOpt::getLevel(int(optLevel));
}

/// Backend errors are the module's, not the process's: collected into the
/// log (the default handler would exit).
struct BackendLog {
  std::string text;
  bool failed = false;

  void collectFrom(LLVMContext &context) {
    context.setDiagnosticHandlerCallBack(
        [](const DiagnosticInfo *info, void *self) {
          auto *log = static_cast<BackendLog *>(self);
          raw_string_ostream os(log->text);
          DiagnosticPrinterRawOStream printer(os);
          os << LLVMContext::getDiagnosticMessagePrefix(info->getSeverity())
             << ": ";
          info->print(printer);
          os << "\n";
          if (info->getSeverity() == DS_Error)
            log->failed = true;
        },
        this);
  }
};

/// Reads the request's bitcode (from the host) or IR text (tests) into
/// `job.module`.
static Error readModule(const WorkerRequest &request, RetainedJob &job) {
  SMDiagnostic parseError;
  // (The IR parser wants a null-terminated buffer.)
  std::unique_ptr<MemoryBuffer> input = MemoryBuffer::getMemBufferCopy(
      StringRef(request.spirv.data(), request.spirv.size()), "module");
  job.module = parseIR(input->getMemBufferRef(), parseError, *job.context);
  if (!job.module) {
    std::string text;
    raw_string_ostream os(text);
    parseError.print("", os, /*ShowColors=*/false);
    return makeError("cannot read the module: " + StringRef(text).trim());
  }
  // SPIRVModuleAnalysis accumulates the OpenCL source extensions of every
  // module it sees (MAI.SrcExt is never cleared): a module naming some
  // would leak them into later ones. MLIR's translation never emits it.
  if (job.module->getNamedMetadata("opencl.used.extensions"))
    return makeError("modules with 'opencl.used.extensions' metadata are not "
                     "supported (LLVM 22's SPIR-V backend would carry the "
                     "extensions into later modules)");
  injectFault(*job.module);
  return Error::success();
}

/// The SPIR-V target machine for the request's triple (else the module's),
/// with the module's triple and data layout set to match.
static Error createTargetMachine(const WorkerRequest &request,
                                 CodeGenOptLevel level, RetainedJob &job) {
  Triple triple(request.device.empty() ? job.module->getTargetTriple().str()
                                       : request.device);
  std::string message;
  const Target *target = TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return makeError("no backend for '" + triple.str() + "': " + message);
  job.targetMachine.reset(target->createTargetMachine(
      triple, /*CPU=*/"", /*Features=*/"", TargetOptions(),
      /*RM=*/std::nullopt, /*CM=*/std::nullopt, level));
  if (!job.targetMachine)
    return makeError("cannot create a target machine for '" + triple.str() +
                     "'");
  job.module->setTargetTriple(triple);
  job.module->setDataLayout(job.targetMachine->createDataLayout());
  return Error::success();
}

/// Runs the backend on `job.module`; its pass manager stays in the job.
static Expected<SmallString<0>> emitObject(RetainedJob &job) {
  SmallString<0> spirv;
  raw_svector_ostream os(spirv);
  job.passManager = std::make_unique<RetainingPassManager>();
  TargetLibraryInfoImpl libraryInfo(job.targetMachine->getTargetTriple());
  job.passManager->add(new TargetLibraryInfoWrapperPass(libraryInfo));
  if (job.targetMachine->addPassesToEmitFile(*job.passManager, os,
                                             /*DwoOut=*/nullptr,
                                             CodeGenFileType::ObjectFile,
                                             /*DisableVerify=*/false))
    return makeError("LLVM's SPIR-V backend cannot emit object files");
  job.passManager->run(*job.module);
  return spirv;
}

class SPIRVEmitterService final : public WorkerService {
public:
  void setUp(uint64_t) override {
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
  }

  Expected<WorkerResponse> compile(const WorkerRequest &request) override {
    if (request.backend != WorkerBackend::LLVMSPIRV)
      return makeError("backend " + Twine(unsigned(request.backend)) +
                       " is not LLVM's SPIR-V backend (native compilers run "
                       "in xpu-compile-worker)");
    Expected<CodeGenOptLevel> codeGenLevel = parseOptLevel(request.options);
    if (!codeGenLevel)
      return codeGenLevel.takeError();

    auto start = std::chrono::steady_clock::now();
    RetainedJob job;
    job.context = std::make_unique<LLVMContext>();
    BackendLog log;
    log.collectFrom(*job.context);
    if (Error error = readModule(request, job))
      return std::move(error);
    if (Error error = createTargetMachine(request, *codeGenLevel, job))
      return std::move(error);
    Expected<SmallString<0>> spirv = emitObject(job);
    // The handler's state lives on this stack frame.
    job.context->setDiagnosticHandlerCallBack(nullptr, nullptr);
    if (!spirv)
      return spirv.takeError();

    WorkerResponse response;
    response.succeeded = !log.failed;
    response.log = std::move(log.text);
    if (!log.failed)
      response.binary.assign(spirv->begin(), spirv->end());
    response.compileMs = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    retained.push_back(std::move(job));
    return response;
  }

  Expected<std::string> getIdentity(WorkerBackend backend) override {
    if (backend != WorkerBackend::LLVMSPIRV)
      return makeError("backend " + Twine(unsigned(backend)) +
                       " is not LLVM's SPIR-V backend");
    return std::string("LLVM " LLVM_VERSION_STRING " SPIR-V backend");
  }

private:
  std::vector<RetainedJob> retained;
};

} // namespace

int main(int argc, char **argv) {
  SPIRVEmitterService service;
  return runWorkerServer(argc, argv, "xpu-spirv-emitter", service);
}
