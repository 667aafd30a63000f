"""Real compiles through the Python API: the facts IGC measures."""

import json
import subprocess
import warnings

import pytest

import xpu_codegen
from conftest import (BUILD_BIN, ELF_MAGIC, EXAMPLES, INPUTS, REPO, free_port,
                      redis_server, run_cli, spirv)


def test_nospill_auto_keeps_small(no_cache):
    [module] = xpu_codegen.compile(spirv("nospill"), arch="pvc", **no_cache)
    assert module.name == "module"
    assert module.arch == "pvc"
    assert module.grf_mode == "small"
    assert module.n_regs == 128
    assert module.spill_size == 0
    assert module.n_spills == 0
    assert module.build_flags == "-cl-intel-128-GRF-per-thread"
    assert module.backend in ("ocloc", "level-zero")
    assert [a.grf_mode for a in module.attempts] == ["small"]
    assert module.binary[:4] == ELF_MAGIC
    [kernel] = module.kernels
    assert (kernel.name, kernel.grf_count, kernel.simd, kernel.spill_size,
            kernel.n_spills) == ("nospill", 128, 32, 0, 0)


def test_spill_small_only_auto_picks_large(no_cache):
    [module] = xpu_codegen.compile(spirv("spill_small_only"), **no_cache)
    assert module.grf_mode == "large"
    assert module.n_regs == 256
    assert module.spill_size == 0
    assert module.build_flags == "-cl-intel-256-GRF-per-thread"
    assert [(a.grf_mode, a.spill_size) for a in module.attempts] == [
        ("small", 9600), ("large", 0)]
    assert all(a.compile_ms >= 0 for a in module.attempts)
    assert module.decision
    [kernel] = module.kernels
    assert (kernel.grf_count, kernel.simd, kernel.spill_size) == (256, 32, 0)


def test_forced_small_builds_once_and_warns(no_cache):
    with pytest.warns(xpu_codegen.CompileWarning, match="spills 9600 bytes"):
        [module] = xpu_codegen.compile(spirv("spill_small_only"),
                                       grf_mode="small", name="k", **no_cache)
    assert module.name == "k"
    assert len(module.attempts) == 1
    assert (module.grf_mode, module.n_regs, module.spill_size) == (
        "small", 128, 9600)
    # n_spills = spill_size / (4 * simd), per kernel; the module's is the max.
    assert module.kernels[0].n_spills == 9600 // (4 * 32)
    assert module.n_spills == 75


def test_spill_threshold_keeps_small(no_cache):
    [module] = xpu_codegen.compile(spirv("spill_small_only"),
                                   spill_threshold=10000, **no_cache)
    assert (module.grf_mode, len(module.attempts)) == ("small", 1)


def test_private_array_is_not_spill(no_cache):
    [module] = xpu_codegen.compile(spirv("private_array"), **no_cache)
    [kernel] = module.kernels
    assert kernel.spill_size == 0
    assert kernel.scratch_size == 32768
    assert module.grf_mode == "small"


def test_bytes_like_inputs(no_cache):
    data = spirv("nospill")
    for source in (bytearray(data), memoryview(data)):
        [module] = xpu_codegen.compile(source, **no_cache)
        assert module.grf_mode == "small"


def test_mlir_text_runs_the_pipeline(no_cache):
    text = (EXAMPLES / "accumulate_spill_small_only.mlir").read_text()
    [module] = xpu_codegen.compile(text, arch="pvc", **no_cache)
    assert module.name == "spill_small_only"
    assert (module.grf_mode, module.n_regs, module.spill_size) == (
        "large", 256, 0)
    assert [a.grf_mode for a in module.attempts] == ["small", "large"]
    assert module.attempts[0].spill_size > 0
    assert [k.name for k in module.kernels] == ["acc16"]
    assert module.binary[:4] == ELF_MAGIC
    info = xpu_codegen.read_zebin(module.binary)
    assert [(k.name, k.grf_count) for k in info.kernels] == [("acc16", 256)]


def test_mlir_mixed_modes_split_into_modules(no_cache):
    text = (EXAMPLES / "mixed_modes.mlir").read_text()
    modules = xpu_codegen.compile(text, **no_cache)
    modes = {k.name: m.grf_mode for m in modules for k in m.kernels}
    assert modes["copy_small"] == "small"
    assert modes["copy_large"] == "large"
    assert len({m.name for m in modules}) == len(modules) >= 2
    assert all(m.binary[:4] == ELF_MAGIC for m in modules)


