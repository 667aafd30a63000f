"""Batches, Triton's option spellings, devices and launch limits in Python."""

import io
import json
import warnings

import pytest

import xpu_codegen
from conftest import ELF_MAGIC, EXAMPLES, INPUTS, run_cli, spirv
from xpu_codegen import _cli


def test_compile_many_one_result_per_source(no_cache):
    done = []
    results = xpu_codegen.compile_many(
        [INPUTS / "nospill.spv",                      # a path
         ("both", spirv("scratch_both")),             # a named pair
         spirv("spill_small_only"),                   # bytes
         (EXAMPLES / "mixed_modes.mlir").read_text(),  # MLIR text
         b"\x03\x02\x23\x07garbage!",                 # bad SPIR-V
         ("again", spirv("nospill"))],                # a duplicate
        progress=lambda k, n: done.append((k, n)), **no_cache)
    assert len(results) == 6
    [nospill] = results[0]
    assert (nospill.name, nospill.grf_mode) == ("nospill", "small")
    # One bad source is its own error; the others compiled.
    assert isinstance(results[1], xpu_codegen.OutOfResources)
    assert (results[1].required, results[1].limit) == (524288, 262144)
    assert results[1].resource == "per-thread scratch space (PTSS)"
    assert "both: error: module 'both'" in str(results[1])
    [large] = results[2]
    assert (large.name, large.grf_mode) == ("source2", "large")
    assert sorted(m.name for m in results[3]) == ["mixed", "mixed_large"]
    assert isinstance(results[4], xpu_codegen.CompileError)
    assert not isinstance(results[4], xpu_codegen.OutOfResources)
    # The duplicate compiled once, under its own name.
    [again] = results[5]
    assert again.name == "again"
    assert again.report_entry["deduplicated_from"] == "nospill"
    assert again.binary == nospill.binary
    # Progress counts every source, the duplicate with its original.
    assert done[-1] == (6, 6)
    assert [k for k, _ in done] == sorted(k for k, _ in done)


def test_compile_many_rejects_bad_options_before_compiling():
    with pytest.raises(ValueError, match="grf_mode"):
        xpu_codegen.compile_many([spirv("nospill")], grf_mode="huge")
    with pytest.raises(TypeError, match="each source names itself"):
        xpu_codegen.compile_many([spirv("nospill")], name="x")
    with pytest.raises(TypeError):
        xpu_codegen.compile_many([42])


def test_triton_grf_spellings(no_cache):
    [small] = xpu_codegen.compile(spirv("nospill"), grf_mode="128", **no_cache)
    [large] = xpu_codegen.compile(spirv("nospill"), grf_mode="256", **no_cache)
    assert (small.grf_mode, small.n_regs) == ("small", 128)
    assert (large.grf_mode, large.n_regs) == ("large", 256)
    with pytest.raises(ValueError, match="arch 'pvc' does not support xlarge "
                                         r"GRF mode \(512 registers per "
                                         r"thread\); its modes: 128, 256"):
        xpu_codegen.compile(spirv("nospill"), grf_mode="512")
    with pytest.raises(ValueError, match="arch 'tgllp' does not support large GRF mode"):
        xpu_codegen.compile(spirv("nospill"), arch="tgllp", grf_mode="256")


def test_flags_and_n_regs_default(no_cache):
    [module] = xpu_codegen.compile(spirv("nospill"), grf_mode="default",
                                   flags="-cl-fast-relaxed-math", **no_cache)
    assert module.build_flags == "-cl-fast-relaxed-math"
    assert module.n_regs == 0
    [module] = xpu_codegen.compile(spirv("nospill"), grf_mode="default",
                                   n_regs_default=128, **no_cache)
    assert module.n_regs == 128
    with pytest.raises(ValueError, match="n_regs_default must be 0 or 128"):
        xpu_codegen.compile(spirv("nospill"), n_regs_default=64)


def test_devices_by_name_alias_and_pci_id(no_cache):
    assert xpu_codegen.device("0x0bd5").name == "pvc"
    assert xpu_codegen.device("dg2-g10").name == "acm-g10"
    pvc = xpu_codegen.device("pvc")
    assert pvc.grf_modes == (128, 256)
    assert pvc.threads_per_eu == (8, 4)
    assert pvc.max_work_group_size_for(256, 16) == 512
    assert pvc.max_work_group_size_for(128, 16) == 1024
    [module] = xpu_codegen.compile(spirv("nospill"), arch="0x0BD5", **no_cache)
    assert module.arch == "pvc"
    with pytest.raises(xpu_codegen.CompileError,
                       match="did you mean 'pvc'"):
        xpu_codegen.compile(spirv("nospill"), arch="pcv")
    with pytest.raises(xpu_codegen.CompileError,
                       match="unknown Intel GPU PCI device ID 0x1234"):
        xpu_codegen.device("0x1234")


