"""The Intel Triton backend's zebin stage, done by xpu_codegen.

Intel's Triton backend (intel/intel-xpu-backend-for-triton,
``third_party/intel/backend/compiler.py``) turns SPIR-V into a zebin in its
``make_zebin`` stage: ``ocloc`` in a subprocess, a fixed spill threshold for
the large-GRF retry, ``OutOfResources`` on a per-thread scratch overflow.
:func:`make_zebin` has that stage's signature and contract and does it with
xpu_codegen's measured GRF decision, launch limits, workers and cache;
:func:`install` puts it in place of Triton's through
``triton.knobs.runtime.add_stages_inspection_hook``::

    import xpu_codegen.triton
    xpu_codegen.triton.install()

What the stage reads: ``options.grf_mode`` (``'default'``, ``'auto'``,
``'128'``, ``'256'``, ``'512'``), ``options.num_warps``,
``metadata["build_flags"]`` (Triton's flags; the GRF flag its ``make_spv``
appended is dropped: the mode decides), ``metadata["threads_per_warp"]``,
``metadata["name"]`` and the device (``metadata["target"].arch``'s PCI
``device_id``, else the backend's ``device_arch``, or ``arch=``). What it
writes: ``metadata["build_flags"]`` (the final flags, always with the flag
of the binary's register count: ``-cl-intel-N-GRF-per-thread`` for 128, 256
and 512, which Triton's loader parses as ``n_regs``, else ``-ze-exp-register-
file-size N``, which it reads as 128), ``n_regs`` (the binary's count), ``n_spills``, ``spill_size``, ``binary_ext``
(``"zebin"``), ``generate_native_code`` (True: the loader takes the binary
as native code) and ``grf_decision`` (why).

The hook answers Triton's two calls: ``hook()`` returns ``(key, hash)``,
which Triton adds to its compile cache key and JIT specialization (see
:func:`stages_key`), and ``hook(backend, stages, options, language,
capability)`` edits ``stages``. See docs/Python.md.
"""

import functools
import hashlib
import os
import re
from pathlib import Path
from typing import Optional, Tuple

from . import _api, _xpu_codegen

__all__ = ["GRF_POLICIES", "install", "installed", "make_zebin",
           "stages_key", "uninstall"]

#: Triton's grf_mode -> (xpu_codegen grf_mode, auto_strategy).
#: 'default' is Triton's default stage: a default build, rebuilt at the
#: device's largest mode when it spills (512 on cri, else 256); here the
#: device's ladder is measured (128, 256, then 512 on cri) and a larger mode
#: is kept only when it spills strictly less and can launch. 'auto' is IGC's
#: own choice, as in Triton.
GRF_POLICIES = {
    "default": ("auto", "measure"),
    "auto": ("auto", "igc"),
    "128": ("128", "measure"),
    "256": ("256", "measure"),
    "512": ("512", "measure"),
    # The counts of Xe3/Xe3P's variable register file (ptl, cri).
    "32": ("32", "measure"),
    "64": ("64", "measure"),
    "96": ("96", "measure"),
    "160": ("160", "measure"),
    "192": ("192", "measure"),
}

# Flags that pin the register file: Triton's make_spv appends one for its
# grf_mode, which make_zebin decides instead.
_GRF_FLAG = re.compile(
    r"^-(cl|ze)-intel-(\d+-GRF-per-thread|enable-auto-large-GRF-mode)$"
    r"|^-ze-opt-(large-register-file|\d+-GRF-per-thread)$")

# IGC 2.x's flag for any register count (followed by the count).
_COUNT_FLAG = "-ze-exp-register-file-size"
# The counts Triton's loader reads from -cl-intel-N-GRF-per-thread.
_TRITON_COUNTS = (128, 256, 512)

_HOOK_MARK = "_xpu_codegen_hook"

# The compiler's identity hashes these libraries' contents (C++ worker).
_COMPILER_LIBRARIES = ("libocloc.so", "libigc.so", "libigdfcl.so")