def test_mlir_without_gpu_modules_gives_nothing(no_cache):
    assert xpu_codegen.compile("module {}", **no_cache) == []


def test_compile_file_names_the_module_after_the_file(no_cache):
    [module] = xpu_codegen.compile_file(INPUTS / "nospill.spv", **no_cache)
    assert module.name == "nospill"
    [module] = xpu_codegen.compile_file(
        EXAMPLES / "accumulate_no_spill.mlir", **no_cache)
    assert module.grf_mode == "small"


def test_read_zebin_of_a_compiled_binary(no_cache, tmp_path):
    [module] = xpu_codegen.compile(spirv("spill_small_only"), **no_cache)
    path = tmp_path / "k.zebin"
    module.write(path)
    for source in (module.binary, path, str(path)):
        info = xpu_codegen.read_zebin(source)
        [kernel] = info.kernels
        assert (kernel.name, kernel.grf_count, kernel.simd) == (
            "spill_small_only", 256, 32)
        assert kernel.code_size > 0


def test_report_matches_the_pass(no_cache, tmp_path):
    """The same module through xpu-opt's pass report and through Python."""
    xpu_opt = BUILD_BIN / "xpu-opt"
    if not xpu_opt.exists():
        pytest.skip("xpu-opt is not built")
    source = EXAMPLES / "accumulate_spill_small_only.mlir"
    report = tmp_path / "pass.json"
    subprocess.run(
        [str(xpu_opt), str(source), "-o", str(tmp_path / "out.mlir"),
         f"--xpu-codegen-pipeline=arch=pvc grf-mode=auto cache-dir=none "
         f"report={report}"], check=True, timeout=600)
    from_pass = json.loads(report.read_text())
    modules = xpu_codegen.compile_file(source, **no_cache)
    from_python = xpu_codegen.report(modules)

    def stable(report):
        for module in report["modules"]:
            for attempt in module["attempts"]:
                attempt.pop("compile_ms")
        return report

    assert stable(from_python) == stable(from_pass)
    # The dataclasses carry the same facts as the entry.
    [module], [entry] = modules, from_pass["modules"]
    assert (module.grf_mode, module.n_regs, module.spill_size,
            module.build_flags, module.backend) == (
        entry["grf_mode"], entry["n_regs"], entry["spill_size"],
        entry["build_flags"], entry["backend"])
    assert [k.grf_count for k in module.kernels] == [
        k["grf_count"] for k in entry["kernels"]]


def test_no_warning_when_nothing_spills(no_cache):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        [module] = xpu_codegen.compile(spirv("nospill"), grf_mode="small",
                                       **no_cache)
    assert (module.grf_mode, module.spill_size) == ("small", 0)
    assert [str(w.message) for w in caught] == []


def test_cache_url_is_passed_through(tmp_path):
    """Two local caches share a private redis-server through cache_url (the
    MLIR and the SPIR-V paths); an unreachable one only warns."""
    port = free_port()
    with redis_server(tmp_path, port):
        url = f"redis://127.0.0.1:{port}"
        [first] = xpu_codegen.compile(spirv("spill_small_only"),
                                      cache_dir=tmp_path / "a", cache_url=url)
        [second] = xpu_codegen.compile(spirv("spill_small_only"),
                                       cache_dir=tmp_path / "b",
                                       cache_url=url)
        assert (first.cache, second.cache) == ("miss", "hit")
        assert second.binary == first.binary
        # The pipeline (MLIR input) takes it too.
        text = (EXAMPLES / "accumulate_no_spill.mlir").read_text()
        [m1] = xpu_codegen.compile(text, cache_dir=tmp_path / "c",
                                   cache_url=url)
        [m2] = xpu_codegen.compile(text, cache_dir=tmp_path / "d",
                                   cache_url=url)
        assert (m1.cache, m2.cache) == ("miss", "hit")
        assert m2.binary == m1.binary
    with pytest.warns(xpu_codegen.CompileWarning,
                      match="shared compile cache unavailable"):
        [third] = xpu_codegen.compile(spirv("spill_small_only"),
                                      cache_dir=tmp_path / "e",
                                      cache_url=f"redis://127.0.0.1:{port}")
    assert third.binary == first.binary


