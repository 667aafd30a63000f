"""The compile options: their accepted values and defaults, and their checks
into the keyword arguments of the native compile functions."""

import os
import textwrap
from typing import Sequence

from . import _xpu_codegen
from ._devices import _device_grf_counts, _device_grf_modes, _resolve_arch

#: The compile options, by Python name, as the native list declares them
#: (CodegenOptions.def: name, option, kind, default, role, description,
#: values).
OPTIONS = {option["name"]: option
           for option in _xpu_codegen.codegen_options()}


def _default(name: str):
    """The default of option ``name`` (its Python name)."""
    return OPTIONS[name]["default"]


def _values(name: str) -> tuple:
    """The values option ``name`` accepts, as the native list says."""
    return tuple(OPTIONS[name]["values"])


#: Accepted ``grf_mode`` values: the modes, Triton's register counts
#: (``'128'`` is small, ``'256'`` large, ``'512'`` xlarge: only where the
#: device has it, cri with IGC 2.x), and the counts of Xe3/Xe3P's variable
#: register file (``'32'`` ... ``'192'``: ptl and cri).
GRF_MODES = _values("grf_mode")
_GRF_REGISTERS = {"small": 128, "large": 256, "xlarge": 512, "128": 128,
                  "256": 256, "512": 512}
#: Accepted ``validate`` values: a SPIRV-Tools rejection is a warning, an
#: error, or not checked.
VALIDATE = _values("validate_spirv")
#: Default per-compile time limit (ms) and per-worker memory limit (MiB).
DEFAULT_TIMEOUT_MS = _default("timeout_ms")
DEFAULT_MEMORY_LIMIT_MB = _default("memory_limit_mb")
#: Accepted ``backend`` values.
BACKENDS = _values("backend")
#: Accepted ``auto_strategy`` values.
AUTO_STRATEGIES = _values("auto_strategy")


def _check_choice(name: str, value, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {valid}, got {value!r}")
    return value


def _check_int(name: str, value) -> int:
    """``value`` of integer option ``name`` within the list's bounds (its
    type's range narrowed by its check: e.g. at most 2**40 ms for
    ``timeout_ms``, where the host's limits would overflow)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    minimum, maximum = OPTIONS[name]["minimum"], OPTIONS[name]["maximum"]
    if not minimum <= value <= maximum:
        raise ValueError(
            f"{name} must be between {minimum} and {maximum}, got {value}")
    return value


def _check_listed(name: str, value):
    """``value`` of option ``name``, by the native list's check: the same
    message as every other front end gives."""
    problem = _xpu_codegen.check_option(name, value)
    if problem is not None:
        raise ValueError(problem)
    return value


#: The list's options :func:`compile`, :func:`compile_many` and the CLI's
#: ``compile`` take, by the list's Python name. The rest of the list is
#: xpu-opt's: lowering, linking and prediction knobs, and the report path
#: (Python returns the report). Everything else about them (default,
#: bounds, values, help) is the list's.
COMPILE_OPTIONS = (
    "arch", "grf_mode", "backend", "spill_threshold", "cache_dir", "jobs",
    "auto_strategy", "flags", "timeout_ms", "memory_limit_mb",
    "validate_spirv", "subgroup_size", "max_workgroup_size",
    "n_regs_default", "cache_url", "compiler_root", "link",
    "cache_password_file", "cache_tls_ca", "cache_tls_cert", "cache_tls_key",
    "cache_sign_key", "cache_trust")
#: Where compile() spells an option otherwise than the list.
_KEYWORDS = {"validate_spirv": "validate"}


def keyword(name: str) -> str:
    """compile()'s keyword for option ``name`` of the list."""
    return _KEYWORDS.get(name, name)


def compile_default(name: str):
    """compile()'s default for option ``name``: the list's, but None where
    the list's empty place or -1 means "the environment's or the device's"
    (a location's "", an unset sub-group size)."""
    option = OPTIONS[name]
    if option["role"] == "location" or option["default"] == -1:
        return None
    return option["default"]


#: compile()'s keyword arguments and their defaults, in the list's order.
COMPILE_KEYWORDS = {keyword(name): compile_default(name)
                    for name in OPTIONS if name in COMPILE_OPTIONS}


def describe_compile_options(indent: str = "    ") -> str:
    """compile()'s options as its docstring lists them: each keyword with
    its default, its bounds or values, and the list's help."""
    lines = [f"{indent}Options (from the list; default, then bounds or "
             "values):", ""]
    for name, default in COMPILE_KEYWORDS.items():
        option = OPTIONS[_native_name(name)]
        limits = ""
        if option["values"]:
            limits = f" ({', '.join(map(str, option['values']))})"
        elif option["kind"] == "integer" and option["minimum"] >= 0:
            limits = f" ({option['minimum']} to {option['maximum']})"
        lines.append(f"{indent}``{name}`` = {default!r}{limits}")
        lines += textwrap.wrap(option["description"], 76,
                               initial_indent=indent * 2,
                               subsequent_indent=indent * 2)
    return "\n".join(lines) + "\n"


def check_compile_options(options: dict, caller: str = "compile"):
    """The native keyword arguments for compile()'s ``options`` (defaults
    filled in, every value checked), and the ``subgroup_size`` (None: the
    device's)."""
    unknown = sorted(set(options) - set(COMPILE_KEYWORDS))
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument "
                        f"{unknown[0]!r}")
    given = {**COMPILE_KEYWORDS, **options}
    subgroup_size = given.pop("subgroup_size")
    if subgroup_size == OPTIONS["subgroup_size"]["default"] and \
            not isinstance(subgroup_size, bool):
        subgroup_size = None  # The list's -1: the device's, as None is.
    link = _check_link(given.pop("link"))
    checked = _check_options(given)
    if subgroup_size is not None:
        _check_subgroup_size(subgroup_size, checked["arch"])
    checked["link"] = link
    return checked, subgroup_size