def _option(options, name, default=None):
    if isinstance(options, dict):
        return options.get(name, default)
    return getattr(options, name, default)


def _base_flags(flags: str) -> str:
    """``flags`` without the flags that set the register count."""
    words = (flags or "").split()
    kept = []
    skip_value = False
    for word in words:
        if skip_value:
            skip_value = False
        elif word == _COUNT_FLAG:
            skip_value = True
        elif not _GRF_FLAG.match(word):
            kept.append(word)
    return " ".join(kept)


def _arch_of(metadata: dict, backend=None) -> Optional[str]:
    """The device of a Triton compile: the target's PCI device ID, else the
    backend's device_arch."""
    target = metadata.get("target")
    arch = getattr(target, "arch", None)
    if isinstance(arch, dict) and isinstance(arch.get("device_id"), int):
        return f"{arch['device_id']:#06x}"
    return getattr(backend, "device_arch", None)


def _register_flag(count: int) -> str:
    """The flag that builds ``count`` registers per thread: Triton's own
    ``-cl-intel-N-GRF-per-thread`` for the counts its loader parses (128,
    256, 512), else IGC 2.x's ``-ze-exp-register-file-size N``."""
    if count in _TRITON_COUNTS:
        return f"-cl-intel-{count}-GRF-per-thread"
    return f"-ze-exp-register-file-size {count}"


def _final_grf(module, n_regs_default: int) -> Tuple[int, str]:
    """The register count the binary runs with and the note for a count
    Triton's loader cannot read from any flag.

    The largest ``grf_count`` of the binary's kernels (the module's
    ``n_regs`` where the zebin gives none). On Xe3 and Xe3P it may be a
    count such as 64 or 160 (``auto``'s search, or IGC's default build):
    Triton's loader then reads 128 from the flags, and only
    ``metadata["n_regs"]`` carries the count.
    """
    count = max((k.grf_count for k in module.kernels), default=0)
    if not count:
        count = module.n_regs or n_regs_default or 128
    if count in _TRITON_COUNTS:
        return count, ""
    return count, (f"; {count} registers per thread, which no "
                   f"-cl-intel-N-GRF-per-thread flag names: Triton's loader "
                   f"reads n_regs 128 from the flags")


def _finish_metadata(metadata: dict, module, n_regs_default: int) -> None:
    """What Triton's loader and autotuner read back from the stage."""
    n_regs, note = _final_grf(module, n_regs_default)
    flags = _base_flags(module.build_flags)
    metadata["binary_ext"] = "zebin"
    metadata["generate_native_code"] = True
    metadata["build_flags"] = " ".join(
        f for f in (_register_flag(n_regs), flags) if f)
    metadata["n_regs"] = n_regs
    metadata["n_spills"] = module.n_spills
    metadata["spill_size"] = module.spill_size
    metadata["grf_decision"] = module.decision + note


