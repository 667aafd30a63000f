"""xpu_codegen: Intel GPU native code and GRF decisions from Python.

Compile MLIR text or SPIR-V to native code (zebin) with the GRF mode chosen
from spills measured by the real Intel Graphics Compiler, and get the same
facts the ``xpu-native-codegen`` pass records in the IR and its report::

    import xpu_codegen
    [module] = xpu_codegen.compile_file("kernel.spv", arch="pvc")
    print(module.grf_mode, module.n_regs, module.spill_size)

See docs/Python.md. The command line is ``python3 -m xpu_codegen``.
"""

import os as _os


def _locate_worker():
    """Points the native half at the compiler worker of this build.

    The worker is found relative to the library that uses it; the extension
    lives in <build>/python_packages/xpu_codegen, so name <build>/bin's
    worker explicitly unless XPU_CODEGEN_WORKER is already set.
    """
    if _os.environ.get("XPU_CODEGEN_WORKER"):
        return
    here = _os.path.dirname(_os.path.abspath(__file__))
    worker = _os.path.join(here, "..", "..", "bin", "xpu-compile-worker")
    worker = _os.path.normpath(worker)
    if _os.path.isfile(worker) and _os.access(worker, _os.X_OK):
        _os.environ["XPU_CODEGEN_WORKER"] = worker


_locate_worker()

from ._api import (  # noqa: E402
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
