"""Stand-in for the Intel backend's loader (driver.py's load_binary and
driver.c): what it checks of a compiled kernel before Level Zero sees it.

CompiledKernel passes ``not metadata["generate_native_code"]`` as
``is_spv``; SPIR-V is built by the driver, a native binary is loaded as
is. ``n_regs`` is parsed from the GRF flag in ``build_flags`` (512, then
256, then 128; no flag: 128), as driver.c's BuildFlags does.
"""

from ...runtime.errors import IntelGPUError

_SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")
_ELF_MAGIC = b"\x7fELF"


def n_regs_of(build_flags: str) -> int:
    for registers in (512, 256, 128):
        if f"-cl-intel-{registers}-GRF-per-thread" in build_flags:
            return registers
    return 128


def load_binary(name, kernel, shared, build_flags, is_spv, device,
                device_arch="unknown"):
    """(module, function, n_regs, n_spills, n_max_threads) as Triton's;
    raises IntelGPUError where zeModuleCreate would fail on the format."""
    if not isinstance(kernel, bytes):
        raise TypeError("load_binary: kernel must be bytes")
    magic = kernel[:4]
    if is_spv and magic not in _SPIRV_MAGIC:
        raise IntelGPUError(f"ZE_RESULT_ERROR_INVALID_NATIVE_BINARY: "
                            f"{name}: SPIR-V expected, got {magic!r}")
    if not is_spv and magic != _ELF_MAGIC:
        raise IntelGPUError(f"ZE_RESULT_ERROR_INVALID_NATIVE_BINARY: "
                            f"{name}: a native zebin expected, got {magic!r}")
    module = {"name": name, "format": "spv" if is_spv else "native"}
    return module, name, n_regs_of(build_flags), 0, 1024
