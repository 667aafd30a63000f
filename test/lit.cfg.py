# -*- Python -*-
# lit configuration for XPUCodegen.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "XPUCodegen"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "extract-block.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.xpu_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%xpu_plugin", os.path.join(config.xpu_lib_dir, "XPUCodegenPlugin.so"))
)
config.substitutions.append(("%xpu_src_root", config.xpu_src_root))
config.substitutions.append(("%xpu_obj_root", config.xpu_obj_root))
# A sanitized build (tools/ci-sanitize) loads its instrumented Python
# extension and plugin into uninstrumented programs: they get the sanitizer
# runtime preloaded ($XPU_SANITIZER_PRELOAD). Compiler workers never do (see
# WorkerPool), and the release build's worker serves them
# ($XPU_CODEGEN_WORKER, passed through below).
xpu_preload = os.environ.get("XPU_SANITIZER_PRELOAD", "")
xpu_preload_env = f"env LD_PRELOAD={xpu_preload} " if xpu_preload else ""
if xpu_preload:
    config.available_features.add("sanitizers")
config.substitutions.append(
    ("%python", xpu_preload_env + config.python_executable))
# The compiler worker a test may wrap (to count or log its starts): the one
# the environment names (the release worker under tools/ci-sanitize), else
# this build's.
config.substitutions.append(
    ("%xpu_worker", os.environ.get("XPU_CODEGEN_WORKER") or
     os.path.join(config.xpu_tools_dir, "xpu-compile-worker")))
# Real SPIR-V kernels with known spill behaviour (see their README.md).
config.substitutions.append(
    ("%native_inputs",
     os.path.join(config.xpu_src_root, "test", "Inputs", "Native"))
)
config.substitutions.append(
    ("%worker_inputs",
     os.path.join(config.xpu_src_root, "test", "Inputs", "Worker"))
)
# The Python package as the build assembles it (python/CMakeLists.txt).
xpu_python_packages = os.path.join(config.xpu_obj_root, "python_packages")
config.substitutions.append(("%xpu_python_packages", xpu_python_packages))
if os.path.isdir(os.path.join(xpu_python_packages, "xpu_codegen")):
    config.available_features.add("xpu-python")
config.substitutions.append(
    ("%spirv_to_binary",
     config.python_executable + " " + os.path.join(
         config.xpu_src_root, "test", "Transforms", "NativeCodegen", "Inputs",
         "spirv-to-binary.py"))
)

# Installing and consuming the package (test/Install, test/Build).
# (Longer names first: substitutions apply in order.)
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
# The compiler launcher (ccache) of this build, for the projects the tests
# configure; empty without one.
config.substitutions.append(
    ("%cxx_launcher", config.cxx_compiler_launcher.replace(";", " ")))
config.substitutions.append(
    ("%xpu_python_install_dir", config.xpu_python_install_dir))

llvm_config.with_system_environment(
    ["HOME", "TMPDIR", "CCACHE_DIR", "CCACHE_BASEDIR", "XPU_CODEGEN_WORKER",
     "XPU_IGC2_ROOT", "XPU_REQUIRE_COMPILERS",
     "ASAN_OPTIONS", "UBSAN_OPTIONS"])
# Tests never share the user's compile cache: those that test the cache pass
# cache-dir (or set the variable) themselves.
config.environment["XPU_CODEGEN_CACHE_DIR"] = "none"
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.xpu_tools_dir, append_path=True)

