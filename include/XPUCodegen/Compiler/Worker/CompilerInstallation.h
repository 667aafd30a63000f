//===- CompilerInstallation.h - Where a compiler is installed ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A compiler is an ocloc installation: libocloc.so and the IGC it loads,
// optionally with its own C/C++ runtime and dynamic loader (Debian sid's
// IGC 2.x unpacked on an older system). Workers for such a compiler are
// started through its loader, so nothing of that runtime enters the host.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_WORKER_COMPILERINSTALLATION_H
#define XPUCODEGEN_COMPILER_WORKER_COMPILERINSTALLATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::xpu {

/// The environment variable naming the default compiler root.
inline constexpr llvm::StringLiteral kCompilerRootEnvVar =
    "XPU_CODEGEN_COMPILER_ROOT";
/// The compiler root that names the system's compiler, whatever
/// $XPU_CODEGEN_COMPILER_ROOT says (a directory of that name: "./system").
inline constexpr llvm::StringLiteral kSystemCompilerRoot = "system";

/// Set for a worker started through a wrapper (XPU_CODEGEN_WORKER naming a
/// script, `nice`, a sandbox) when the compiler brings its own loader: the
/// loader and its --library-path, through which the worker re-executes
/// itself before it loads the compiler.
inline constexpr llvm::StringLiteral kWorkerLoaderEnvVar =
    "XPU_CODEGEN_WORKER_LOADER";
inline constexpr llvm::StringLiteral kWorkerLoaderPathEnvVar =
    "XPU_CODEGEN_WORKER_LOADER_PATH";

struct CompilerInstallation {
  /// The root directory as given (absolute); empty: the system's compiler,
  /// whatever the dynamic linker finds (or $XPU_CODEGEN_OCLOC_LIBRARY).
  std::string root;
  /// libocloc.so inside the root.
  std::string oclocLibrary;
  /// The root's own ld-linux-x86-64.so.2; empty when it has none and the
  /// host's loader and C runtime serve.
  std::string loader;
  /// The root's library directories, searched before the system's.
  std::vector<std::string> libraryDirs;

  bool isSystem() const { return root.empty(); }
  /// The directories a worker started through `loader` searches, in order:
  /// the root's, then the system's (for the worker's own dependencies).
  std::string getLoaderLibraryPath() const;
  /// Where the compiler's own libraries (libocloc, IGC) are: the root's
  /// library directories, or the system's for the system's compiler.
  std::vector<std::string> getCompilerLibraryDirs() const;
  /// A short description for messages: "the system's compiler" or
  /// "the compiler in '<root>'".
  std::string describe() const;
};

/// Resolves `dir` into an installation; an empty `dir` is the system's
/// compiler. A directory that does not exist, has no libocloc.so, no IGC
/// beside it (libigc.so.*), or a loader that is not executable is an error
/// naming what is missing and where it looked.
llvm::Expected<CompilerInstallation> resolveCompilerRoot(llvm::StringRef dir);

/// The compiler a caller that names none uses: $XPU_CODEGEN_COMPILER_ROOT's,
/// else the system's (resolveCompilerRoot of getRequestedCompilerRoot("")).
llvm::Expected<CompilerInstallation> resolveDefaultCompiler();

/// `dir`, or $XPU_CODEGEN_COMPILER_ROOT when `dir` is empty; empty (the
/// system's compiler) for "system", whatever the environment says.
std::string getRequestedCompilerRoot(llvm::StringRef dir);

/// What a worker answers about its compiler: the identity (cache keys,
/// report `"compiler"`) and the device names the compiler accepts (empty
/// when it did not say, e.g. Level Zero or an identity cached by an older
/// version). On the wire: the identity, then "\ndevices: a b c".
struct CompilerIdentity {
  std::string text;
  std::vector<std::string> devices;
};
std::string formatCompilerIdentity(const CompilerIdentity &identity);
CompilerIdentity parseCompilerIdentity(llvm::StringRef reply);

/// The device names in the `-device` help of `ocloc compile --help`
/// ("<device_type> can be: tgllp, ..., pvc, ... or hexadecimal value"):
/// names only, no version or ID forms. Empty when the text has no list.
std::vector<std::string> parseOclocDeviceHelp(llvm::StringRef help);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_WORKER_COMPILERINSTALLATION_H