def test_cache_dir_is_passed_through(tmp_path):
    cache = tmp_path / "cache"
    [first] = xpu_codegen.compile(spirv("spill_small_only"), cache_dir=cache,
                                  jobs=2)
    [second] = xpu_codegen.compile(spirv("spill_small_only"),
                                   cache_dir=str(cache), jobs=2)
    assert first.cache == "miss"
    assert second.cache == "hit"
    assert second.binary == first.binary
    assert [a.spill_size for a in second.attempts] == [9600, 0]
    assert any(cache.iterdir())


def test_concurrent_calls_from_threads(no_cache):
    """The GIL is released while compiling; calls may overlap."""
    from concurrent.futures import ThreadPoolExecutor

    text = (EXAMPLES / "mixed_modes.mlir").read_text()
    data = spirv("spill_small_only")

    def job(index):
        source = data if index % 2 else text
        return [m.grf_mode for m in xpu_codegen.compile(source, **no_cache)]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(job, range(8)))
    assert results == [["small", "large"], ["large"]] * 4


LINK_INPUT = REPO / "test" / "Transforms" / "LinkModules" / "Inputs" / "mixed.mlir"


def test_linked_modules_share_one_binary(no_cache):
    # a and c link (c's acc4 is acc4_c in the linked binary), d is a copy of
    # a, b likely spills and stays alone (docs/Linking.md).
    modules = {m.name: m for m in xpu_codegen.compile(
        LINK_INPUT.read_text(), **no_cache)}
    assert sorted(modules) == ["a", "b", "c", "d"]
    assert all(m.binary[:4] == ELF_MAGIC for m in modules.values())
    assert modules["a"].binary == modules["c"].binary == modules["d"].binary
    linked = xpu_codegen.read_zebin(modules["a"].binary)
    assert sorted(k.name for k in linked.kernels) == ["acc4", "acc4_c"]
    [heavy] = xpu_codegen.read_zebin(modules["b"].binary).kernels
    assert (heavy.name, heavy.grf_count) == ("acc16", 256)


def test_link_false_gives_one_binary_per_module(no_cache):
    linked = {m.name: m for m in xpu_codegen.compile(
        LINK_INPUT.read_text(), **no_cache)}
    alone = {m.name: m for m in xpu_codegen.compile(
        LINK_INPUT.read_text(), link=False, **no_cache)}
    assert alone["a"].binary != alone["c"].binary
    assert [k.name for k in
            xpu_codegen.read_zebin(alone["c"].binary).kernels] == ["acc4"]
    facts = lambda m: (m.grf_mode, m.n_regs, m.spill_size,
                       [(k.name, k.grf_count, k.simd) for k in m.kernels])
    assert {n: facts(m) for n, m in linked.items()} == \
        {n: facts(m) for n, m in alone.items()}
    with pytest.raises(TypeError):
        xpu_codegen.compile(LINK_INPUT.read_text(), link="no", **no_cache)


def test_renamed_copy_names_its_own_kernel(no_cache, tmp_path):
    # A copy equal to @orig::@kern_a up to names (@copy::@kern_b) shares
    # @orig's binary. Its Module once listed only kern_a: a host asking for
    # kern_b found nothing. It lists kern_b, and binary_name says what the
    # binary calls it.
    kernel = """
    gpu.func @NAME(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }"""
    source = ("module attributes {gpu.container_module} {\n"
              f"gpu.module @orig {{{kernel.replace('NAME', 'kern_a')}}}\n"
              f"gpu.module @copy {{{kernel.replace('NAME', 'kern_b')}}}\n}}")
    for link in (True, False):
        modules = {m.name: m for m in xpu_codegen.compile(
            source, link=link, **no_cache)}
        copy = modules["copy"]
        assert [k.name for k in copy.kernels] == ["kern_b"]
        assert [k.binary_name for k in copy.kernels] == ["kern_a"]
        assert copy.report_entry["deduplicated_from"] == "orig"
        assert [k.binary_name for k in modules["orig"].kernels] == ["kern_a"]
        in_binary = [k.name for k in
                     xpu_codegen.read_zebin(copy.binary).kernels]
        assert copy.kernels[0].binary_name in in_binary
    path = tmp_path / "renamed.mlir"
    path.write_text(source)
    result = run_cli("compile", path, "--arch", "pvc", "--cache-dir", "none",
                     "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "kern_b (as kern_a)" in result.stdout, result.stdout
