"""The two native halves: _xpu_codegen (SPIR-V, zebins, devices: no MLIR),
loaded with the package, and _xpu_codegen_mlir (the pipeline on MLIR text,
which loads libMLIR), imported the first time MLIR text is compiled."""

import atexit
import threading

from . import _xpu_codegen

# Daemon threads may still be compiling at exit: let them finish (their jobs
# cancelled) before the native libraries are torn down.
atexit.register(_xpu_codegen._shutdown)

_mlir_half = None
_mlir_half_lock = threading.Lock()


def _load_mlir_half():
    """The MLIR half (loads libMLIR), imported on first use."""
    global _mlir_half
    with _mlir_half_lock:
        if _mlir_half is None:
            from . import _xpu_codegen_mlir
            # Registered after _xpu_codegen's hook, so it runs before it.
            atexit.register(_xpu_codegen_mlir._shutdown)
            _mlir_half = _xpu_codegen_mlir
    return _mlir_half


def _compile_spirv(inputs, options: dict) -> dict:
    """Compiles SPIR-V in the MLIR half once that is loaded: each extension
    has its own pool of compiler workers, and a process should keep one."""
    half = _mlir_half or _xpu_codegen
    return half.compile_spirv(inputs, **options)


def _compile_mlir(text: bytes, filename: str, options: dict) -> dict:
    """Runs the pipeline on MLIR text; loads the MLIR half on first use."""
    return _load_mlir_half().compile_mlir(text, filename, **options)
