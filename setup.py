"""`pip install .` / `pip wheel .`: the xpu_codegen package built by CMake.

The package is what the CMake build assembles in
<build>/python_packages/xpu_codegen (the Python modules and the two
extensions), plus the programs the extensions start (xpu-compile-worker,
xpu-spirv-emitter), placed beside the extensions, where the native half
looks for them first. The build directory is $XPU_CODEGEN_BUILD_DIR (an
existing build is reused, so only what changed is built) or build-pip in
the source tree; $MLIR_DIR names MLIR's CMake package (default: Debian's
LLVM 22). The wheel holds native code: it is tagged for this platform and
Python, and needs the same system libraries (Debian's LLVM/MLIR 22).
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

SRC = os.path.dirname(os.path.abspath(__file__))
PIP_BUILD = os.path.join(SRC, "build-pip")
PROGRAMS = ("xpu-compile-worker", "xpu-spirv-emitter")
TARGETS = ("XPUCodegenPython", "XPUCodegenPythonMLIR",
           "XPUCodegenPythonModules") + PROGRAMS


class CMakeBuild(build_ext):
    """Builds the package with CMake and copies it into the build tree."""

    def run(self):
        build = os.path.abspath(os.environ.get("XPU_CODEGEN_BUILD_DIR") or
                                os.path.join(PIP_BUILD, "cmake"))
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            mlir = os.environ.get("MLIR_DIR",
                                  "/usr/lib/llvm-22/lib/cmake/mlir")
            subprocess.run(["cmake", "-G", "Ninja", "-S", SRC, "-B", build,
                            f"-DMLIR_DIR={mlir}", "-DXPU_ENABLE_TESTS=OFF"],
                           check=True)
        subprocess.run(["cmake", "--build", build, "--target", *TARGETS],
                       check=True)
        package = os.path.join(build, "python_packages", "xpu_codegen")
        target = os.path.join(self.build_lib, "xpu_codegen")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target,
                        ignore=shutil.ignore_patterns("__pycache__"))
        for program in PROGRAMS:
            shutil.copy2(os.path.join(build, "bin", program), target)


class BinaryDistribution(Distribution):
    """The wheel holds native code: tagged for this platform and Python
    (and build_ext, which builds it, runs)."""

    def has_ext_modules(self):
        return True


os.makedirs(PIP_BUILD, exist_ok=True)
setup(
    distclass=BinaryDistribution,
    cmdclass={"build_ext": CMakeBuild},
    packages=[],
    py_modules=[],
    # setuptools' own files stay out of the project's build/ directory.
    options={"build": {"build_base": os.path.join(PIP_BUILD, "setuptools")},
             "egg_info": {"egg_base": PIP_BUILD}},
)
