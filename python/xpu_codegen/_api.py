"""The xpu_codegen API: compile MLIR text or SPIR-V to Intel GPU native code.

Every fact returned here comes from the same JSON report entry that the
``xpu-native-codegen`` pass writes (``report=<path>``); the native half only
adds the binaries. :attr:`Module.report_entry` is that entry, unchanged.
"""

import atexit
import hashlib
import json
import os
import re
import threading
import warnings
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple, Union

# The native half that links no MLIR: SPIR-V, zebins, devices. The MLIR half
# (_xpu_codegen_mlir, which loads libMLIR) is imported by _compile_mlir, the
# first time MLIR text is compiled.
from . import _xpu_codegen
from ._output import write_output

# Daemon threads may still be compiling at exit: let them finish (their jobs
# cancelled) before the native libraries are torn down.
atexit.register(_xpu_codegen._shutdown)

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
    "is_spirv",
    "read_zebin",
    "report",
    "valid_archs",
    "write_report",
]

#: Accepted ``grf_mode`` values: the modes, and Triton's register counts
#: (``'128'`` is small, ``'256'`` large, ``'512'`` xlarge: only where the
#: device has it, cri with IGC 2.x).
GRF_MODES = ("auto", "small", "large", "default", "xlarge", "128", "256",
             "512")
_GRF_REGISTERS = {"small": 128, "large": 256, "xlarge": 512, "128": 128,
                  "256": 256, "512": 512}
#: Accepted ``validate`` values: a SPIRV-Tools rejection is a warning, an
#: error, or not checked.
VALIDATE = ("warn", "strict", "off")
#: Default per-compile time limit (ms) and per-worker memory limit (MiB).
DEFAULT_TIMEOUT_MS = 300000
DEFAULT_MEMORY_LIMIT_MB = 8192
#: Accepted ``backend`` values.
BACKENDS = ("auto", "ocloc", "level-zero")
#: Accepted ``auto_strategy`` values.
AUTO_STRATEGIES = ("measure", "igc")

# First word of a SPIR-V module, in either byte order.
_SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")
_MAX_JOBS = 1024
_MAX_INT64 = 2**63 - 1
# Beyond these the host's limits would overflow: about 35 years, 1 EiB.
_MAX_LIMIT = 2**40
_PCI_ID = re.compile(r"0[xX][0-9a-fA-F]{1,4}")

Source = Union[str, bytes, bytearray, memoryview]


class CompileError(Exception):
    """A compilation failed.

    ``str(error)`` and :attr:`diagnostics` hold the located diagnostics
    (``file:line:col: error: ...``). :attr:`report_entries` holds the report
    entries of every module that was attempted (failed ones carry an
    ``"error"`` key), and :attr:`modules` the :class:`Module` (with its
    binary) of every module that did compile, so one bad module never loses
    the others' results.
    """

    def __init__(self, diagnostics: str, report_entries: Sequence[dict] = (),
                 modules: Sequence["Module"] = ()):
        self.diagnostics = diagnostics.rstrip() or "compilation failed"
        self.report_entries = list(report_entries)
        self.modules = tuple(modules)
        super().__init__(self.diagnostics)


class OutOfResources(CompileError):
    """A kernel needs more of a hardware resource than the device has, in
    every GRF mode the compile could use: per-thread scratch space (spills
    and private arrays over the PTSS limit) or its work-group size.

    ``resource``, ``required`` and ``limit`` are what Triton's
    ``OutOfResources`` carries (``required``/``limit`` are 0 where IGC gave
    no size, e.g. a degenerate zebin).
    """

    def __init__(self, diagnostics: str, report_entries: Sequence[dict] = (),
                 modules: Sequence["Module"] = (), *, resource: str = "",
                 required: int = 0, limit: int = 0):
        super().__init__(diagnostics, report_entries, modules)
        self.resource = resource
        self.required = required
        self.limit = limit


class CompileWarning(UserWarning):
    """A compile succeeded with warnings (e.g. a forced GRF mode spills)."""


@dataclass(frozen=True)
class Attempt:
    """One native build of a module."""

    grf_mode: str
    build_flags: str
    spill_size: int
    compile_ms: int
    cache: Optional[str] = None


@dataclass(frozen=True)
class Kernel:
    """What the kept build of a module measured for one kernel."""

    name: str
    grf_count: int
    simd: int
    spill_size: int
    private_size: int
    scratch_size: int
    n_spills: int