tool_dirs = [config.xpu_tools_dir, config.llvm_tools_dir]
tools = [
    "xpu-opt",
    ToolSubst("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    # Debian's stock translator, which knows no xpu dialect: what upstream's
    # runtime flow reads the pipeline's host=true output with.
    ToolSubst("%mlir_translate",
              os.path.join(config.llvm_tools_dir, "mlir-translate")),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
if xpu_preload:
    # Applied first: stock mlir-opt loading the sanitized plugin.
    config.substitutions.insert(0, (
        "%mlir_opt",
        xpu_preload_env + os.path.join(config.llvm_tools_dir, "mlir-opt")))

# Optional parts gate the tests that need them.
# Programs linked against LLVM's and MLIR's static libraries
# (cmake/XPUCodegenStaticTools.cmake).
if config.xpu_link_static_llvm.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("static-llvm")

def _find_library(name):
    for d in ["/usr/lib/x86_64-linux-gnu", "/usr/local/lib", "/usr/lib"]:
        if os.path.exists(os.path.join(d, name)):
            return True
    return False

if _find_library("libocloc.so"):
    config.available_features.add("ocloc")


# The compilers the IGC tests run on (docs/Building.md): the system's
# (Debian 12's IGC 1.0.12504, feature igc1) and IGC 2.x unpacked into a
# project-local root by tools/install-compiler (feature igc2, root
# %igc2_root; $XPU_IGC2_ROOT overrides where it is). tools/xpu-dev sets
# XPU_REQUIRE_COMPILERS so that CI fails instead of skipping them.
if _find_library("libocloc.so") and os.path.exists(
        "/usr/lib/x86_64-linux-gnu/libigc.so.1"):
    config.available_features.add("igc1")
igc2_root = os.environ.get("XPU_IGC2_ROOT") or os.path.join(
    config.xpu_src_root, ".compilers", "igc-2.40")
if os.path.exists(os.path.join(igc2_root, "usr", "lib", "x86_64-linux-gnu",
                               "libocloc.so")):
    config.available_features.add("igc2")
config.substitutions.append(("%igc2_root", igc2_root))
for required in filter(None, os.environ.get("XPU_REQUIRE_COMPILERS",
                                            "").split(",")):
    if required not in config.available_features:
        lit_config.fatal(f"XPU_REQUIRE_COMPILERS names {required}, which is "
                         f"not installed (tools/install-compiler installs "
                         f"igc2 into {igc2_root})")

# The offline Level Zero driver (lib/Compiler/LevelZero/OfflineDriver): tests
# run Level Zero code through it with ZE_ENABLE_ALT_DRIVERS=%ze_offline_driver.
# A sanitized build uses the release build's driver: the driver runs inside
# the (release) compiler worker ($XPU_SANITIZER_ZE_DRIVER, tools/ci-sanitize).
config.xpu_ze_offline_driver = os.environ.get(
    "XPU_SANITIZER_ZE_DRIVER") or os.path.join(config.xpu_lib_dir,
                                               "libze_xpu_offline.so")
config.substitutions.append(("%ze_offline_driver",
                             config.xpu_ze_offline_driver))


# A real Intel GPU behind Level Zero. Probed in a child process (zeInit loads
# GPU drivers, and loader 1.8.12 crashes on calls after a failed zeInit),
# without ZE_ENABLE_ALT_DRIVERS so the offline driver never counts, and only
# where a GPU render node exists at all.
def _has_level_zero_device():
    import glob
    import subprocess
    import sys

    if not glob.glob("/dev/dri/renderD*"):
        return False
    probe = r"""
import ctypes, sys
ze = ctypes.CDLL("libze_loader.so.1")
if ze.zeInit(1) != 0:
    sys.exit(1)
n = ctypes.c_uint32(0)
if ze.zeDriverGet(ctypes.byref(n), None) != 0 or n.value == 0:
    sys.exit(1)
drivers = (ctypes.c_void_p * n.value)()
ze.zeDriverGet(ctypes.byref(n), drivers)
for d in drivers:
    m = ctypes.c_uint32(0)
    if ze.zeDeviceGet(ctypes.c_void_p(d), ctypes.byref(m), None) == 0 and m.value:
        sys.exit(0)
sys.exit(1)
"""
    env = {k: v for k, v in os.environ.items() if k != "ZE_ENABLE_ALT_DRIVERS"}
    try:
        return subprocess.run([sys.executable, "-c", probe], env=env,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


if _has_level_zero_device():
    config.available_features.add("level-zero-device")

# The style check needs clang-format and a git checkout.
import shutil
# (A worktree's .git is a file: it is a checkout too.)
if shutil.which("clang-format") and os.path.exists(
        os.path.join(config.xpu_src_root, ".git")):
    config.available_features.add("clang-format")