def _check_options(given: dict) -> dict:
    """The keyword arguments of the native compile functions: the checks
    each option's kind and the list's bounds and values need, and those only
    Python can get wrong (a device's own register counts, paths)."""
    arch = _resolve_arch(given.pop("arch"))
    security = _check_cache_security(
        **{name: given.pop(name) for name in _SECURITY_OPTIONS})
    checked = dict(arch=arch,
                   compiler_root=_check_compiler_root(
                       given.pop("compiler_root")),
                   cache_url=_check_cache_url(given.pop("cache_url")),
                   cache_dir=_check_cache_dir(given.pop("cache_dir")),
                   **security)
    problem = _xpu_codegen.check_shared_cache(cache_url=checked["cache_url"],
                                              **security)
    if problem is not None:
        raise ValueError(problem)
    checked["grf_mode"] = _check_grf_mode(given.pop("grf_mode"), arch)
    for name, value in given.items():
        checked[_native_name(name)] = _check_by_kind(_native_name(name),
                                                     value)
    for name in ("arch", "cache_dir", "flags"):
        if "\0" in checked[name]:
            raise ValueError(f"{name} must not contain NUL characters")
    return checked


_SECURITY_OPTIONS = ("cache_password_file", "cache_tls_ca", "cache_tls_cert",
                     "cache_tls_key", "cache_sign_key", "cache_trust")


def _native_name(keyword_name: str) -> str:
    """The list's name of compile()'s keyword ``keyword_name``."""
    return next((name for name, spelled in _KEYWORDS.items()
                 if spelled == keyword_name), keyword_name)


def _check_by_kind(name: str, value):
    """``value`` of option ``name`` by its kind: an int within the list's
    bounds, a bool, one of the list's values, a str; then the list's own
    check (e.g. ``n_regs_default``'s 0 or 128)."""
    option = OPTIONS[name]
    spelled = keyword(name)
    if option["kind"] == "integer":
        if option["values"]:
            if isinstance(value, bool) or not isinstance(value, int) \
                    or value not in option["values"]:
                valid = " or ".join(map(str, option["values"]))
                raise ValueError(f"{spelled} must be {valid}, got {value!r}")
        else:
            _check_int(name, value)
    elif option["kind"] == "flag":
        if not isinstance(value, bool):
            raise TypeError(f"{spelled} must be a bool")
    elif option["kind"] == "choice":
        _check_choice(spelled, value, tuple(option["values"]))
    elif not isinstance(value, str):
        raise TypeError(f"{spelled} must be a str, got "
                        f"{type(value).__name__}")
    return _check_listed(name, value)