@dataclass(frozen=True)
class Module:
    """One compiled module: the native binary and its GRF decision.

    ``grf_mode``, ``n_regs``, ``spill_size`` and ``build_flags`` describe the
    kept build; ``n_spills`` is the largest ``n_spills`` of its kernels (the
    build flags, and so the GRF mode, apply to the whole module).
    """

    name: str
    arch: str
    binary: bytes = field(repr=False)
    grf_mode: str
    n_regs: int
    spill_size: int
    n_spills: int
    build_flags: str
    backend: str
    backend_reason: str
    compiler: str = field(repr=False)
    cache: str
    decision: str
    attempts: Tuple[Attempt, ...]
    kernels: Tuple[Kernel, ...]
    report_entry: dict = field(repr=False, compare=False)

    def write(self, path: Union[str, os.PathLike]) -> None:
        """Writes the native binary (zebin) to ``path``, atomically and
        through symlinks (a device such as /dev/null is written in place).
        """
        write_output(path, self.binary)


@dataclass(frozen=True)
class ZebinKernel:
    """What a zebin's ``.ze_info`` says about one kernel."""

    name: str
    grf_count: int
    simd: int
    scratch_size: int
    private_size: int
    spill_size: Optional[int]
    code_size: int


@dataclass(frozen=True)
class ZebinInfo:
    """The kernels of a zebin."""

    ze_info_version: str
    kernels: Tuple[ZebinKernel, ...]


@dataclass(frozen=True)
class Device:
    """What the device table knows about one device (docs/Devices.md)."""

    name: str
    family: str
    #: Registers per thread of each GRF mode the compiler builds, ascending.
    grf_modes: Tuple[int, ...]
    #: Hardware threads per vector engine in each of those modes.
    threads_per_eu: Tuple[int, ...]
    eus_per_core: int
    max_work_group_size: int
    sub_group_sizes: Tuple[int, ...]
    max_scratch_per_thread: int

    def max_work_group_size_for(self, grf_count: int, simd: int) -> int:
        """The largest work-group a kernel with ``grf_count`` registers per
        thread at SIMD width ``simd`` can launch with (0: no such mode)."""
        if grf_count not in self.grf_modes:
            return 0
        threads = self.threads_per_eu[self.grf_modes.index(grf_count)]
        return min(self.eus_per_core * threads * simd,
                   self.max_work_group_size)


def _resolve_arch(arch) -> str:
    """A device name or alias unchanged; a PCI device ID (``"0x0bd5"``, as
    Level Zero and ``lspci`` report it) as the canonical name of its
    device."""
    if not isinstance(arch, str):
        raise TypeError(f"arch must be a str, got {type(arch).__name__}")
    if not _PCI_ID.fullmatch(arch.strip()):
        return arch
    pci = int(arch.strip(), 16)
    name = _xpu_codegen.lookup_pci_id(pci)
    if name is None:
        raise CompileError(f"error: unknown Intel GPU PCI device ID "
                           f"{pci:#06x}; valid archs: "
                           f"{_xpu_codegen.valid_archs()}, or the PCI ID of "
                           "one of them")
    return name


def device(arch) -> Device:
    """The device table entry of a name, alias or PCI device ID.

    Raises :class:`CompileError` for an unknown device, with the closest
    name when one is close ("did you mean").
    """
    name = _resolve_arch(arch)
    info = _xpu_codegen.device_info(name)
    if info is None:
        raise CompileError("error: " + _xpu_codegen.describe_unknown_arch(name))
    return Device(name=info["name"], family=info["family"],
                  grf_modes=tuple(info["grf_modes"]),
                  threads_per_eu=tuple(info["threads_per_eu"]),
                  eus_per_core=info["eus_per_core"],
                  max_work_group_size=info["max_work_group_size"],
                  sub_group_sizes=tuple(info["sub_group_sizes"]),
                  max_scratch_per_thread=info["max_scratch_per_thread"])


