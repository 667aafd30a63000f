"""The xpu_codegen API: compile MLIR text or SPIR-V to Intel GPU native code.

Every fact returned here comes from the same JSON report entry that the
``xpu-native-codegen`` pass writes (``report=<path>``); the native half only
adds the binaries. :attr:`Module.report_entry` is that entry, unchanged.
"""

import json
import os
import warnings
from dataclasses import dataclass, field
from typing import Optional, Sequence, Tuple, Union

from . import _xpu_codegen

__all__ = [
    "Attempt",
    "CompileError",
    "CompileWarning",
    "GRF_MODES",
    "BACKENDS",
    "AUTO_STRATEGIES",
    "Kernel",
    "Module",
    "ZebinInfo",
    "ZebinKernel",
    "compile",
    "compile_file",
    "is_spirv",
    "read_zebin",
    "report",
    "valid_archs",
    "write_report",
]

#: Accepted ``grf_mode`` values.
GRF_MODES = ("auto", "small", "large", "default")
#: Accepted ``backend`` values.
BACKENDS = ("auto", "ocloc", "level-zero")
#: Accepted ``auto_strategy`` values.
AUTO_STRATEGIES = ("measure", "igc")

# First word of a SPIR-V module, in either byte order.
_SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")
_MAX_JOBS = 1024
_MAX_INT64 = 2**63 - 1

Source = Union[str, bytes, bytearray, memoryview]


class CompileError(Exception):
    """A compilation failed.

    ``str(error)`` and :attr:`diagnostics` hold the located diagnostics
    (``file:line:col: error: ...``). :attr:`report_entries` holds the report
    entries of every module that was attempted (failed ones carry an
    ``"error"`` key), so a caller can still record what did compile.
    """

    def __init__(self, diagnostics: str, report_entries: Sequence[dict] = ()):
        self.diagnostics = diagnostics.rstrip() or "compilation failed"
        self.report_entries = list(report_entries)
        super().__init__(self.diagnostics)


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
        """Writes the native binary (zebin) to ``path``."""
        with open(path, "wb") as out:
            out.write(self.binary)


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
                   auto_strategy) -> dict:
    if not isinstance(arch, str):
        raise TypeError(f"arch must be a str, got {type(arch).__name__}")
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
    for value, name in ((arch, "arch"), (cache_dir, "cache_dir")):
        if "\0" in value:
            raise ValueError(f"{name} must not contain NUL characters")
    return dict(
        arch=arch,
        grf_mode=_check_choice("grf_mode", grf_mode, GRF_MODES),
        backend=_check_choice("backend", backend, BACKENDS),
        spill_threshold=_check_int("spill_threshold", spill_threshold,
                                   _MAX_INT64),
        auto_strategy=_check_choice("auto_strategy", auto_strategy,
                                    AUTO_STRATEGIES),
        cache_dir=cache_dir,
        jobs=_check_int("jobs", jobs, _MAX_JOBS),
    )


def _finish(outcome: dict):
    entries = [json.loads(m["entry"]) for m in outcome["modules"]]
    if not outcome["success"]:
        raise CompileError(outcome["diagnostics"], entries)
    if outcome["diagnostics"]:
        warnings.warn(outcome["diagnostics"].rstrip(), CompileWarning,
                      stacklevel=3)
    return [_module_from_entry(entry, m["binary"])
            for entry, m in zip(entries, outcome["modules"])]


def compile(source: Source, *, arch: str = "pvc", grf_mode: str = "auto",
            backend: str = "auto", spill_threshold: int = 0,
            cache_dir: Optional[Union[str, os.PathLike]] = None, jobs: int = 0,
            auto_strategy: str = "measure", name: str = "module",
            filename: str = "<source>"):
    """Compiles MLIR text or SPIR-V to native code; returns a list of Module.

    ``source`` is either MLIR text (``str``: the whole
    ``xpu-codegen-pipeline`` runs, one :class:`Module` per ``gpu.module``
    after GRF splitting) or a SPIR-V binary (``bytes``, ``bytearray`` or
    ``memoryview``: native code generation only, one :class:`Module` named
    ``name``).

    Options have the meaning of the pass options of the same name:
    ``grf_mode`` (auto, small, large, default), ``backend`` (auto, ocloc,
    level-zero), ``spill_threshold`` (bytes; ``auto`` builds large only when
    small spills more), ``cache_dir`` (None: the default location or
    ``$XPU_CODEGEN_CACHE_DIR``; ``"none"``: disabled), ``jobs`` (parallel
    compiler workers, 0: one per hardware thread), ``auto_strategy``
    (measure, igc). ``filename`` names MLIR text in diagnostics.

    Raises :class:`CompileError` (with located diagnostics) when anything
    fails to compile, including an unknown ``arch``; ``ValueError`` or
    ``TypeError`` for bad option values. Warnings of a successful compile
    are issued as :class:`CompileWarning`.
    """
    options = _check_options(arch, grf_mode, backend, spill_threshold,
                             cache_dir, jobs, auto_strategy)
    if isinstance(source, str):
        if not isinstance(filename, str):
            raise TypeError("filename must be a str")
        text = source.encode("utf-8", errors="surrogateescape")
        outcome = _xpu_codegen.compile_mlir(text, filename, **options)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        if not isinstance(name, str) or not name:
            raise ValueError("name must be a non-empty str")
        data = source.tobytes() if isinstance(source, memoryview) \
            else bytes(source)
        outcome = _xpu_codegen.compile_spirv([(name, data)], **options)
    else:
        raise TypeError("source must be MLIR text (str) or SPIR-V (bytes, "
                        f"bytearray, memoryview), got {type(source).__name__}")
    return _finish(outcome)


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
    """Writes :func:`report` of ``modules`` to ``path`` as JSON, atomically."""
    path = os.fspath(path)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as out:
        json.dump(report(modules), out, indent=2)
        out.write("\n")
    os.replace(tmp, path)


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