def make_zebin(spirv: bytes, metadata: dict, options, *,
               arch: Optional[str] = None, n_regs_default: int = 128,
               **compile_options) -> bytes:
    """Triton's ``make_zebin(src, metadata, options)`` stage.

    ``arch`` overrides the device found in ``metadata``; ``n_regs_default``
    is ``n_regs`` for a binary that names no register count (128, Triton's
    convention); other keywords go to :func:`xpu_codegen.compile` (e.g.
    ``cache_dir``, ``jobs``, ``backend``, ``compiler_root``).

    Where Triton is importable, raises Triton's ``OutOfResources`` when the
    kernel fits the device in no mode (its per-thread scratch or its
    work-group, ``num_warps * threads_per_warp``) and Triton's
    ``IntelGPUError`` for other compiler failures; without Triton,
    xpu_codegen's :class:`~xpu_codegen.OutOfResources` and
    :class:`~xpu_codegen.CompileError`. ``ValueError`` for a ``grf_mode``
    the device does not have (``'512'`` anywhere but cri with IGC 2.x);
    ``TypeError`` when ``spirv`` is not bytes or ``metadata`` not a dict.
    """
    if not isinstance(spirv, (bytes, bytearray, memoryview)):
        raise TypeError("make_zebin: spirv must be bytes, got "
                        f"{type(spirv).__name__}")
    if not isinstance(metadata, dict):
        raise TypeError("make_zebin: metadata must be a dict, got "
                        f"{type(metadata).__name__}")
    grf_mode = str(_option(options, "grf_mode", "default"))
    if grf_mode not in GRF_POLICIES:
        raise ValueError(f"unknown grf_mode {grf_mode!r}; Triton's are "
                         f"{', '.join(map(repr, GRF_POLICIES))}")
    mode, strategy = GRF_POLICIES[grf_mode]
    arch = arch or _option(options, "arch") or _arch_of(metadata)
    if not arch:
        raise ValueError("make_zebin: no device: pass arch= or a metadata "
                         "target with a PCI device_id")
    threads_per_warp = metadata.get("threads_per_warp") or _option(
        options, "warp_size", 0)
    num_warps = metadata.get("num_warps") or _option(options, "num_warps", 0)
    work_group = int(num_warps or 0) * int(threads_per_warp or 0)
    try:
        [module] = _api.compile(
            bytes(spirv), arch=arch, grf_mode=mode, auto_strategy=strategy,
            flags=_base_flags(metadata.get("build_flags", "")),
            name=str(metadata.get("name") or "kernel"),
            max_workgroup_size=work_group,
            n_regs_default=n_regs_default, **compile_options)
    except _api.CompileError as error:
        triton_error = _triton_error(error)
        if triton_error is None:
            raise
        raise triton_error from error
    _finish_metadata(metadata, module, n_regs_default)
    return module.binary


def _triton_error(error: "_api.CompileError"):
    """Triton's exception for a failed compile, or None without Triton:
    ``OutOfResources(required, limit, name)`` (what its autotuner skips)
    for a kernel that fits no mode, ``IntelGPUError`` (Intel's backend) for
    the rest."""
    try:
        from triton.runtime import errors
    except ImportError:
        return None
    if isinstance(error, _api.OutOfResources):
        return errors.OutOfResources(error.required, error.limit,
                                     error.resource)
    intel_error = getattr(errors, "IntelGPUError", None)
    return None if intel_error is None else intel_error(str(error))


@functools.lru_cache(maxsize=1)
def _package_identity() -> str:
    """xpu_codegen's version and a fingerprint of this installation: the
    Python modules, the native extensions and the compiler worker."""
    from . import __version__
    package = Path(_api.__file__).resolve().parent
    files = sorted(p for p in package.iterdir() if p.suffix in (".py", ".so"))
    worker = _xpu_codegen.find_worker()
    if worker:
        files.append(Path(worker))
    return f"{__version__} {_fingerprint(files)}"


