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
writes: ``metadata["build_flags"]`` (the final flags), ``n_regs``,
``n_spills``, ``spill_size``, ``binary_ext`` and ``grf_decision`` (why).
See docs/Python.md.
"""

import re
from typing import Optional

from . import _api

__all__ = ["GRF_POLICIES", "install", "installed", "make_zebin", "uninstall"]

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
}

# Flags that pin the register file: Triton's make_spv appends one for its
# grf_mode, which make_zebin decides instead.
_GRF_FLAG = re.compile(
    r"^-(cl|ze)-intel-(\d+-GRF-per-thread|enable-auto-large-GRF-mode)$"
    r"|^-ze-opt-large-register-file$")

_HOOK_MARK = "_xpu_codegen_hook"


def _option(options, name, default=None):
    if isinstance(options, dict):
        return options.get(name, default)
    return getattr(options, name, default)


def _base_flags(flags: str) -> str:
    return " ".join(f for f in (flags or "").split() if not _GRF_FLAG.match(f))


def _arch_of(metadata: dict, backend=None) -> Optional[str]:
    """The device of a Triton compile: the target's PCI device ID, else the
    backend's device_arch."""
    target = metadata.get("target")
    arch = getattr(target, "arch", None)
    if isinstance(arch, dict) and isinstance(arch.get("device_id"), int):
        return f"{arch['device_id']:#06x}"
    return getattr(backend, "device_arch", None)


def make_zebin(spirv: bytes, metadata: dict, options, *,
               arch: Optional[str] = None, n_regs_default: int = 128,
               **compile_options) -> bytes:
    """Triton's ``make_zebin(src, metadata, options)`` stage.

    ``arch`` overrides the device found in ``metadata``; ``n_regs_default``
    is ``n_regs`` for builds whose flags do not pin the mode (128, Triton's
    convention); other keywords go to :func:`xpu_codegen.compile` (e.g.
    ``cache_dir``, ``jobs``, ``backend``).

    Raises Triton's ``OutOfResources`` when Triton is importable (else
    :class:`xpu_codegen.OutOfResources`) when the kernel fits the device in
    no mode: its per-thread scratch or its work-group
    (``num_warps * threads_per_warp``); ``ValueError`` for a
    ``grf_mode`` the device does not have (``'512'`` anywhere but cri).
    """
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
    try:
        [module] = _api.compile(
            bytes(spirv), arch=arch, grf_mode=mode, auto_strategy=strategy,
            flags=_base_flags(metadata.get("build_flags", "")),
            name=str(metadata.get("name") or "kernel"),
            max_workgroup_size=int(num_warps or 0) * int(threads_per_warp or 0),
            n_regs_default=n_regs_default, **compile_options)
    except _api.OutOfResources as error:
        triton_error = _triton_out_of_resources(error)
        if triton_error is None:
            raise
        raise triton_error from error
    metadata["binary_ext"] = "zebin"
    metadata["build_flags"] = module.build_flags
    metadata["n_regs"] = module.n_regs
    metadata["n_spills"] = module.n_spills
    metadata["spill_size"] = module.spill_size
    metadata["grf_decision"] = module.decision
    return module.binary


def _triton_out_of_resources(error):
    try:
        from triton.runtime.errors import OutOfResources
    except ImportError:
        return None
    return OutOfResources(error.required, error.limit, error.resource)


def install(*, always: bool = False, **stage_options) -> bool:
    """Replaces Triton's zebin stage with :func:`make_zebin`.

    Registers a ``triton.knobs.runtime.add_stages_inspection_hook`` (chained
    after any hook already there) that, for the Intel backend, puts
    :func:`make_zebin` in ``stages["zebin"]``: where Triton has a zebin
    stage (``generate_native_code``), or always with ``always=True``.
    ``stage_options`` go to every :func:`make_zebin` call. Returns False
    (and changes nothing) when Triton is not importable; installing again
    replaces the earlier installation.
    """
    try:
        from triton import knobs
    except ImportError:
        return False
    runtime = knobs.runtime
    previous = runtime.add_stages_inspection_hook
    if getattr(previous, _HOOK_MARK, False):
        previous = previous.previous

    def hook(backend, stages, options, language, capability):
        if previous is not None:
            previous(backend, stages, options, language, capability)
        if "spv" not in stages or ("zebin" not in stages and not always):
            return  # not the Intel backend, or no native code wanted
        stages["zebin"] = lambda src, metadata: make_zebin(
            src, metadata, options,
            **{"arch": stage_options.get("arch") or _arch_of(metadata,
                                                             backend),
               **{k: v for k, v in stage_options.items() if k != "arch"}})

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