def _module_from_entry(entry: dict, binary: bytes) -> Module:
    kernels = tuple(
        Kernel(
            name=k["name"],
            grf_count=k["grf_count"],
            simd=k["simd"],
            spill_size=k["spill_size"],
            private_size=k["private_size"],
            scratch_size=k.get("scratch_size", 0),
            n_spills=k["n_spills"],
        )
        for k in entry["kernels"]
    )
    attempts = tuple(
        Attempt(
            grf_mode=a["grf_mode"],
            build_flags=a["build_flags"],
            spill_size=a["spill_size"],
            compile_ms=a["compile_ms"],
            cache=a.get("cache"),
        )
        for a in entry["attempts"]
    )
    return Module(
        name=entry["module"],
        arch=entry["arch"],
        binary=binary,
        grf_mode=entry["grf_mode"],
        n_regs=entry["n_regs"],
        spill_size=entry["spill_size"],
        n_spills=max((k.n_spills for k in kernels), default=0),
        build_flags=entry["build_flags"],
        backend=entry["backend"],
        backend_reason=entry.get("backend_reason", ""),
        compiler=entry.get("compiler", ""),
        cache=entry.get("cache", ""),
        decision=entry.get("decision", ""),
        attempts=attempts,
        kernels=kernels,
        report_entry=entry,
    )


