"""The xpu_codegen API: compile MLIR text or SPIR-V to Intel GPU native code.

Every fact returned here comes from the same JSON report entry that the
``xpu-native-codegen`` pass writes (``report=<path>``); the native half only
adds the binaries. :attr:`Module.report_entry` is that entry, unchanged.

The API in modules by responsibility, gathered here:

* ``_types``: what it returns and raises (:class:`Module`,
  :class:`CompileError`, ...);
* ``_options``: the options' accepted values, defaults and checks;
* ``_devices``: the device table (:func:`device`, :func:`valid_archs`);
* ``_native``: the two native halves (the MLIR one imported on first use);
* ``_outcome``: report entries read into modules and errors, and
  :func:`report`/:func:`write_report`;
* ``_compile``: one source (:func:`compile`, :func:`compile_file`);
* ``_batch``: many sources together (:func:`compile_many`);
* ``_zebin``: :func:`read_zebin`.
"""

# Source and BatchSource are the type hints of compile()'s and
# compile_many()'s sources.
from ._batch import BatchSource, compile_many
from ._compile import Source, compile, compile_file, is_spirv
from ._devices import device, valid_archs
from ._diff import diff
from ._options import (AUTO_STRATEGIES, BACKENDS, DEFAULT_MEMORY_LIMIT_MB,
                       DEFAULT_TIMEOUT_MS, GRF_MODES, VALIDATE)
from ._outcome import report, write_report
from ._types import (Attempt, CompileError, CompileWarning, Device, Kernel,
                     Module, OutOfResources, ZebinInfo, ZebinKernel)
from ._zebin import read_zebin

__all__ = [
    "Attempt",
    "CompileError",
    "CompileWarning",
    "DEFAULT_MEMORY_LIMIT_MB",
    "DEFAULT_TIMEOUT_MS",
    "Device",
    "GRF_MODES",
    "OutOfResources",
    "VALIDATE",
    "BACKENDS",
    "AUTO_STRATEGIES",
    "Kernel",
    "Module",
    "ZebinInfo",
    "ZebinKernel",
    "compile",
    "compile_file",
    "compile_many",
    "device",
    "diff",
    "is_spirv",
    "read_zebin",
    "report",
    "valid_archs",
    "write_report",
]

# The functions print as xpu_codegen._api.X, where they were defined before
# the API was split into modules (the classes as xpu_codegen.X: __init__).
for _function in (compile, compile_file, compile_many, device, is_spirv,
                  read_zebin, report, valid_archs, write_report):
    _function.__module__ = __name__
del _function
