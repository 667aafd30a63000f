"""Compiling a batch of sources together: identical ones once, the others in
parallel on one shared pool of compiler workers."""

import hashlib
import os
import re
import warnings
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple, Union

from ._compile import Source, is_spirv
from ._input import SOURCE_SIZE_LIMIT, read_input_file
from ._native import _compile_mlir, _compile_spirv, _load_mlir_half
from ._options import check_compile_options
from ._outcome import _module_from_entry, _modules_of
from ._types import CompileError, CompileWarning, Module
from ._xpu_codegen import fields as F

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


def _at_file(item: _BatchItem, text: str) -> str:
    """`text`'s lines about a SPIR-V file's module ("name: ...") named by
    the file instead: SPIR-V has no source locations, the path and the
    entry point (the kernel the message names) are where to look."""
    if item.kind != "spirv" or item.filename == item.name:
        return text
    return re.sub("^" + re.escape(item.name) + ": ",
                  lambda _: item.filename + ": ", text, flags=re.M)


def _batch_item(index: int, source) -> _BatchItem:
    name = None
    if isinstance(source, tuple):
        if len(source) != 2 or not isinstance(source[0], str):
            raise TypeError(f"sources[{index}]: a tuple must be (name, source)")
        name, source = source
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        data = read_input_file(path, SOURCE_SIZE_LIMIT, "sources")
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
    ``TypeError``), and so does a path that is not a readable regular file
    of at most 256 MiB (``OSError``), before anything compiles.
    """
    checked, subgroup_size = _check_batch_options(options)
    if isinstance(sources, (str, bytes, bytearray, memoryview)):
        raise TypeError("sources must be a sequence of sources")
    items = [_batch_item(i, source) for i, source in enumerate(sources)]
    if any(item.kind == "mlir" for item in items):
        # Before any SPIR-V item runs, so the whole batch shares one pool.
        _load_mlir_half()
    origins = _origins(items)
    results = _compile_unique(items, origins, checked, subgroup_size,
                              progress)

    out: List[Union[List[Module], CompileError]] = []
    for index, item in enumerate(items):
        origin = origins[index]
        value, warning = results[origin]
        if warning and origin == index:
            warnings.warn(_at_file(item, warning), CompileWarning,
                          stacklevel=2)
        if origin != index and isinstance(value, list):
            value = [_renamed(m, items[origin].name, item.name)
                     for m in value]
        out.append(value)
    return out


def _check_batch_options(options: dict):
    """:func:`compile_many`'s options checked (the native keyword arguments)
    and its ``subgroup_size``."""
    for key in ("name", "filename"):
        if key in options:
            raise TypeError(f"compile_many takes no {key}=: each source "
                            "names itself")
    return check_compile_options(options, "compile_many")


def _origins(items: Sequence[_BatchItem]) -> List[int]:
    """For each item, the index of the first item identical to it (same kind
    and bytes): identical sources compile once."""
    first = {}
    origins = []
    for index, item in enumerate(items):
        key = (item.kind, hashlib.sha256(item.payload).digest())
        origins.append(first.setdefault(key, index))
    return origins


def _compile_unique(items: Sequence[_BatchItem], origins: Sequence[int],
                    checked: dict, subgroup_size, progress) -> List:
    """The (value, warning) of each first-of-its-kind item, at its index;
    ``progress`` counts an item's copies with it."""
    unique = [index for index, origin in enumerate(origins) if origin == index]
    results: List = [None] * len(items)
    copies = {i: 0 for i in unique}
    for origin in origins:
        copies[origin] += 1
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
    return results

def _renamed(module: Module, original: str, name: str) -> Module:
    """A deduplicated SPIR-V result under its own source's name."""
    entry = dict(module.report_entry)
    if module.name == original:
        entry[F.MODULE] = name
    entry[F.DEDUPLICATED_FROM] = original
    return _module_from_entry(entry, module.binary)