def _check_choice(name: str, value, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {valid}, got {value!r}")
    return value


def _check_int(name: str, value, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not 0 <= value <= maximum:
        raise ValueError(
            f"{name} must be between 0 and {maximum}, got {value}")
    return value


def _check_options(arch, grf_mode, backend, spill_threshold, cache_dir, jobs,
                   auto_strategy, flags="", timeout_ms=DEFAULT_TIMEOUT_MS,
                   memory_limit_mb=DEFAULT_MEMORY_LIMIT_MB, validate="warn",
                   max_workgroup_size=0, n_regs_default=0,
                   cache_url=None, compiler_root=None) -> dict:
    """The keyword arguments of the native compile functions."""
    arch = _resolve_arch(arch)
    compiler_root = _check_compiler_root(compiler_root)
    if cache_url is None:
        cache_url = ""
    elif not isinstance(cache_url, str):
        raise TypeError("cache_url must be a str or None, got "
                        f"{type(cache_url).__name__}")
    elif not cache_url:
        raise ValueError("cache_url must not be empty (use None for "
                         "$XPU_CODEGEN_CACHE_URL, 'none' to disable)")
    elif "\0" in cache_url:
        raise ValueError("cache_url must not contain NUL characters")
    # The URL, or $XPU_CODEGEN_CACHE_URL when None; the server is never
    # contacted here, and an unreachable one never fails a compile.
    problem = _xpu_codegen.check_cache_url(cache_url)
    if problem is not None:
        raise ValueError(problem)
    if cache_dir is None:
        cache_dir = ""
    elif isinstance(cache_dir, (str, os.PathLike)):
        cache_dir = os.fspath(cache_dir)
        if not isinstance(cache_dir, str):
            raise TypeError("cache_dir must be a str path")
        if not cache_dir:
            raise ValueError("cache_dir must not be empty (use None for the "
                             "default location, 'none' to disable)")
    else:
        raise TypeError("cache_dir must be a path or None, got "
                        f"{type(cache_dir).__name__}")
    if not isinstance(flags, str):
        raise TypeError(f"flags must be a str, got {type(flags).__name__}")
    for value, name in ((arch, "arch"), (cache_dir, "cache_dir"),
                        (flags, "flags")):
        if "\0" in value:
            raise ValueError(f"{name} must not contain NUL characters")
    grf_mode = _check_choice("grf_mode", grf_mode, GRF_MODES)
    if grf_mode in ("128", "256", "512", "xlarge"):
        registers = _GRF_REGISTERS[grf_mode]
        modes = _device_grf_modes(arch)
        if modes is not None and registers not in modes:
            raise ValueError(
                f"grf_mode={grf_mode!r}: {arch} has no {registers}-register "
                f"GRF mode with this compiler (its modes: "
                f"{', '.join(map(str, modes))})")
        # The register counts are Triton's names for the same modes.
        grf_mode = {128: "small", 256: "large", 512: "xlarge"}[registers]
    if n_regs_default not in (0, 128) or isinstance(n_regs_default, bool):
        raise ValueError(f"n_regs_default must be 0 or 128, got "
                         f"{n_regs_default!r}")
    return dict(
        arch=arch,
        grf_mode=grf_mode,
        backend=_check_choice("backend", backend, BACKENDS),
        spill_threshold=_check_int("spill_threshold", spill_threshold,
                                   _MAX_INT64),
        auto_strategy=_check_choice("auto_strategy", auto_strategy,
                                    AUTO_STRATEGIES),
        cache_dir=cache_dir,
        cache_url=cache_url,
        jobs=_check_int("jobs", jobs, _MAX_JOBS),
        flags=flags,
        timeout_ms=_check_int("timeout_ms", timeout_ms, _MAX_LIMIT),
        memory_limit_mb=_check_int("memory_limit_mb", memory_limit_mb,
                                   _MAX_LIMIT),
        validate=_check_choice("validate", validate, VALIDATE),
        max_workgroup_size=_check_int("max_workgroup_size",
                                      max_workgroup_size, _MAX_LIMIT),
        n_regs_default=n_regs_default,
        compiler_root=compiler_root,
    )


def _check_compiler_root(compiler_root) -> str:
    """The compiler root as the extension takes it: "" for None (then
    ``$XPU_CODEGEN_COMPILER_ROOT``, else the system's compiler). Whether the
    directory holds a compiler is checked where it is loaded, with a message
    naming what is missing."""
    if compiler_root is None:
        return ""
    if not isinstance(compiler_root, (str, os.PathLike)):
        raise TypeError("compiler_root must be a path or None, got "
                        f"{type(compiler_root).__name__}")
    compiler_root = os.fspath(compiler_root)
    if not isinstance(compiler_root, str):
        raise TypeError("compiler_root must be a str path")
    if not compiler_root:
        raise ValueError("compiler_root must not be empty (use None for "
                         "$XPU_CODEGEN_COMPILER_ROOT or the system's)")
    if "\0" in compiler_root:
        raise ValueError("compiler_root must not contain NUL characters")
    return compiler_root


def _device_grf_modes(arch: str):
    """The GRF modes (register counts) of ``arch``; None when unknown (the
    compile then reports the unknown arch)."""
    info = _xpu_codegen.device_info(arch)
    return None if info is None else tuple(info["grf_modes"])


def _error_for(diagnostics: str, entries: Sequence[dict],
               modules: Sequence["Module"] = ()) -> CompileError:
    """CompileError, or OutOfResources when every failed module ran out of
    resources (what an autotuner can skip); ``modules`` are the ones that
    compiled."""
    failed = [e for e in entries if "error" in e]
    resources = [e["out_of_resources"] for e in failed
                 if "out_of_resources" in e]
    if failed and len(resources) == len(failed):
        first = resources[0]
        return OutOfResources(diagnostics, entries, modules,
                              resource=first["resource"],
                              required=first["required"], limit=first["limit"])
    return CompileError(diagnostics, entries, modules)


def _modules_of(outcome: dict):
    """The modules of a native outcome and its warnings (text, or "");
    raises the CompileError of a failed one."""
    entries = [json.loads(m["entry"]) for m in outcome["modules"]]
    if not outcome["success"]:
        good = [_module_from_entry(entry, m["binary"])
                for entry, m in zip(entries, outcome["modules"])
                if m["binary"] is not None and "error" not in entry]
        raise _error_for(outcome["diagnostics"], entries, good)
    modules = [_module_from_entry(entry, m["binary"])
               for entry, m in zip(entries, outcome["modules"])]
    return modules, outcome["diagnostics"].rstrip()


def _finish(outcome: dict):
    modules, warning = _modules_of(outcome)
    if warning:
        warnings.warn(warning, CompileWarning, stacklevel=3)
    return modules


def compile(source: Source, *, arch: str = "pvc", grf_mode: str = "auto",
            backend: str = "auto", spill_threshold: int = 0,
            cache_dir: Optional[Union[str, os.PathLike]] = None, jobs: int = 0,
            auto_strategy: str = "measure", name: str = "module",
            filename: str = "<source>", flags: str = "",
            timeout_ms: int = DEFAULT_TIMEOUT_MS,
            memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
            validate: str = "warn", subgroup_size: Optional[int] = None,
            max_workgroup_size: int = 0, n_regs_default: int = 0,
            cache_url: Optional[str] = None,
            compiler_root: Optional[Union[str, os.PathLike]] = None):
    """Compiles MLIR text or SPIR-V to native code; returns a list of Module.

    ``source`` is either MLIR text (``str``: the whole
    ``xpu-codegen-pipeline`` runs, one :class:`Module` per ``gpu.module``
    after GRF splitting) or a SPIR-V binary (``bytes``, ``bytearray`` or
    ``memoryview``: native code generation only, one :class:`Module` named
    ``name``).

    Options have the meaning of the pass options of the same name:
    ``arch`` (a device name, alias or PCI device ID such as ``"0x0bd5"``),
    ``grf_mode`` (auto, small, large, xlarge, default, or Triton's ``"128"``,
    ``"256"``, ``"512"``; xlarge/512 only where the device has 512-register
    mode, cri with IGC 2.x), ``backend`` (auto, ocloc, level-zero),
    ``spill_threshold`` (bytes; ``auto`` builds large only when small spills
    more), ``cache_dir`` (None: the default location or
    ``$XPU_CODEGEN_CACHE_DIR``; ``"none"``: disabled), ``cache_url``
    (``"redis://host:port[/db]"``: a shared cache tier behind ``cache_dir``,
    see docs/Caching.md; None: ``$XPU_CODEGEN_CACHE_URL``; ``"none"``: no
    shared tier), ``jobs`` (parallel
    compiler workers, 0: one per hardware thread), ``auto_strategy``
    (measure, igc), ``flags`` (extra IGC build options), ``timeout_ms``
    (wall-clock limit per compile, 0: none), ``memory_limit_mb`` (address
    space per compiler worker, 0: none), ``validate`` (warn, strict, off:
    what a SPIRV-Tools rejection is), ``subgroup_size`` (MLIR input: the
    sub-group size every kernel requires unless it sets its own; SPIR-V is
    compiled as given), ``max_workgroup_size`` (work-items per work-group of
    kernels that declare none, e.g. Triton's num_warps x threads_per_warp),
    ``n_regs_default`` (0 or 128: ``n_regs`` when the flags do not pin the
    mode), ``compiler_root`` (an ocloc installation directory, e.g. IGC 2.x
    unpacked by ``tools/install-compiler``; None:
    ``$XPU_CODEGEN_COMPILER_ROOT``, else the system's compiler).
    ``filename`` names MLIR text in diagnostics.

    Raises :class:`CompileError` (with located diagnostics) when anything
    fails to compile, including an unknown ``arch``;
    :class:`OutOfResources` (a :class:`CompileError`) when a kernel cannot
    fit the device in any mode the compile could use; ``ValueError`` or
    ``TypeError`` for bad option values. Warnings of a successful compile
    are issued as :class:`CompileWarning`.
    """
    options = _check_options(arch, grf_mode, backend, spill_threshold,
                             cache_dir, jobs, auto_strategy, flags,
                             timeout_ms, memory_limit_mb, validate,
                             max_workgroup_size, n_regs_default, cache_url,
                             compiler_root)
    if isinstance(source, str):
        if not isinstance(filename, str):
            raise TypeError("filename must be a str")
        _check_subgroup_size(subgroup_size, options["arch"])
        if subgroup_size is not None:
            options["subgroup_size"] = subgroup_size
        text = source.encode("utf-8", errors="surrogateescape")
        outcome = _compile_mlir(text, filename, options)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        if not isinstance(name, str) or not name:
            raise ValueError("name must be a non-empty str")
        if subgroup_size is not None:
            raise ValueError("subgroup_size applies to MLIR input: SPIR-V is "
                             "compiled as given (its own OpExecutionMode "
                             "SubgroupSize, or none)")
        data = source.tobytes() if isinstance(source, memoryview) \
            else bytes(source)
        outcome = _compile_spirv([(name, data)], options)
    else:
        raise TypeError("source must be MLIR text (str) or SPIR-V (bytes, "
                        f"bytearray, memoryview), got {type(source).__name__}")
    return _finish(outcome)


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


def _check_subgroup_size(size, arch):
    if size is None:
        return
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"subgroup_size must be an int or None, got "
                        f"{type(size).__name__}")
    info = _xpu_codegen.device_info(arch)
    if size != 0 and info is not None and size not in info["sub_group_sizes"]:
        sizes = ", ".join(map(str, info["sub_group_sizes"]))
        raise ValueError(f"subgroup_size={size}: {arch} runs sub-group "
                         f"sizes {sizes} (0: none, IGC picks)")


#: A source of :func:`compile_many`: MLIR text, SPIR-V bytes, a file path, or
#: a ``(name, source)`` pair naming it.
BatchSource = Union[Source, os.PathLike, Tuple[str, Union[Source,
                                                          os.PathLike]]]


@dataclass(frozen=True)
class _BatchItem:
    name: str
    kind: str  # "spirv" or "mlir"
    payload: bytes
    filename: str


def _batch_item(index: int, source) -> _BatchItem:
    name = None
    if isinstance(source, tuple):
        if len(source) != 2 or not isinstance(source[0], str):
            raise TypeError(f"sources[{index}]: a tuple must be (name, source)")
        name, source = source
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        with open(path, "rb") as f:
            data = f.read()
        stem = os.path.splitext(os.path.basename(path))[0] or "module"
        if is_spirv(data) or path.endswith(".spv"):
            return _BatchItem(name or stem, "spirv", data, path)
        return _BatchItem(name or stem, "mlir", data, path)
    if isinstance(source, str):
        return _BatchItem(name or f"source{index}", "mlir",
                          source.encode("utf-8", errors="surrogateescape"),
                          name or "<source>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = source.tobytes() if isinstance(source, memoryview) \
            else bytes(source)
        return _BatchItem(name or f"source{index}", "spirv", data,
                          name or f"source{index}")
    raise TypeError(f"sources[{index}] must be MLIR text (str), SPIR-V "
                    f"(bytes), a path or a (name, source) pair, got "
                    f"{type(source).__name__}")


def _compile_item(item: _BatchItem, options: dict, subgroup_size):
    """One source of a batch: its modules, or the CompileError (returned)."""
    # No warnings machinery here: it is not thread-safe. The warning text
    # comes back and compile_many issues it.
    if item.kind == "spirv" and subgroup_size is not None:
        return CompileError(f"{item.name}: error: subgroup_size applies to "
                            "MLIR input: SPIR-V is compiled as given"), ""
    try:
        if item.kind == "spirv":
            outcome = _compile_spirv([(item.name, item.payload)], options)
        else:
            extra = dict(options)
            if subgroup_size is not None:
                extra["subgroup_size"] = subgroup_size
            outcome = _compile_mlir(item.payload, item.filename, extra)
        return _modules_of(outcome)
    except CompileError as error:
        return error, ""


def compile_many(sources: Sequence[BatchSource], *,
                 progress: Optional[Callable[[int, int], None]] = None,
                 **options) -> List[Union[List[Module], CompileError]]:
    """Compiles a batch of sources together; one result per source.

    Each source is MLIR text (``str``), SPIR-V (``bytes``), a file path
    (``os.PathLike``: ``.spv`` or SPIR-V magic, else MLIR) or a ``(name,
    source)`` pair. ``options`` are :func:`compile`'s (``name`` and
    ``filename`` come from the sources). Element *i* of the result is the
    list of :class:`Module` of source *i*, or the :class:`CompileError`
    (possibly :class:`OutOfResources`) it failed with: one bad source does
    not stop the others.

    The batch is compiled together: identical sources compile once
    (``report_entry["deduplicated_from"]`` names the first), the others in
    parallel (``jobs`` of them at once, 0: one per hardware thread) on one
    shared pool of compiler workers. ``progress(done, total)`` is called
    after each source. Warnings are issued as :class:`CompileWarning`, once
    per source. Bad option values raise at once (``ValueError``,
    ``TypeError``), before anything compiles.
    """
    for key in ("name", "filename"):
        if key in options:
            raise TypeError(f"compile_many takes no {key}=: each source "
                            "names itself")
    subgroup_size = options.pop("subgroup_size", None)
    checked = _check_options(**{**dict(arch="pvc", grf_mode="auto",
                                       backend="auto", spill_threshold=0,
                                       cache_dir=None, jobs=0,
                                       auto_strategy="measure"),
                                **options})
    if subgroup_size is not None:
        _check_subgroup_size(subgroup_size, checked["arch"])
    if isinstance(sources, (str, bytes, bytearray, memoryview)):
        raise TypeError("sources must be a sequence of sources")
    items = [_batch_item(i, source) for i, source in enumerate(sources)]
    if any(item.kind == "mlir" for item in items):
        # Before any SPIR-V item runs, so the whole batch shares one pool.
        _load_mlir_half()

    # Identical sources (same kind and bytes) compile once.
    first = {}
    unique = []
    for index, item in enumerate(items):
        key = (item.kind, hashlib.sha256(item.payload).digest())
        if key not in first:
            first[key] = index
            unique.append(index)
    results: List = [None] * len(items)
    copies = {i: 0 for i in unique}
    for item in items:
        copies[first[(item.kind, hashlib.sha256(item.payload).digest())]] += 1
    done = 0

    if len(unique) == 1:
        # One source (the CLI's usual call): compiled on this thread, with
        # no thread pool to import and start.
        [index] = unique
        results[index] = _compile_item(items[index], checked, subgroup_size)
        if progress is not None:
            progress(len(items), len(items))
    elif unique:
        import concurrent.futures  # imported only when a batch needs it
        workers = checked["jobs"] or os.cpu_count() or 1
        with concurrent.futures.ThreadPoolExecutor(
                max_workers=workers) as pool:
            futures = {pool.submit(_compile_item, items[i], checked,
                                   subgroup_size): i for i in unique}
            for future in concurrent.futures.as_completed(futures):
                results[futures[future]] = future.result()
                done += copies[futures[future]]
                if progress is not None:
                    progress(done, len(items))

    out: List[Union[List[Module], CompileError]] = []
    for index, item in enumerate(items):
        origin = first[(item.kind, hashlib.sha256(item.payload).digest())]
        value, warning = results[origin]
        if warning and origin == index:
            warnings.warn(warning, CompileWarning, stacklevel=2)
        if origin != index and isinstance(value, list):
            value = [_renamed(m, items[origin].name, item.name)
                     for m in value]
        out.append(value)
    return out


def _renamed(module: Module, original: str, name: str) -> Module:
    """A deduplicated SPIR-V result under its own source's name."""
    entry = dict(module.report_entry)
    if module.name == original:
        entry["module"] = name
    entry["deduplicated_from"] = original
    return _module_from_entry(entry, module.binary)


def is_spirv(data: bytes) -> bool:
    """True when ``data`` starts with the SPIR-V magic number."""
    return data[:4] in _SPIRV_MAGIC


def compile_file(path: Union[str, os.PathLike], **options):
    """Compiles a ``.mlir`` or ``.spv`` file; see :func:`compile`.

    The file is SPIR-V when it starts with the SPIR-V magic number or is
    named ``*.spv``; otherwise it is MLIR text. Diagnostics name the file,
    and a SPIR-V module is named after the file's stem.
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    if is_spirv(data) or path.endswith(".spv"):
        stem = os.path.splitext(os.path.basename(path))[0] or "module"
        options.setdefault("name", stem)
        return compile(data, **options)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CompileError(
            f"{path}: error: neither SPIR-V nor UTF-8 MLIR text "
            f"(byte {error.start} is not UTF-8)") from None
    options.setdefault("filename", path)
    return compile(text, **options)


def report(modules) -> dict:
    """The JSON report ({"version": 1, "modules": [...]}) of ``modules``.

    ``modules`` holds :class:`Module` objects or report entries (dicts, e.g.
    :attr:`CompileError.report_entries`); the result has the format of the
    ``xpu-native-codegen`` pass's ``report=<path>``.
    """
    entries = [m.report_entry if isinstance(m, Module) else m for m in modules]
    return {"version": 1, "modules": entries}


def write_report(path: Union[str, os.PathLike], modules) -> None:
    """Writes :func:`report` of ``modules`` to ``path`` as JSON, atomically
    and through symlinks (never replacing a link or a device)."""
    text = json.dumps(report(modules), indent=2) + "\n"
    write_output(path, text.encode("utf-8"))


def read_zebin(source: Union[bytes, bytearray, memoryview, str, os.PathLike]
               ) -> ZebinInfo:
    """Reads a zebin (bytes, or a path) with the project's C++ reader.

    Raises ``ValueError`` when it is not a readable zebin.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            data = f.read()
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        raise TypeError("source must be bytes or a path, got "
                        f"{type(source).__name__}")
    info = _xpu_codegen.read_zebin(data)
    if info["error"] is not None:
        raise ValueError(f"not a readable zebin: {info['error']}")
    return ZebinInfo(
        ze_info_version=info["ze_info_version"],
        kernels=tuple(ZebinKernel(**k) for k in info["kernels"]),
    )


def valid_archs() -> Tuple[str, ...]:
    """Every accepted ``arch`` name and alias."""
    return tuple(n.strip() for n in _xpu_codegen.valid_archs().split(","))