def _fingerprint(paths) -> str:
    """A hash of where the files are, their sizes and change times."""
    digest = hashlib.sha256()
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        digest.update(f"{os.path.realpath(path)}\0{stat.st_size}\0"
                      f"{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=16)
def _compiler_identity(requested: str) -> str:
    """The compiler at ``requested`` (a root as the native half resolves it,
    "" for the system's): its directory and a fingerprint of its libocloc,
    libigc and libigdfcl (cheap: no worker)."""
    compiler = _xpu_codegen.resolve_compiler(requested or "system")
    if "error" in compiler:
        # The compile reports it; the key still names the root.
        return f"{requested} (unusable)"
    libraries = set()
    for directory in compiler["library_dirs"]:
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        libraries.update(os.path.realpath(os.path.join(directory, name))
                         for name in names
                         if name.startswith(_COMPILER_LIBRARIES))
    return f"{compiler['root'] or 'system'} {_fingerprint(sorted(libraries))}"


def stages_key(*, always: bool = False, **stage_options) -> Tuple[str, str]:
    """The ``(key, hash)`` the installed hook returns to Triton's no-argument
    call: it changes with xpu_codegen's version and installation, the
    compiler the stage uses (``compiler_root``, else
    ``$XPU_CODEGEN_COMPILER_ROOT``, else the system's) and the stage
    options, so Triton's cache never mixes kernels built by this stage with
    its own or with another compiler's."""
    root = stage_options.get("compiler_root")
    # Resolved as a compile resolves it ('system', the environment's root);
    # the directory scan is cached per root.
    requested = _xpu_codegen.requested_compiler_root(
        os.fspath(root) if root is not None else "")
    options = ", ".join(f"{name}={value!r}"
                        for name, value in sorted(stage_options.items()))
    key = (f"xpu_codegen.triton(version {_package_identity()}; compiler "
           f"{_compiler_identity(requested)}; always={always}; {options})")
    return key, hashlib.sha256(key.encode("utf-8")).hexdigest()


def _chain_keys(previous, ours: Tuple[str, str]) -> Tuple[str, str]:
    """The earlier hook's (key, hash) followed by ours."""
    if not previous:
        return ours
    key, digest = previous
    combined = hashlib.sha256(f"{digest}\0{ours[1]}".encode("utf-8"))
    return f"{key}{ours[0]}", combined.hexdigest()


def _make_hook(previous, always: bool, stage_options: dict):
    """Triton's add_stages_inspection_hook, both call forms."""

    def hook(backend=None, stages=None, options=None, language=None,
             capability=None):
        ours = stages_key(always=always, **stage_options)
        if stages is None:  # hook(): Triton's cache key and specialization
            return _chain_keys(previous() if previous else None, ours)
        earlier = None
        if previous is not None:
            earlier = previous(backend, stages, options, language,
                               capability)
        if "spv" in stages and ("zebin" in stages or always):
            # The Intel backend, native code wanted: the zebin stage is ours.
            arch = stage_options.get("arch")
            rest = {k: v for k, v in stage_options.items() if k != "arch"}
            stages["zebin"] = lambda src, metadata: make_zebin(
                src, metadata, options,
                arch=arch or _arch_of(metadata, backend), **rest)
        return _chain_keys(earlier if isinstance(earlier, tuple) else None,
                           ours)

    return hook


def install(*, always: bool = False, **stage_options) -> bool:
    """Replaces Triton's zebin stage with :func:`make_zebin`.

    Registers a ``triton.knobs.runtime.add_stages_inspection_hook`` that
    chains the hook already there in both of Triton's calls: ``hook()``
    returns the earlier hook's ``(key, hash)`` combined with
    :func:`stages_key`; ``hook(backend, stages, options, language,
    capability)`` runs the earlier hook, then, for the Intel backend, puts
    :func:`make_zebin` in ``stages["zebin"]`` where Triton has a zebin stage
    (``generate_native_code``), or always with ``always=True``.
    ``stage_options`` go to every :func:`make_zebin` call. Returns False
    (and changes nothing) when Triton is not importable; installing again
    replaces the earlier installation.
    """
    try:
        from triton import knobs
    except ImportError:
        return False
    stages_key(always=always, **stage_options)  # bad options fail here
    runtime = knobs.runtime
    previous = runtime.add_stages_inspection_hook
    if getattr(previous, _HOOK_MARK, False):
        previous = previous.previous
    hook = _make_hook(previous, always, dict(stage_options))
    setattr(hook, _HOOK_MARK, True)
    hook.previous = previous
    runtime.add_stages_inspection_hook = hook
    return True


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    try:
        from triton import knobs
    except ImportError:
        return False
    return getattr(knobs.runtime.add_stages_inspection_hook, _HOOK_MARK,
                   False)


def uninstall() -> None:
    """Restores the hook that was there before :func:`install`."""
    try:
        from triton import knobs
    except ImportError:
        return
    hook = knobs.runtime.add_stages_inspection_hook
    if getattr(hook, _HOOK_MARK, False):
        knobs.runtime.add_stages_inspection_hook = hook.previous
