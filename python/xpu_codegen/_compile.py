"""Compiling one source: MLIR text or SPIR-V, given or read from a file."""

import os
import warnings
import inspect
from typing import Union

from ._input import SOURCE_SIZE_LIMIT, read_input_file
from ._native import _compile_mlir, _compile_spirv
from ._options import (COMPILE_KEYWORDS, check_compile_options,
                       describe_compile_options)
from ._outcome import _modules_of
from ._types import CompileError, CompileWarning

# First word of a SPIR-V module, in either byte order.
_SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")

Source = Union[str, bytes, bytearray, memoryview]
Path = Union[str, os.PathLike]


def is_spirv(data: bytes) -> bool:
    """True when ``data`` starts with the SPIR-V magic number."""
    return data[:4] in _SPIRV_MAGIC


def compile(source: Source, *, name: str = "module",
            filename: str = "<source>", **options):
    """Compiles MLIR text or SPIR-V to native code; returns a list of Module.

    ``source`` is either MLIR text (``str``: the whole
    ``xpu-codegen-pipeline`` runs, one :class:`Module` per ``gpu.module``
    after GRF splitting) or a SPIR-V binary (``bytes``, ``bytearray`` or
    ``memoryview``: native code generation only, one :class:`Module` named
    ``name``).

    Options are the list's (CodegenOptions.def), with the meaning of the
    pass options of the same name; each is listed below with its default
    and its help. In Python, None stands for a location's default (the
    ``$XPU_CODEGEN_*`` variable, else the default place) and for
    ``subgroup_size``'s device default; ``grf_mode`` also takes Triton's
    ``"128"``, ``"256"`` and ``"512"`` (the modes of those sizes, where the
    device has them); ``cache_trust`` takes a path or a list of paths;
    ``subgroup_size`` applies to MLIR input (SPIR-V is compiled as given).
    ``filename`` names MLIR text in diagnostics.

    Raises :class:`CompileError` (with located diagnostics) when anything
    fails to compile, including an unknown ``arch``;
    :class:`OutOfResources` (a :class:`CompileError`) when a kernel cannot
    fit the device in any mode the compile could use; ``ValueError`` or
    ``TypeError`` for bad option values. Warnings of a successful compile
    are issued as :class:`CompileWarning`.
    """
    options, subgroup_size = check_compile_options(options)
    if isinstance(source, str):
        if not isinstance(filename, str):
            raise TypeError("filename must be a str")
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


def _finish(outcome: dict):
    """The modules of a compile's outcome; its warnings are issued to
    :func:`compile`'s caller."""
    modules, warning = _modules_of(outcome)
    if warning:
        warnings.warn(warning, CompileWarning, stacklevel=3)
    return modules


# compile()'s keyword arguments are the option list's (COMPILE_OPTIONS),
# with the list's defaults: help() and inspect show them.
compile.__signature__ = inspect.Signature(
    [inspect.Parameter("source", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                       annotation=Source),
     inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY,
                       default="module", annotation=str),
     inspect.Parameter("filename", inspect.Parameter.KEYWORD_ONLY,
                       default="<source>", annotation=str)]
    + [inspect.Parameter(keyword, inspect.Parameter.KEYWORD_ONLY,
                         default=default)
       for keyword, default in COMPILE_KEYWORDS.items()])
compile.__doc__ = compile.__doc__.rstrip(" ") + "\n" + describe_compile_options()


def compile_file(path: Union[str, os.PathLike], **options):
    """Compiles a ``.mlir`` or ``.spv`` file; see :func:`compile`.

    The file is SPIR-V when it starts with the SPIR-V magic number or is
    named ``*.spv``; otherwise it is MLIR text. Diagnostics name the file,
    and a SPIR-V module is named after the file's stem. Only a regular file
    of at most 256 MiB is read (``OSError`` otherwise, at once).
    """
    path = os.fspath(path)
    data = read_input_file(path, SOURCE_SIZE_LIMIT, "sources")
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
