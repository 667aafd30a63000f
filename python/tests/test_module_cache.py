"""The cache level before lowering (xpu-module-cache) on the MLIR path.

A warm compile of MLIR text takes every module from the cache: it lowers,
emits and compiles nothing (a SPIR-V emitter would fail here) and returns
the same binaries and facts, with the report saying which cache level hit.
"""

import xpu_codegen

from conftest import EXAMPLES


def test_warm_mlir_compile_skips_lowering(tmp_path, monkeypatch):
    text = (EXAMPLES / "mixed_modes.mlir").read_text()
    cold = xpu_codegen.compile(text, cache_dir=tmp_path, backend="ocloc")
    assert [m.cache for m in cold] == ["miss", "miss"]
    assert all("cache_level" not in m.report_entry for m in cold)

    # The cold run's emitter pool is still there: another time limit makes
    # any emission use a new pool, which would start this (failing) emitter.
    monkeypatch.setenv("XPU_CODEGEN_SPIRV_EMITTER", "/bin/false")
    monkeypatch.setenv("XPU_CODEGEN_LLC_TIMEOUT_S", "299")
    warm = xpu_codegen.compile(text, cache_dir=tmp_path, backend="ocloc")
    assert [m.name for m in warm] == [m.name for m in cold]
    assert [m.binary for m in warm] == [m.binary for m in cold]
    assert [m.cache for m in warm] == ["hit", "hit"]
    assert [m.report_entry["cache_level"] for m in warm] == [
        "module", "module"]
    assert [m.report_entry["cache_tier"] for m in warm] == ["local", "local"]
    assert [(m.grf_mode, m.n_regs, m.build_flags, m.decision) for m in warm] \
        == [(m.grf_mode, m.n_regs, m.build_flags, m.decision) for m in cold]


def test_changed_options_miss(tmp_path, monkeypatch):
    text = (EXAMPLES / "mixed_modes.mlir").read_text()
    xpu_codegen.compile(text, cache_dir=tmp_path, backend="ocloc")
    # Another subgroup size changes the lowering: lowered and emitted again.
    [small, large] = xpu_codegen.compile(text, cache_dir=tmp_path,
                                         backend="ocloc", subgroup_size=32)
    assert "cache_level" not in small.report_entry
    assert "cache_level" not in large.report_entry
