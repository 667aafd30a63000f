"""Stand-in for the Intel backend's compiler.py (third_party/intel/backend):
XPUOptions, and XPUBackend's stage registration (add_stages), make_spv's
GRF flags and make_zebin's place. The stages before SPIR-V are stand-ins:
the source already holds the SPIR-V that Triton's make_spv would emit."""

import hashlib
from dataclasses import dataclass, fields

from ... import knobs
from ...runtime.errors import IntelGPUError


@dataclass
class XPUOptions:
    """The XPUOptions fields the stages and the cache key read."""

    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 2
    warp_size: int = 32
    grf_mode: str = "default"
    generate_native_code: bool = False
    arch: str = ""

    def __post_init__(self):
        if self.num_warps <= 0 or self.num_warps & (self.num_warps - 1):
            raise AssertionError("num_warps must be a power of 2")

    def hash(self):
        # As Triton's: every field, so any option changes the cache key.
        key = "_".join(f"{name}-{value}"
                       for name, value in self.__dict__.items())
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


class XPUBackend:
    """The Intel backend for one target (target.arch: the device's
    properties, with its PCI device_id and the parsed arch name)."""

    binary_ext = "spv"

    def __init__(self, target):
        self.target = target
        self.device_arch = target.arch.get("arch", "")
        self.own_zebin_calls = 0

    def hash(self):
        return f"SPIR-V 1.5-{sorted(self.target.arch.items())}"

    def parse_options(self, opts):
        known = {field.name for field in fields(XPUOptions)}
        return XPUOptions(**{k: v for k, v in opts.items() if k in known})

    def make_ttir(self, src, metadata, options):
        # Triton: on precise division, IGC must honour it.
        if src.precise_divide_sqrt:
            metadata["build_flags"] = "-cl-fp32-correctly-rounded-divide-sqrt"
        return src

    def make_ttgir(self, src, metadata, options):
        return src

    def make_llir(self, src, metadata, options):
        metadata["threads_per_warp"] = src.threads_per_warp
        metadata["shared"] = 0
        return src

    def make_spv(self, src, metadata, options):
        # Triton: the kernel's name, and a GRF flag for grf_mode.
        metadata["name"] = src.name
        metadata.setdefault("build_flags", "")
        grf_mode = options.grf_mode
        if grf_mode in ("256", "512") and options.num_warps > 32:
            raise RuntimeError(f"grf_mode = {grf_mode} cannot be used with "
                               f"num_warps > 32")
        if grf_mode in ("128", "256", "512"):
            metadata["build_flags"] += f" -cl-intel-{grf_mode}-GRF-per-thread"
        elif grf_mode == "auto":
            metadata["build_flags"] += " -cl-intel-enable-auto-large-GRF-mode"
        elif grf_mode != "default":
            raise RuntimeError(f"Unknown grf_mode: {grf_mode}")
        return src.spirv

    def make_zebin(self, src, metadata, options):
        # Triton's own stage runs ocloc in a subprocess; not here.
        self.own_zebin_calls += 1
        raise IntelGPUError("stand-in: Triton's own zebin stage ran")

    def add_stages(self, stages, options, language):
        stages["ttir"] = lambda src, metadata: self.make_ttir(
            src, metadata, options)
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(
            src, metadata, options)
        stages["llir"] = lambda src, metadata: self.make_llir(
            src, metadata, options)
        stages["spv"] = lambda src, metadata: self.make_spv(
            src, metadata, options)
        if options.generate_native_code:
            stages["zebin"] = lambda src, metadata: self.make_zebin(
                src, metadata, options)
        if knobs.runtime.add_stages_inspection_hook is not None:
            knobs.runtime.add_stages_inspection_hook(self, stages, options,
                                                     language, None)
