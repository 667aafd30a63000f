"""xpu_codegen: Intel GPU native code and GRF decisions from Python.

Compile MLIR text or SPIR-V to native code (zebin) with the GRF mode chosen
from spills measured by the real Intel Graphics Compiler, and get the same
facts the ``xpu-native-codegen`` pass records in the IR and its report::

    import xpu_codegen
    [module] = xpu_codegen.compile_file("kernel.spv", arch="pvc")
    print(module.grf_mode, module.n_regs, module.spill_size)

See docs/Python.md. The command line is ``python3 -m xpu_codegen``.
"""

#: The project's version: project(VERSION) in the top-level CMakeLists.txt
#: (test_triton.py checks that they agree).
__version__ = "0.1.0"

# The native half finds the compiler worker relative to itself, in the build
# tree (<build>/bin) and installed (<prefix>/bin); XPU_CODEGEN_WORKER
# overrides. See findWorkerExecutable() in the C++ library.
from ._api import (
    AUTO_STRATEGIES,
    BACKENDS,
    GRF_MODES,
    Attempt,
    CompileError,
    CompileWarning,
    DEFAULT_MEMORY_LIMIT_MB,
    DEFAULT_TIMEOUT_MS,
    Device,
    Kernel,
    Module,
    OutOfResources,
    VALIDATE,
    ZebinInfo,
    ZebinKernel,
    compile,
    compile_file,
    compile_many,
    device,
    diff,
    is_spirv,
    read_zebin,
    report,
    valid_archs,
    write_report,
)

# Public names print as xpu_codegen.X (in tracebacks and reprs).
for _cls in (Attempt, CompileError, CompileWarning, Device, Kernel, Module,
             OutOfResources, ZebinInfo, ZebinKernel):
    _cls.__module__ = __name__
del _cls

# One list of public names: the one _api keeps.
from ._api import __all__  # noqa: E402,F401
