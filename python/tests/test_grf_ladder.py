"""The GRF ladder from Python: '512' / 'xlarge' where the device has it (cri
with IGC 2.40), a ValueError where it does not, and auto climbing to 512."""

from pathlib import Path
from types import SimpleNamespace

import pytest

import xpu_codegen
import xpu_codegen.triton as xt
from conftest import EXAMPLES, run_cli

ACC32 = (Path(__file__).resolve().parents[2] / "test" / "Transforms" /
         "GRFLadder" / "Inputs" / "acc32_simd16.spv").read_bytes()


def test_grf_modes_accept_512_spellings():
    assert "xlarge" in xpu_codegen.GRF_MODES
    assert "512" in xpu_codegen.GRF_MODES
    cri = xpu_codegen.device("cri")
    assert cri.grf_modes == (128, 256, 512)
    # Resident threads (compute-runtime df41b98); the released drivers'
    # work-group limit counts 1 thread at 512 registers.
    assert cri.threads_per_eu == (8, 8, 4)
    assert cri.launch_threads_per_count[cri.grf_counts.index(512)] == 1
    assert cri.max_work_group_size_for(512, 16) == 128
    for mode in ("512", "xlarge"):
        with pytest.raises(ValueError, match="arch 'pvc' does not support xlarge GRF mode"):
            xpu_codegen.compile(ACC32, arch="pvc", grf_mode=mode,
                                cache_dir="none")


def test_auto_climbs_to_512_on_cri(igc2_root, no_cache):
    # Measured by IGC 2.40: 11520 / 2624 / 0 bytes at 128 / 256 / 512.
    # auto starts from IGC's default build, which picks 256 here and
    # spills (41 slots per lane: too much to ask for at 256 again), so 512.
    [module] = xpu_codegen.compile(ACC32, arch="cri", grf_mode="auto",
                                   compiler_root=igc2_root, **no_cache)
    assert (module.grf_mode, module.n_regs, module.spill_size) == ("xlarge",
                                                                   512, 0)
    assert [(a.grf_mode, a.spill_size) for a in module.attempts] == [
        ("default", 2624), ("xlarge", 0)]
    assert module.build_flags == "-cl-intel-512-GRF-per-thread"
    assert module.kernels[0].grf_count == 512
    [forced] = xpu_codegen.compile(ACC32, arch="cri", grf_mode="512",
                                   compiler_root=igc2_root, **no_cache)
    assert (forced.grf_mode, forced.n_regs) == ("xlarge", 512)
    assert len(forced.attempts) == 1


def test_triton_512_on_cri(igc2_root):
    options = SimpleNamespace(grf_mode="512", num_warps=4, warp_size=16,
                              generate_native_code=True, arch="cri")
    meta = {"build_flags": "-cl-intel-512-GRF-per-thread", "name": "acc32",
            "threads_per_warp": 16, "num_warps": 4}
    zebin = xt.make_zebin(ACC32, meta, options, cache_dir="none",
                          compiler_root=str(igc2_root))
    assert zebin[:4] == b"\x7fELF"
    assert meta["n_regs"] == 512
    assert meta["build_flags"] == "-cl-intel-512-GRF-per-thread"
    # Triton's 'default' is the measured auto: it climbs to 512 here.
    options.grf_mode = "default"
    meta = {"build_flags": "", "name": "acc32", "threads_per_warp": 16,
            "num_warps": 4}
    xt.make_zebin(ACC32, meta, options, cache_dir="none",
                  compiler_root=str(igc2_root))
    assert meta["n_regs"] == 512
    assert "kept 512 registers" in meta["grf_decision"]


def test_threads_per_engine_on_ptl(igc2_root, no_cache):
    # Xe3's variable register file (IGC 2.40): auto keeps IGC's default
    # build, 64 registers for acc4 and 160 for acc16; compute-runtime's
    # table gives 10 and 6 threads per engine there.
    expected = {"acc4": (64, 10), "acc16": (160, 6)}
    for name in ("accumulate_no_spill", "accumulate_spill_small_only"):
        [module] = xpu_codegen.compile_file(
            EXAMPLES / f"{name}.mlir", arch="ptl", compiler_root=igc2_root,
            **no_cache)
        [kernel] = module.kernels
        count, threads = expected[kernel.name]
        assert (module.n_regs, kernel.grf_count) == (count, count)
        assert kernel.threads_per_eu == module.threads_per_eu == threads
        assert module.report_entry["kernels"][0]["threads_per_eu"] == threads


def test_cli_threads_column_on_ptl(igc2_root, tmp_path):
    result = run_cli("compile", EXAMPLES / "accumulate_spill_small_only.mlir",
                     "--arch", "ptl", "--compiler-root", igc2_root,
                     "--cache-dir", "none", "-o", tmp_path)
    assert result.returncode == 0, result.stderr
    header, row = (line.split() for line in result.stdout.splitlines()[:2])
    assert header[5:8] == ["grf_count", "threads", "simd"]
    assert row[:8] == ["spill_small_only", "acc16", "ptl", "default", "160",
                       "160", "6", "16"]


def test_register_counts_as_grf_modes_on_ptl(igc2_root, no_cache, tmp_path):
    # grf_mode='160' forces one count of Xe3's variable register file,
    # built by IGC 2.40 with -ze-exp-register-file-size 160 (6 threads).
    assert {"32", "64", "96", "160", "192"} <= set(xpu_codegen.GRF_MODES)
    source = EXAMPLES / "accumulate_spill_small_only.mlir"
    [module] = xpu_codegen.compile_file(source, arch="ptl", grf_mode="160",
                                        compiler_root=igc2_root, **no_cache)
    [kernel] = module.kernels
    assert (module.grf_mode, module.n_regs, kernel.grf_count) == ("160", 160,
                                                                  160)
    assert module.build_flags == "-ze-exp-register-file-size 160"
    assert kernel.threads_per_eu == 6
    assert [a.grf_mode for a in module.attempts] == ["160"]
    # The CLI takes the same spellings.
    result = run_cli("compile", source, "--arch", "ptl", "--grf-mode", "96",
                     "--compiler-root", igc2_root, "--cache-dir", "none",
                     "-o", tmp_path)
    assert result.returncode == 0, result.stderr
    row = result.stdout.splitlines()[1].split()
    assert row[3:7] == ["96", "96", "96", "10"]
    # A count the device does not have names the device's counts.
    with pytest.raises(ValueError, match=r"arch 'bmg' has no 160-register count "
                       r"per thread; its counts: 32, 64, 96, 128, 256"):
        xpu_codegen.compile_file(source, arch="bmg", grf_mode="160",
                                 **no_cache)


def test_triton_register_count_on_ptl(igc2_root):
    # The adapter takes a count as Triton's grf_mode: the build's flags and
    # n_regs are that count's.
    options = SimpleNamespace(grf_mode="192", num_warps=4, warp_size=16,
                              generate_native_code=True, arch="ptl")
    meta = {"build_flags": "", "name": "acc32", "threads_per_warp": 16,
            "num_warps": 4}
    zebin = xt.make_zebin(ACC32, meta, options, cache_dir="none",
                          compiler_root=str(igc2_root))
    assert [k.grf_count for k in xpu_codegen.read_zebin(zebin).kernels] == [
        192]
    assert meta["n_regs"] == 192
    assert meta["build_flags"] == "-ze-exp-register-file-size 192"
