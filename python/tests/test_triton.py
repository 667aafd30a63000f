"""xpu_codegen.triton: Triton's zebin stage, called as Triton calls it.

Triton is not installable here; tests/triton_standin provides
triton.knobs.runtime.add_stages_inspection_hook and
triton.runtime.errors.OutOfResources with Triton's signatures. StandInBackend
registers its stages as the Intel backend's add_stages does
(third_party/intel/backend/compiler.py) and run_stages runs them in order as
triton.compile does. The compiles are real.
"""

import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import xpu_codegen
import xpu_codegen.triton as xt
from conftest import spirv

STANDIN = Path(__file__).resolve().parent / "triton_standin"


@pytest.fixture
def triton(monkeypatch):
    """The stand-in Triton, importable for one test, hooks reset after."""
    monkeypatch.syspath_prepend(str(STANDIN))
    for name in [n for n in sys.modules if n == "triton" or
                 n.startswith("triton.")]:
        monkeypatch.delitem(sys.modules, name)
    module = importlib.import_module("triton")
    knobs = importlib.import_module("triton.knobs")
    knobs.runtime.add_stages_inspection_hook = None
    yield module
    knobs.runtime.add_stages_inspection_hook = None


@pytest.fixture
def no_triton(monkeypatch):
    """Triton not importable, as on this machine without the stand-in."""
    for name in [n for n in sys.modules if n.startswith("triton.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "triton", None)


class StandInBackend:
    """The Intel backend's stage registration, with stand-in stages."""

    device_arch = "pvc"

    def __init__(self, spirv_bytes):
        self.spirv_bytes = spirv_bytes
        self.own_zebin_calls = 0

    def make_spv(self, src, metadata, options):
        # What Triton's make_spv does to the flags: its GRF flag appended.
        metadata.setdefault("build_flags", "")
        if options.grf_mode == "128":
            metadata["build_flags"] += " -cl-intel-128-GRF-per-thread"
        elif options.grf_mode == "256":
            metadata["build_flags"] += " -cl-intel-256-GRF-per-thread"
        elif options.grf_mode == "auto":
            metadata["build_flags"] += " -cl-intel-enable-auto-large-GRF-mode"
        return self.spirv_bytes

    def make_zebin(self, src, metadata, options):
        self.own_zebin_calls += 1
        raise AssertionError("Triton's own zebin stage ran")

    def add_stages(self, stages, options, language):
        from triton import knobs
        stages["spv"] = lambda src, metadata: self.make_spv(src, metadata,
                                                           options)
        if options.generate_native_code:
            stages["zebin"] = lambda src, metadata: self.make_zebin(
                src, metadata, options)
        if knobs.runtime.add_stages_inspection_hook is not None:
            knobs.runtime.add_stages_inspection_hook(self, stages, options,
                                                     language, None)


def options(**overrides):
    """XPUOptions' fields that the stages read."""
    values = dict(grf_mode="default", num_warps=4, warp_size=32,
                  generate_native_code=True, arch="")
    values.update(overrides)
    return SimpleNamespace(**values)


def metadata(**overrides):
    """What Triton's earlier stages leave in metadata: the target (PCI
    device_id of a Max 1550), flags, name, warp size, warps."""
    values = {"target": SimpleNamespace(backend="xpu",
                                        arch={"device_id": 0x0BD5}),
              "build_flags": "-cl-fp32-correctly-rounded-divide-sqrt",
              "name": "kernel", "threads_per_warp": 32, "num_warps": 4}
    values.update(overrides)
    return values


def run_stages(backend, opts, meta):
    stages = {}
    backend.add_stages(stages, opts, language="triton")
    src = None
    for stage in stages.values():
        src = stage(src, meta)
    return stages, src


def test_install_replaces_the_zebin_stage(triton, tmp_path):
    assert not xt.installed()
    assert xt.install(cache_dir="none")
    assert xt.installed()
    backend = StandInBackend(spirv("spill_small_only"))
    meta = metadata()
    stages, zebin = run_stages(backend, options(), meta)
    assert list(stages) == ["spv", "zebin"]
    assert backend.own_zebin_calls == 0
    assert zebin[:4] == b"\x7fELF"
    # Triton's 'default' is measured: small spills 9600 bytes, large none.
    assert meta["build_flags"] == ("-cl-intel-256-GRF-per-thread "
                                   "-cl-fp32-correctly-rounded-divide-sqrt")
    assert (meta["n_regs"], meta["n_spills"], meta["spill_size"]) == (256, 0,
                                                                       0)
    assert meta["binary_ext"] == "zebin"
    assert "kept large" in meta["grf_decision"]
    info = xpu_codegen.read_zebin(zebin)
    assert [k.name for k in info.kernels] == ["spill_small_only"]


def test_triton_grf_modes(triton):
    xt.install(cache_dir="none")
    backend = StandInBackend(spirv("spill_small_only"))
    # '128': Triton's flag is replaced by the mode's; 9600 bytes spill.
    meta = metadata()
    run_stages(backend, options(grf_mode="128"), meta)
    assert meta["build_flags"] == ("-cl-intel-128-GRF-per-thread "
                                   "-cl-fp32-correctly-rounded-divide-sqrt")
    assert (meta["n_regs"], meta["spill_size"], meta["n_spills"]) == (
        128, 9600, 9600 // (4 * 32))
    # '256'.
    meta = metadata()
    run_stages(backend, options(grf_mode="256"), meta)
    assert (meta["n_regs"], meta["spill_size"]) == (256, 0)
    assert meta["build_flags"].count("GRF-per-thread") == 1
    # 'auto': IGC's own flag; its flags do not pin the mode, and n_regs
    # follows Triton's convention (128).
    meta = metadata()
    run_stages(backend, options(grf_mode="auto"), meta)
    assert meta["build_flags"].startswith(
        "-cl-intel-enable-auto-large-GRF-mode")
    assert meta["n_regs"] == 128
    # '512': no such mode on pvc with this IGC.
    with pytest.raises(ValueError, match="no 512-register GRF mode"):
        run_stages(backend, options(grf_mode="512"), metadata())


def test_work_group_limit_keeps_small_where_triton_would_fail(triton):
    # 64 warps of 16 work-items (the kernel requires SIMD16): 1024
    # work-items run in small mode only (large: 8 x 4 x 16 = 512). The
    # kernel spills in small mode, so a spill-driven retry would pick large;
    # here large is ruled out by the measured limit, not a num_warps rule.
    xt.install(cache_dir="none")
    backend = StandInBackend(spirv("simd16_small_only"))
    meta = metadata(threads_per_warp=16, num_warps=64)
    run_stages(backend, options(num_warps=64, warp_size=16), meta)
    assert meta["n_regs"] == 128
    assert meta["spill_size"] == 6272
    assert "large GRF ruled out" in meta["grf_decision"]
    # Forcing 256 cannot launch: Triton's OutOfResources, with the sizes.
    from triton.runtime.errors import OutOfResources
    with pytest.raises(OutOfResources) as info:
        run_stages(backend, options(grf_mode="256", num_warps=64,
                                    warp_size=16),
                   metadata(threads_per_warp=16, num_warps=64))
    assert (info.value.required, info.value.limit, info.value.name) == (
        1024, 512, "work-group size")
    assert isinstance(info.value.__cause__, xpu_codegen.OutOfResources)


def test_scratch_overflow_is_tritons_out_of_resources(triton):
    xt.install(cache_dir="none")
    from triton.runtime.errors import OutOfResources
    backend = StandInBackend(spirv("scratch_both"))
    with pytest.raises(OutOfResources) as info:
        run_stages(backend, options(), metadata())
    assert (info.value.required, info.value.limit) == (524288, 262144)
    assert info.value.name == "per-thread scratch space (PTSS)"
    # Where large fits, the retry keeps it.
    meta = metadata()
    run_stages(StandInBackend(spirv("scratch_small_only")), options(), meta)
    assert meta["n_regs"] == 256


def test_hook_chains_and_respects_generate_native_code(triton):
    from triton import knobs
    seen = []
    knobs.runtime.add_stages_inspection_hook = (
        lambda *args: seen.append(args[3]))
    xt.install(cache_dir="none")
    xt.install(cache_dir="none")  # again: still one hook in the chain
    backend = StandInBackend(spirv("nospill"))
    stages, result = run_stages(backend,
                                options(generate_native_code=False), {})
    assert seen == ["triton"]
    assert list(stages) == ["spv"]  # no zebin stage asked for, none added
    stages, _ = run_stages(backend, options(), metadata())
    assert seen == ["triton", "triton"]
    assert stages["zebin"] is not None
    xt.install(always=True, cache_dir="none")
    stages, zebin = run_stages(backend, options(generate_native_code=False),
                               metadata())
    assert zebin[:4] == b"\x7fELF"
    xt.uninstall()
    assert not xt.installed()
    assert knobs.runtime.add_stages_inspection_hook is not None  # the user's


def test_make_zebin_without_triton(no_triton):
    assert not xt.install()
    meta = {"build_flags": "-cl-intel-256-GRF-per-thread", "name": "k",
            "threads_per_warp": 32, "num_warps": 8}
    zebin = xt.make_zebin(spirv("spill_small_only"), meta,
                          options(grf_mode="128"), arch="pvc",
                          cache_dir="none")
    assert zebin[:4] == b"\x7fELF"
    assert meta["build_flags"] == "-cl-intel-128-GRF-per-thread"
    assert (meta["n_regs"], meta["spill_size"], meta["n_spills"]) == (
        128, 9600, 75)
    # No Triton: xpu_codegen's own OutOfResources.
    with pytest.raises(xpu_codegen.OutOfResources) as info:
        xt.make_zebin(spirv("scratch_both"), {}, options(), arch="pvc",
                      cache_dir="none")
    assert isinstance(info.value, xpu_codegen.CompileError)
    assert info.value.required == 524288
    with pytest.raises(ValueError, match="no device"):
        xt.make_zebin(spirv("nospill"), {}, options())
    with pytest.raises(ValueError, match="unknown grf_mode"):
        xt.make_zebin(spirv("nospill"), {}, options(grf_mode="huge"),
                      arch="pvc")
