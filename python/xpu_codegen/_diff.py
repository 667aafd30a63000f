"""What changes when the compiler changes: the same inputs compiled with two
compilers, kernel by kernel (``python3 -m xpu_codegen diff``)."""

import os
import warnings
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._compile import compile_file
from ._options import OPTIONS
from ._types import CompileError, CompileWarning, Module
from ._zebin import read_zebin

Path = Union[str, os.PathLike]

#: What each side of a row holds, in the order the table prints it.
FIELDS = ("grf_mode", "grf_count", "spill_size", "simd", "threads_per_eu",
          "lanes", "private_size", "code_size", "compile_ms")

#: The fields whose change makes a row "changed" (compile time always
#: moves a little: it is shown, never a change by itself).
DECISION_FIELDS = FIELDS[:-1]

VERDICTS = ("better", "worse", "same")

_SUFFIXES = (".mlir", ".spv")


def collect_inputs(inputs: Sequence[Path]) -> List[str]:
    """The files to compare: each file given, and the ``.mlir`` and ``.spv``
    files under each directory given (recursively, in name order).
    ``OSError`` for a path that does not exist."""
    files = []
    for entry in inputs:
        path = os.fspath(entry)
        if not os.path.isdir(path):
            if not os.path.exists(path):
                raise FileNotFoundError(2, "No such file or directory", path)
            files.append(path)
            continue
        for root, dirs, names in os.walk(path):
            dirs.sort()
            files.extend(os.path.join(root, name) for name in sorted(names)
                         if name.endswith(_SUFFIXES))
    return files


def objective_key(side: Optional[dict]) -> Tuple:
    """The project's objective as a sort key (smaller is better): compiled
    before not compiled, then least spill, most lanes in flight per vector
    engine, fewest registers."""
    if side is None:
        return (1,)
    return (0, side["spill_size"], -side["lanes"], side["grf_count"])


def verdict(old: Optional[dict], new: Optional[dict]) -> str:
    """``better``, ``worse`` or ``same`` for the new side against the old."""
    a, b = objective_key(old), objective_key(new)
    return "better" if b < a else "worse" if b > a else "same"


def make_row(module: str, kernel: str, arch: str, old: Optional[dict],
             new: Optional[dict]) -> dict:
    """A row of the diff: the two sides, whether a decision or measurement
    changed, and the verdict."""
    changed = (old is None) != (new is None) or (
        old is not None and any(old[f] != new[f] for f in DECISION_FIELDS))
    return {"module": module, "kernel": kernel, "arch": arch, "old": old,
            "new": new, "changed": changed, "verdict": verdict(old, new)}


def _kernel_sides(module: Module) -> Dict[str, dict]:
    """Each kernel of ``module`` as one side of a row."""
    code_sizes = {}
    try:
        code_sizes = {k.name: k.code_size
                      for k in read_zebin(module.binary).kernels}
    except ValueError:
        pass
    compile_ms = sum(a.built_ms for a in module.attempts)
    sides = {}
    for kernel in module.kernels:
        sides[kernel.name] = {
            "grf_mode": module.grf_mode,
            "grf_count": kernel.grf_count,
            "spill_size": kernel.spill_size,
            "simd": kernel.simd,
            "threads_per_eu": kernel.threads_per_eu,
            "lanes": kernel.threads_per_eu * kernel.simd,
            "private_size": kernel.private_size,
            "code_size": code_sizes.get(kernel.binary_name or kernel.name, 0),
            "compile_ms": compile_ms,
            "compiler": module.compiler,
            "cache": module.cache,
        }
    return sides


def _compile_sides(path: str, arch: str, root: str, options: dict
                   ) -> Tuple[Dict[Tuple[str, str], dict], str]:
    """(module, kernel) -> side for ``path`` compiled with compiler ``root``,
    and the diagnostics of what failed ("" when all compiled). A compile's
    warnings (spills, launch limits) are in its numbers, not repeated."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CompileWarning)
            modules = compile_file(path, arch=arch, compiler_root=root,
                                   **options)
        error = ""
    except CompileError as failure:
        modules, error = failure.modules, failure.diagnostics
    sides = {}
    for module in modules:
        for kernel, side in _kernel_sides(module).items():
            sides[(module.name, kernel)] = side
    return sides, error


def diff(inputs: Sequence[Path], compiler_roots: Sequence[str], *,
         archs: Optional[Sequence[str]] = None,
         progress: Optional[Callable[[str], None]] = None,
         **options) -> List[dict]:
    """Compiles every input with both compilers and returns one row per
    kernel compiled (changed or not), in input order.

    ``inputs`` are ``.mlir``/``.spv`` files or directories of them;
    ``compiler_roots`` is (old, new), each a compiler root as
    :func:`compile`'s ``compiler_root`` takes it (``"system"``: the
    system's compiler). ``archs`` are the devices (default: ``pvc``); the
    other keyword options are :func:`compile`'s and apply to both sides.
    Both compiles go through the cache: a second diff builds nothing.

    Each row: ``input``, ``module`` (a SPIR-V file's stem), ``kernel``,
    ``arch``, ``old`` and ``new`` (None where that compiler did not compile
    it; else ``grf_mode``, ``grf_count``, ``spill_size``, ``simd``,
    ``threads_per_eu``, ``lanes`` (threads x SIMD: lanes in flight per
    vector engine), ``private_size``, ``code_size`` (bytes of the kernel's
    code), ``compile_ms`` (what the module's builds took when they ran),
    ``compiler`` (its identity) and ``cache`` (``hit`` when this diff built
    nothing for it)), ``changed`` (a decision or measurement differs) and
    ``verdict`` (``better``, ``worse`` or ``same``: least spill, then most
    lanes in flight, then fewest registers), plus ``old_error`` and
    ``new_error`` (a compile's diagnostics, "" when it compiled).
    """
    if len(compiler_roots) != 2:
        raise ValueError("compiler_roots must name two compilers (old, new), "
                         f"got {len(compiler_roots)}")
    for key in ("compiler_root", "arch"):
        if key in options:
            raise TypeError(f"diff() takes compiler_roots and archs, not {key}")
    archs = list(archs or [OPTIONS["arch"]["default"]])
    rows = []
    files = collect_inputs(inputs)
    for index, path in enumerate(files):
        for arch in archs:
            if progress:
                progress(f"[{index + 1}/{len(files)}] {path} ({arch})")
            old, old_error = _compile_sides(path, arch, compiler_roots[0],
                                            dict(options))
            new, new_error = _compile_sides(path, arch, compiler_roots[1],
                                            dict(options))
            keys = list(old) + [k for k in new if k not in old]
            for module, kernel in keys:
                row = make_row(module, kernel, arch, old.get((module, kernel)),
                               new.get((module, kernel)))
                rows.append({"input": path, **row, "old_error": old_error,
                             "new_error": new_error})
    return rows


def summarize(rows: Sequence[dict]) -> str:
    """"N kernels: B better, W worse, S same (C of them changed)"."""
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    changed_same = sum(r["changed"] and r["verdict"] == "same" for r in rows)
    noun = "kernel" if len(rows) == 1 else "kernels"
    return (f"{len(rows)} {noun}: {counts['better']} better, "
            f"{counts['worse']} worse, {counts['same']} same"
            f" ({changed_same} of them changed otherwise)")
