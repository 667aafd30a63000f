"""xpu_codegen.triton: Triton's zebin stage and hook contract, called as
Triton calls them.

Triton is not installable here; tests/triton_standin is a `triton` package
in the shapes of Triton's public source (see its README): compile()'s cache
key (with the stage hook's key) and stage loop, JITFunction.run's
specialization (with the hook's hash), the Intel backend's add_stages and
make_spv, and its loader's checks. The compiles are real (IGC).
"""

import hashlib
import importlib
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import xpu_codegen
import xpu_codegen.triton as xt
from conftest import REPO, spirv

STANDIN = Path(__file__).resolve().parent / "triton_standin"
ACC32 = REPO / "test" / "Transforms" / "GRFLadder" / "Inputs" / \
    "acc32_simd16.spv"
GRF_FLAG = re.compile(r"-cl-intel-(\d+)-GRF-per-thread")


@pytest.fixture
def triton(monkeypatch):
    """The stand-in Triton, importable for one test, hook and cache reset."""
    monkeypatch.syspath_prepend(str(STANDIN))
    for name in [n for n in sys.modules if n == "triton" or
                 n.startswith("triton.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delenv("XPU_CODEGEN_COMPILER_ROOT", raising=False)
    module = importlib.import_module("triton")
    for name in ("knobs", "compiler", "runtime.jit", "runtime.errors",
                 "backends.intel.driver"):
        importlib.import_module("triton." + name)
    module.knobs.runtime.add_stages_inspection_hook = None
    yield module
    module.knobs.runtime.add_stages_inspection_hook = None
    module.compiler.compiler.CACHE.clear()


@pytest.fixture
def no_triton(monkeypatch):
    """Triton not importable, as on this machine without the stand-in."""
    for name in [n for n in sys.modules if n.startswith("triton.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "triton", None)


def target(triton, arch="pvc", **properties):
    """What Triton's Intel driver reports: PCI device_id and parsed arch."""
    return triton.compiler.compiler.GPUTarget(
        "xpu", {"arch": arch, **properties}, 32)


PVC = {"device_id": 0x0BD5}  # a Max 1550


def source(triton, name, data=None, **fields):
    return triton.compiler.compiler.Source(
        name, spirv(name) if data is None else data, **fields)


def compile_kernel(triton, name, options=None, arch="pvc", data=None,
                   properties=PVC, **fields):
    """triton.compile of one kernel, loaded as Triton's CompiledKernel."""
    backend = triton.backends.intel.compiler.XPUBackend(
        target(triton, arch, **properties))
    kernel = triton.compiler.compile(
        source(triton, name, data, **fields), backend.target,
        {"generate_native_code": True, **(options or {})}, backend=backend)
    assert backend.own_zebin_calls == 0
    return kernel.init_handles()


def grf_flags(flags):
    return [int(n) for n in GRF_FLAG.findall(flags)]


def assert_triton_agrees(kernel):
    """Triton's loader parses the n_regs the stage reported, and it holds
    the binary's registers."""
    meta = kernel.metadata
    [registers] = grf_flags(meta["build_flags"])
    assert kernel.n_regs == registers == meta["n_regs"]
    info = xpu_codegen.read_zebin(kernel.kernel)
    counts = [k.grf_count for k in info.kernels]
    assert max(counts) <= registers
    return max(counts)


def test_install_replaces_the_zebin_stage(triton):
    assert not xt.installed()
    assert xt.install(cache_dir="none")
    assert xt.installed()
    kernel = compile_kernel(triton, "spill_small_only")
    assert list(kernel.asm) == ["ttir", "ttgir", "llir", "spv", "zebin"]
    assert kernel.kernel[:4] == b"\x7fELF"
    assert kernel.module["format"] == "native"
    meta = kernel.metadata
    assert (meta["binary_ext"], meta["generate_native_code"]) == ("zebin",
                                                                   True)
    # Triton's 'default' is measured: small spills 9600 bytes, large none.
    assert meta["build_flags"] == ("-cl-intel-256-GRF-per-thread "
                                   "-cl-fp32-correctly-rounded-divide-sqrt")
    assert (meta["n_regs"], meta["n_spills"], meta["spill_size"]) == (256, 0,
                                                                       0)
    assert "kept large" in meta["grf_decision"]
    assert assert_triton_agrees(kernel) == 256
    info = xpu_codegen.read_zebin(kernel.kernel)
    assert [k.name for k in info.kernels] == ["spill_small_only"]


def test_no_argument_call_answers_key_and_hash(triton):
    xt.install(cache_dir="none")
    hook = triton.knobs.runtime.add_stages_inspection_hook
    key, digest = hook()
    assert (key, digest) == xt.stages_key(cache_dir="none")
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert f"version {xpu_codegen.__version__} " in key
    assert "compiler system " in key and "cache_dir='none'" in key
    # The editing call answers the same, as Triton's reference plugin does.
    stages = {"spv": None, "zebin": None}
    assert hook(None, stages, SimpleNamespace(), "triton", None) == (key,
                                                                    digest)
    assert callable(stages["zebin"])


def test_version_is_the_projects():
    cmake = (REPO / "CMakeLists.txt").read_text()
    version = re.search(r"project\(XPUCodegen VERSION ([\d.]+)", cmake)[1]
    assert xpu_codegen.__version__ == version


class EarlierHook:
    """A hook in the shape of Triton's reference plugin
    (python/test/unit/plugins/custom_stages.py): hook() answers its key,
    hook(backend, stages, ...) wraps a stage."""

    def __init__(self):
        self.calls = []

    def __call__(self, backend=None, stages=None, options=None,
                 language=None, capability=None):
        if stages is None:
            self.calls.append("key")
            return "earlier-plugin;", "e" * 64
        self.calls.append(language)
        make_ttir = stages["ttir"]

        def wrapped(src, metadata):
            metadata["earlier_hook_ran"] = True
            return make_ttir(src, metadata)

        stages["ttir"] = wrapped
        return "earlier-plugin;", "e" * 64


def test_hook_chains_the_earlier_hook_in_both_forms(triton):
    earlier = EarlierHook()
    triton.knobs.runtime.add_stages_inspection_hook = earlier
    xt.install(cache_dir="none")
    xt.install(cache_dir="none")  # again: still one earlier hook
    key, digest = triton.knobs.runtime.add_stages_inspection_hook()
    ours = xt.stages_key(cache_dir="none")
    assert earlier.calls == ["key"]
    assert key == "earlier-plugin;" + ours[0]
    assert digest not in (ours[1], "e" * 64)
    kernel = compile_kernel(triton, "nospill")
    assert earlier.calls == ["key", "key", "triton"]
    assert kernel.metadata["earlier_hook_ran"]
    assert kernel.metadata["binary_ext"] == "zebin"
    xt.uninstall()
    assert not xt.installed()
    assert triton.knobs.runtime.add_stages_inspection_hook is earlier


def test_cache_key_follows_the_adapter_compiler_and_options(triton,
                                                            monkeypatch):
    cc = triton.compiler.compiler
    backend = triton.backends.intel.compiler.XPUBackend(target(triton))
    src = source(triton, "nospill")
    options = backend.parse_options({"generate_native_code": True})
    keys = {"triton": cc.cache_hash(src, backend, options)}
    xt.install(cache_dir="none")
    keys["installed"] = cc.cache_hash(src, backend, options)
    assert cc.cache_hash(src, backend, options) == keys["installed"]
    xt.install(cache_dir="none", jobs=2)
    keys["jobs"] = cc.cache_hash(src, backend, options)
    xt.install(cache_dir="none", always=True)
    keys["always"] = cc.cache_hash(src, backend, options)
    monkeypatch.setenv("XPU_CODEGEN_COMPILER_ROOT", str(REPO))
    keys["env root"] = cc.cache_hash(src, backend, options)
    assert len(set(keys.values())) == len(keys), keys
    xt.uninstall()
    assert cc.cache_hash(src, backend, options) == keys["triton"]


def test_cache_key_follows_the_compiler_root(triton, igc2_root):
    cc = triton.compiler.compiler
    xt.install(cache_dir="none")
    system = compile_kernel(triton, "nospill")
    again = compile_kernel(triton, "nospill")
    assert (again.cache_hit, again.hash) == (True, system.hash)
    xt.install(cache_dir="none", compiler_root=igc2_root)
    igc2 = compile_kernel(triton, "nospill")
    assert not igc2.cache_hit and igc2.hash != system.hash
    assert str(igc2_root) in triton.knobs.runtime.add_stages_inspection_hook(
    )[0]
    assert len(cc.CACHE) == 2


def test_compiler_identity_follows_the_libraries(tmp_path):
    # A root in the layout tools/install-compiler makes, with stand-in
    # libraries: replacing one (a compiler update in place) changes the key.
    libs = tmp_path / "usr" / "lib" / "x86_64-linux-gnu"
    libs.mkdir(parents=True)
    (libs / "libocloc.so").write_bytes(b"ocloc 1")
    (libs / "libigc.so.2").write_bytes(b"igc 1")
    (libs / "unrelated.so").write_bytes(b"x")
    xt._compiler_identity.cache_clear()
    before = xt.stages_key(compiler_root=tmp_path)
    assert f"compiler {tmp_path} " in before[0]
    (libs / "unrelated.so").write_bytes(b"xy")
    xt._compiler_identity.cache_clear()
    assert xt.stages_key(compiler_root=tmp_path) == before
    (libs / "libigc.so.2").write_bytes(b"igc 2, larger")
    xt._compiler_identity.cache_clear()
    assert xt.stages_key(compiler_root=tmp_path) != before
    xt._compiler_identity.cache_clear()


def test_system_root_is_the_systems_compiler(tmp_path, monkeypatch):
    # 'system' (as compiler_root or in $XPU_CODEGEN_COMPILER_ROOT) is the
    # system's compiler, as a compile resolves it: not a directory of that
    # name, and its libraries are fingerprinted.
    def compiler_of(key):
        return re.search(r"; compiler (.*?); always=", key[0]).group(1)
    xt._compiler_identity.cache_clear()
    monkeypatch.delenv("XPU_CODEGEN_COMPILER_ROOT", raising=False)
    plain = compiler_of(xt.stages_key(cache_dir="none"))
    assert plain.startswith("system ")
    empty = hashlib.sha256().hexdigest()[:16]
    assert plain != f"system {empty}", "no system library fingerprinted"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "system").mkdir()
    assert compiler_of(xt.stages_key(compiler_root="system")) == plain
    monkeypatch.setenv("XPU_CODEGEN_COMPILER_ROOT", "system")
    assert compiler_of(xt.stages_key(cache_dir="none")) == plain
    xt._compiler_identity.cache_clear()


def test_jit_specialization_carries_the_hook_hash(triton):
    jit = triton.runtime.jit
    fn = jit.JITFunction(source(triton, "nospill"), target(triton, **PVC))
    assert not any("custom_pipeline" in str(s) for s in fn.specialization(1))
    xt.install(cache_dir="none")
    spec = fn.specialization(1)
    _, digest = xt.stages_key(cache_dir="none")
    assert spec[-1] == f'("custom_pipeline", {digest})'
    kernel = fn.run(1, generate_native_code=True)
    assert fn.run(1, generate_native_code=True) is kernel
    assert fn.compiles == 1
    xt.install(cache_dir="none", jobs=1)  # another stage: another kernel
    assert fn.run(1, generate_native_code=True) is not kernel
    assert fn.compiles == 2


def test_native_code_where_triton_would_load_spirv(triton):
    # No adapter: Triton's SPIR-V path, which its loader builds.
    kernel = compile_kernel(triton, "nospill",
                            {"generate_native_code": False})
    assert kernel.binary_ext == "spv"
    assert kernel.module["format"] == "spv"
    # always=True adds the zebin stage; the loader must take it as native.
    xt.install(always=True, cache_dir="none")
    kernel = compile_kernel(triton, "nospill",
                            {"generate_native_code": False})
    assert list(kernel.asm)[-2:] == ["spv", "zebin"]
    assert kernel.metadata["generate_native_code"] is True
    assert (kernel.binary_ext, kernel.module["format"]) == ("zebin",
                                                            "native")
    assert_triton_agrees(kernel)


@pytest.mark.parametrize("grf_mode, name, registers", [
    ("default", "nospill", 128),
    ("default", "spill_small_only", 256),
    ("auto", "nospill", 128),
    ("auto", "spill_small_only", 256),  # IGC's own choice, read back
    ("128", "spill_small_only", 128),
    ("256", "nospill", 256),
])
def test_final_grf_flag_on_pvc(triton, grf_mode, name, registers):
    xt.install(cache_dir="none")
    kernel = compile_kernel(triton, name, {"grf_mode": grf_mode})
    flags = kernel.metadata["build_flags"]
    assert grf_flags(flags) == [registers]
    assert "auto-large-GRF" not in flags
    assert flags.endswith(" -cl-fp32-correctly-rounded-divide-sqrt")
    assert assert_triton_agrees(kernel) == registers


def test_grf_modes_on_cri_with_igc_2_40(triton, igc2_root):
    xt.install(cache_dir="none", compiler_root=igc2_root)
    acc32 = ACC32.read_bytes()
    for grf_mode in ("512", "default"):  # forced, and the ladder's top
        kernel = compile_kernel(triton, "acc32", {"grf_mode": grf_mode,
                                                  "warp_size": 16},
                                arch="cri", properties={}, data=acc32,
                                threads_per_warp=16)
        assert grf_flags(kernel.metadata["build_flags"]) == [512]
        assert assert_triton_agrees(kernel) == 512
    # IGC's auto on Xe3P picks 160 registers, which no -cl-intel flag
    # names: build_flags carry IGC 2.x's count flag, n_regs the count, and
    # Triton's loader reads 128 from the flags.
    kernel = compile_kernel(triton, "spill_both", {"grf_mode": "auto"},
                            arch="cri", properties={})
    assert_count_outside_tritons_flags(kernel, 160)
    assert "Triton's loader reads n_regs 128" in kernel.metadata[
        "grf_decision"]
    # '512' on a device without that mode: a ValueError naming its modes.
    with pytest.raises(ValueError, match="does not support xlarge GRF mode"):
        compile_kernel(triton, "nospill", {"grf_mode": "512"})


def assert_count_outside_tritons_flags(kernel, count):
    """A count no -cl-intel flag names: build_flags hold IGC 2.x's flag for
    it (once, no other GRF flag), n_regs is it, Triton's loader says 128."""
    meta = kernel.metadata
    assert grf_flags(meta["build_flags"]) == []
    assert meta["build_flags"].split().count(
        "-ze-exp-register-file-size") == 1
    assert f"-ze-exp-register-file-size {count} " in meta["build_flags"]
    assert meta["n_regs"] == count and kernel.n_regs == 128
    info = xpu_codegen.read_zebin(kernel.kernel)
    assert [k.grf_count for k in info.kernels] == [count]


def test_register_counts_on_ptl_with_igc_2_40(triton, igc2_root):
    xt.install(cache_dir="none", compiler_root=igc2_root)
    # 'default' is the measured auto: on Xe3 it searches the counts and
    # keeps 96 registers built with -ze-exp-register-file-size 96.
    kernel = compile_kernel(triton, "spill_small_only",
                            {"grf_mode": "default"}, arch="ptl",
                            properties={})
    assert_count_outside_tritons_flags(kernel, 96)
    assert "kept 96 registers" in kernel.metadata["grf_decision"]
    # Register-count flags that came in are replaced by the binary's.
    meta = {"build_flags": "-ze-exp-register-file-size 64 "
            "-cl-intel-256-GRF-per-thread -cl-fast-relaxed-math",
            "name": "k", "threads_per_warp": 16, "num_warps": 4}
    xt.make_zebin(spirv("spill_small_only"), meta,
                  SimpleNamespace(grf_mode="default", num_warps=4),
                  arch="ptl", cache_dir="none", compiler_root=igc2_root)
    assert meta["build_flags"] == ("-ze-exp-register-file-size 96 "
                                   "-cl-fast-relaxed-math")
    assert meta["n_regs"] == 96
    # IGC's default build kept at 192 registers (no flag in the build):
    # the flags name the count it landed on.
    kernel = compile_kernel(triton, "spill_both", {"grf_mode": "default"},
                            arch="ptl", properties={})
    assert_count_outside_tritons_flags(kernel, 192)
    assert "kept default (192 registers)" in kernel.metadata["grf_decision"]
    # A default build at 128 registers: Triton's flag, which its loader
    # reads as 128.
    kernel = compile_kernel(triton, "nospill", {"grf_mode": "default"},
                            arch="ptl", properties={})
    assert grf_flags(kernel.metadata["build_flags"]) == [128]
    assert "-ze-exp-register-file-size" not in kernel.metadata["build_flags"]
    assert assert_triton_agrees(kernel) == 128


def test_scratch_overflow_is_tritons_out_of_resources(triton):
    from triton.errors import TritonError
    from triton.runtime.errors import OutOfResources
    xt.install(cache_dir="none")
    with pytest.raises(OutOfResources) as info:
        compile_kernel(triton, "scratch_both")
    assert isinstance(info.value, TritonError)
    assert (info.value.required, info.value.limit) == (524288, 262144)
    assert info.value.name == "per-thread scratch space (PTSS)"
    assert isinstance(info.value.__cause__, xpu_codegen.OutOfResources)
    # Where large fits, the retry keeps it.
    kernel = compile_kernel(triton, "scratch_small_only")
    assert kernel.metadata["n_regs"] == 256


def test_compiler_failure_is_intel_gpu_error(triton):
    from triton.runtime.errors import IntelGPUError, OutOfResources
    xt.install(cache_dir="none")
    broken = spirv("nospill")[:20] + b"\xff" * 40
    with pytest.raises(IntelGPUError, match="small build failed") as info:
        compile_kernel(triton, "nospill", data=broken)
    assert not isinstance(info.value, OutOfResources)
    assert type(info.value.__cause__) is xpu_codegen.CompileError


def test_work_group_limit_keeps_small_where_triton_would_fail(triton):
    # 64 warps of 16 work-items (the kernel requires SIMD16): 1024
    # work-items run in small mode only (large: 8 x 4 x 16 = 512). The
    # kernel spills in small mode, so a spill-driven retry would pick large;
    # here large is ruled out by the measured limit, not a num_warps rule.
    xt.install(cache_dir="none")
    kernel = compile_kernel(triton, "simd16_small_only",
                            {"num_warps": 64, "warp_size": 16},
                            threads_per_warp=16)
    meta = kernel.metadata
    assert (meta["n_regs"], meta["spill_size"]) == (128, 6272)
    assert "large GRF ruled out" in meta["grf_decision"]
    assert_triton_agrees(kernel)
    # The stage called directly with 256 forced cannot launch: Triton's
    # OutOfResources, with the sizes.
    from triton.runtime.errors import OutOfResources
    options = SimpleNamespace(grf_mode="256", num_warps=64, warp_size=16)
    with pytest.raises(OutOfResources) as info:
        xt.make_zebin(spirv("simd16_small_only"),
                      {"threads_per_warp": 16, "num_warps": 64}, options,
                      arch="pvc", cache_dir="none")
    assert (info.value.required, info.value.limit, info.value.name) == (
        1024, 512, "work-group size")
    assert isinstance(info.value.__cause__, xpu_codegen.OutOfResources)


def test_hook_leaves_other_backends_alone(triton):
    xt.install(cache_dir="none")
    stages = {"ttir": None, "ptx": None, "cubin": None}
    triton.knobs.runtime.add_stages_inspection_hook(
        None, stages, SimpleNamespace(), "triton", 90)
    assert stages == {"ttir": None, "ptx": None, "cubin": None}


def options(**overrides):
    """XPUOptions' fields that the stage reads."""
    values = dict(grf_mode="default", num_warps=4, warp_size=32,
                  generate_native_code=True, arch="")
    values.update(overrides)
    return SimpleNamespace(**values)


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
    assert (meta["binary_ext"], meta["generate_native_code"]) == ("zebin",
                                                                   True)
    # No Triton: xpu_codegen's own errors.
    with pytest.raises(xpu_codegen.OutOfResources) as info:
        xt.make_zebin(spirv("scratch_both"), {}, options(), arch="pvc",
                      cache_dir="none")
    assert isinstance(info.value, xpu_codegen.CompileError)
    assert info.value.required == 524288
    with pytest.raises(xpu_codegen.CompileError):
        xt.make_zebin(spirv("nospill")[:20] + b"\xff" * 40, {}, options(),
                      arch="pvc", cache_dir="none")
    with pytest.raises(ValueError, match="no device"):
        xt.make_zebin(spirv("nospill"), {}, options())
    with pytest.raises(ValueError, match="unknown grf_mode"):
        xt.make_zebin(spirv("nospill"), {}, options(grf_mode="huge"),
                      arch="pvc")


@pytest.mark.parametrize("metadata", [None, "meta", ["name", "k"], 42])
def test_make_zebin_bad_metadata_is_a_type_error(metadata):
    # Non-dict metadata raised AttributeError ('str' has no 'get').
    with pytest.raises(TypeError, match="make_zebin: metadata must be a "
                                        "dict, got "):
        xt.make_zebin(spirv("nospill"), metadata, options(), arch="pvc")


@pytest.mark.parametrize("source", [None, "spirv", 10**9])
def test_make_zebin_bad_spirv_is_a_type_error(source):
    # bytes(10**9) would have allocated a gigabyte of zeros.
    with pytest.raises(TypeError, match="make_zebin: spirv must be bytes"):
        xt.make_zebin(source, {}, options(), arch="pvc")