def _check_cache_url(cache_url) -> str:
    """The shared cache's URL as the extension takes it: "" for None."""
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
    return _check_listed("cache_url", cache_url)


def _check_cache_security(**files) -> dict:
    """The shared tier's password file, TLS files, signing key and trusted
    keys as the extension takes them: "" for None (then the
    ``$XPU_CODEGEN_CACHE_*`` variable); ``cache_trust`` is a path or a
    sequence of paths. The files are read when the cache opens."""
    checked = {}
    for name, value in files.items():
        if name == "cache_trust" and isinstance(value, (list, tuple)):
            paths = [_check_path_option(name, path, "use None for "
                                        "$XPU_CODEGEN_CACHE_TRUST")
                     for path in value]
            if not paths or any("," in path for path in paths):
                raise ValueError("cache_trust must name one or more files "
                                 "without ',' in their paths")
            value = ",".join(paths)
        checked[name] = _check_path_option(
            name, value, f"use None for $XPU_CODEGEN_{name.upper()}")
        if "\0" in checked[name]:
            raise ValueError(f"{name} must not contain NUL characters")
    return checked


def _check_path_option(name: str, value, empty_hint: str) -> str:
    """A path option as the extension takes it: "" for None, else a
    non-empty str path (``empty_hint`` says what to pass instead of "")."""
    if value is None:
        return ""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path or None, got "
                        f"{type(value).__name__}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{name} must be a str path")
    if not path:
        raise ValueError(f"{name} must not be empty ({empty_hint})")
    return path


def _check_cache_dir(cache_dir) -> str:
    """The cache directory as the extension takes it: "" for None (NUL
    characters are checked with the other strings)."""
    return _check_path_option(
        "cache_dir", cache_dir,
        "use None for the default location, 'none' to disable")


def _check_grf_mode(grf_mode, arch: str) -> str:
    """The GRF mode by its name: Triton's register counts become the modes
    they name, when ``arch`` has them."""
    grf_mode = _check_choice("grf_mode", grf_mode, GRF_MODES)
    if grf_mode in ("128", "256", "512", "xlarge"):
        registers = _GRF_REGISTERS[grf_mode]
        modes = _device_grf_modes(arch)
        if modes is not None and registers not in modes:
            raise ValueError(f"grf_mode={grf_mode!r}: " + _xpu_codegen.
                             describe_missing_register_count(arch, registers))
        # The register counts are Triton's names for the same modes.
        grf_mode = {128: "small", 256: "large", 512: "xlarge"}[registers]
    elif grf_mode.isdigit():
        counts = _device_grf_counts(arch)
        if counts is not None and int(grf_mode) not in counts:
            raise ValueError(f"grf_mode={grf_mode!r}: " + _xpu_codegen.
                             describe_missing_register_count(
                                 arch, int(grf_mode)))
    return grf_mode


def _check_compiler_root(compiler_root) -> str:
    """The compiler root as the extension takes it: "" for None (then
    ``$XPU_CODEGEN_COMPILER_ROOT``, else the system's compiler). Whether the
    directory holds a compiler is checked where it is loaded, with a message
    naming what is missing."""
    compiler_root = _check_path_option(
        "compiler_root", compiler_root,
        "use None for $XPU_CODEGEN_COMPILER_ROOT or the system's")
    if "\0" in compiler_root:
        raise ValueError("compiler_root must not contain NUL characters")
    return compiler_root


def _check_subgroup_size(size, arch):
    if size is None:
        return
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"subgroup_size must be an int or None, got "
                        f"{type(size).__name__}")
    _check_int("subgroup_size", size)
    info = _xpu_codegen.device_info(arch)
    if size != 0 and info is not None and size not in info["sub_group_sizes"]:
        raise ValueError(f"subgroup_size={size}: " + _xpu_codegen.
                         describe_unsupported_subgroup_size(arch, size))


def _check_link(link) -> bool:
    """The ``link`` option: linking modules that build alike (MLIR input)."""
    if not isinstance(link, bool):
        raise TypeError("link must be a bool")
    return link