def test_max_workgroup_size_rules_out_large(no_cache):
    # SIMD16 is required by the kernel: 1024 work-items cannot run in large.
    [module] = xpu_codegen.compile(spirv("simd16_small_only"),
                                   max_workgroup_size=1024, **no_cache)
    assert module.grf_mode == "small"
    assert "runs at most 512 at SIMD16" in module.report_entry[
        "workgroup_limit"]
    [module] = xpu_codegen.compile(spirv("simd16_small_only"),
                                   max_workgroup_size=512, **no_cache)
    assert module.grf_mode == "large"
    with pytest.raises(xpu_codegen.OutOfResources) as info:
        xpu_codegen.compile(spirv("simd16_small_only"), grf_mode="large",
                            max_workgroup_size=1024)
    assert (info.value.resource, info.value.required, info.value.limit) == (
        "work-group size", 1024, 512)


def test_subgroup_size_for_mlir(no_cache):
    text = (EXAMPLES / "accumulate_no_spill.mlir").read_text()
    [default] = xpu_codegen.compile(text, **no_cache)
    [simd32] = xpu_codegen.compile(text, subgroup_size=32, **no_cache)
    # Lowered kernels get the device's default, 16, unless asked otherwise.
    assert [k.simd for k in default.kernels] == [16]
    assert [k.simd for k in simd32.kernels] == [32]
    assert simd32.report_entry["subgroup_size"] == 32
    # The option list's -1 is the device's default, as None is.
    [listed] = xpu_codegen.compile(text, subgroup_size=-1, **no_cache)
    assert [k.simd for k in listed.kernels] == [16]


def test_subgroup_size_is_for_mlir_only():
    with pytest.raises(ValueError, match="SPIR-V is compiled as given"):
        xpu_codegen.compile(spirv("nospill"), subgroup_size=16)
    with pytest.raises(ValueError, match="arch 'pvc' cannot run sub-group size 8; supported: 16, 32"):
        xpu_codegen.compile("module {}", subgroup_size=8)


def test_validate_and_limits_options(no_cache):
    [module] = xpu_codegen.compile(spirv("nospill"), validate="off",
                                   timeout_ms=60000, memory_limit_mb=4096,
                                   **no_cache)
    assert module.grf_mode == "small"
    with pytest.raises(ValueError, match="validate"):
        xpu_codegen.compile(spirv("nospill"), validate="yes")
    with pytest.raises(ValueError, match="timeout_ms"):
        xpu_codegen.compile(spirv("nospill"), timeout_ms=-1)


def test_cli_batch_writes_every_good_output(tmp_path):
    out, report = tmp_path / "out", tmp_path / "r.json"
    missing = tmp_path / "missing.spv"
    result = run_cli("compile", INPUTS / "nospill.spv",
                     INPUTS / "scratch_both.spv",
                     INPUTS / "spill_small_only.spv",
                     EXAMPLES / "mixed_modes.mlir", missing,
                     "--cache-dir", "none", "-o", out, "--report", report)
    assert result.returncode == 1
    assert sorted(p.name for p in out.iterdir()) == [
        "mixed.zebin", "mixed_large.zebin", "nospill.zebin",
        "spill_small_only.zebin"]
    assert (out / "nospill.zebin").read_bytes()[:4] == ELF_MAGIC
    assert "scratch_both: error: module 'scratch_both'" in result.stderr
    assert f"cannot read {missing}" in result.stderr
    assert "compiled 3 of 5 inputs, 2 failed" in result.stderr
    # Not a terminal: no progress line.
    assert "\r" not in result.stderr
    modules = json.loads(report.read_text())["modules"]
    assert sorted(m["module"] for m in modules) == [
        "mixed", "mixed_large", "nospill", "scratch_both", "spill_small_only"]
    [failed] = [m for m in modules if "error" in m]
    assert failed["out_of_resources"]["required"] == 524288


def test_cli_batch_success_and_name_collisions(tmp_path):
    copy = tmp_path / "nospill.spv"
    copy.write_bytes(spirv("nospill"))
    result = run_cli("compile", INPUTS / "nospill.spv", copy,
                     "--cache-dir", "none", "-o", tmp_path / "out", "-q")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "nospill-2.zebin", "nospill.zebin"]
    assert "compiled 2 of 2 inputs" in result.stderr


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_batch_progress_only_on_a_terminal():
    terminal = FakeTerminal()
    progress = _cli._BatchProgress(stream=terminal)
    progress(1, 3)
    progress(3, 3)
    progress.finish()
    assert terminal.getvalue() == ("\r\033[Kxpu_codegen: compiled 1/3"
                                   "\r\033[Kxpu_codegen: compiled 3/3"
                                   "\r\033[K")
    pipe = io.StringIO()
    progress = _cli._BatchProgress(stream=pipe)
    progress(1, 3)
    progress.finish()
    assert pipe.getvalue() == ""
