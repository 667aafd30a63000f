"""`python3 -m xpu_codegen diff` and xpu_codegen.diff: two compilers'
decisions kernel by kernel. Fake compiler roots (test/Inputs/Worker/
fake-worker.py, mode "root") give controlled results for every verdict; the
real IGC 1.0 and IGC 2.40 give the real differences on the examples."""

import json
import os
import shutil
from pathlib import Path

import pytest

import xpu_codegen
from conftest import EXAMPLES, INPUTS, REPO, run_cli

FAKE_WORKER = REPO / "test" / "Inputs" / "Worker" / "fake-worker.py"


def fake_root(tmp_path, name, small):
    """A compiler root whose (fake) compiler answers every small build with
    test/Inputs/Native/`small` and every large one with a clean large
    build; its identity is its name."""
    root = tmp_path / name
    lib = root / "usr" / "lib" / "x86_64-linux-gnu"
    lib.mkdir(parents=True)
    for library in ("libocloc.so", "libigc.so.1"):
        (lib / library).touch()
    (root / "fake-compiler.json").write_text(json.dumps({
        "identity": f"fake IGC {name}", "small": small,
        "large": "spill_small_only.pvc.large.zebin"}))
    return str(root)


@pytest.fixture
def fakes(tmp_path, monkeypatch):
    """Three fake compilers for one kernel in small mode: 'clean' (the
    IGC 1.0 build: no spill in the binary), 'twin' (the same build under
    another identity) and 'spilly' (the IGC 2.40 build: 5760 bytes)."""
    monkeypatch.setenv("XPU_CODEGEN_WORKER", str(FAKE_WORKER))
    monkeypatch.setenv("XPU_FAKE_WORKER", "root")
    source = tmp_path / "spill_small_only.spv"
    shutil.copy(INPUTS / "spill_small_only.spv", source)
    return {
        "clean": fake_root(tmp_path, "clean",
                           "spill_small_only.pvc.small.zebin"),
        "twin": fake_root(tmp_path, "twin",
                          "spill_small_only.pvc.small.zebin"),
        "spilly": fake_root(tmp_path, "spilly",
                            "spill_small_only.pvc.igc2.small.zebin"),
        "source": str(source),
        "cache": str(tmp_path / "cache"),
    }


def diff_rows(fakes, old, new):
    return xpu_codegen.diff([fakes["source"]], (fakes[old], fakes[new]),
                            grf_mode="small", cache_dir=fakes["cache"])


@pytest.mark.parametrize("old,new,expected", [
    ("clean", "spilly", "worse"), ("spilly", "clean", "better"),
    ("clean", "twin", "same")])
def test_every_verdict(fakes, old, new, expected):
    [row] = diff_rows(fakes, old, new)
    assert row["verdict"] == expected
    assert (row["module"], row["kernel"], row["arch"]) == (
        "spill_small_only", "spill_small_only", "pvc")
    spills = {"clean": 0, "twin": 0, "spilly": 5760}
    assert row["old"]["spill_size"] == spills[old]
    assert row["new"]["spill_size"] == spills[new]
    assert row["old"]["compiler"].startswith(f"fake IGC {old}")
    assert row["changed"] == (expected != "same")
    for side in (row["old"], row["new"]):
        assert side["grf_mode"] == "small" and side["grf_count"] == 128
        assert side["simd"] == 32 and side["threads_per_eu"] == 8
        assert side["lanes"] == 256 and side["code_size"] > 0


def test_second_diff_builds_nothing(fakes):
    first = diff_rows(fakes, "clean", "spilly")
    second = diff_rows(fakes, "clean", "spilly")
    assert {r["old"]["cache"] for r in first} == {"miss"}
    assert {r["old"]["cache"] for r in second} == {"hit"}
    assert {r["new"]["cache"] for r in second} == {"hit"}
    # The compile time shown is the build's, also from the cache.
    assert second[0]["old"]["compile_ms"] == first[0]["old"]["compile_ms"]
    assert [r["verdict"] for r in second] == [r["verdict"] for r in first]


def test_cli_table_json_and_fail_on(fakes, tmp_path):
    report = tmp_path / "rows.json"
    args = ["diff", "--compiler-root", fakes["clean"], "--compiler-root",
            fakes["spilly"], "--grf-mode", "small", "--cache-dir",
            fakes["cache"], fakes["source"], "--json", report]
    plain = run_cli(*args)
    assert plain.returncode == 0, plain.stderr
    assert "spill_small_only" in plain.stdout and "0 -> 5760" in plain.stdout
    assert "1 kernel: 0 better, 1 worse, 0 same" in plain.stdout
    assert "[1/1]" in plain.stderr
    [row] = json.loads(report.read_text())
    assert row["verdict"] == "worse"
    assert {"grf_mode", "grf_count", "spill_size", "simd",
            "threads_per_eu"} <= row["old"].keys()
    failing = run_cli(*args, "--fail-on", "worse")
    assert failing.returncode == 1
    same = run_cli("diff", "--compiler-root", fakes["clean"],
                   "--compiler-root", fakes["twin"], "--grf-mode", "small",
                   "--cache-dir", fakes["cache"], fakes["source"],
                   "--fail-on", "worse")
    assert same.returncode == 0, same.stderr
    # Unchanged kernels print no row, only the summary.
    assert "spill_small_only" not in same.stdout


def test_cli_needs_two_compilers(fakes):
    result = run_cli("diff", "--compiler-root", fakes["clean"],
                     fakes["source"])
    assert result.returncode == 2
    assert "--compiler-root twice" in result.stderr


def test_a_compiler_that_fails_is_worse(fakes, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    [row] = xpu_codegen.diff([fakes["source"]], (fakes["clean"], str(broken)),
                             grf_mode="small", cache_dir=fakes["cache"])
    assert row["new"] is None and row["verdict"] == "worse"
    assert "compiler root" in row["new_error"]


def test_real_compilers_on_the_examples(igc2_root, tmp_path):
    """IGC 1.0.12504 (the system's) against IGC 2.40 on pvc: real
    decisions differ (accumulate_spill_both spills more on IGC 2.40)."""
    rows = xpu_codegen.diff([EXAMPLES], ("system", str(igc2_root)),
                            cache_dir=str(tmp_path / "cache"))
    kernels = {(r["module"], r["kernel"]): r for r in rows}
    assert ("spill_both", "acc32") in kernels
    assert all(r["old"] and r["new"] for r in rows)
    assert all(r["old"]["compiler"].startswith("ocloc 22.") for r in rows)
    assert all(r["new"]["compiler"].startswith("ocloc 26.") for r in rows)
    both = kernels[("spill_both", "acc32")]
    assert both["old"]["spill_size"] > 0 and both["new"]["spill_size"] > 0
    expected = ("worse" if both["new"]["spill_size"] >
                both["old"]["spill_size"] else "better")
    assert both["verdict"] == expected
    again = xpu_codegen.diff([EXAMPLES], ("system", str(igc2_root)),
                             cache_dir=str(tmp_path / "cache"))
    assert all(r["old"]["cache"] == r["new"]["cache"] == "hit"
               for r in again)
    assert [r["verdict"] for r in again] == [r["verdict"] for r in rows]


def test_explain_changes_from_the_cache(fakes, tmp_path):
    """A compile says what changed since another compiler compiled the same
    input with the same options, from the cache directory, building
    nothing more; other options, or a damaged record, give no comparison."""
    def compile_with(root, *extra):
        return run_cli("compile", fakes["source"], "--grf-mode", "small",
                       "--cache-dir", fakes["cache"], "--compiler-root",
                       fakes[root], "-o", tmp_path / "out.zebin",
                       "--explain-changes", *extra)

    first = compile_with("clean")
    assert first.returncode == 0, first.stderr
    assert "no other compiler's decisions for this input" in first.stdout
    second = compile_with("spilly")
    assert second.returncode == 0, second.stderr
    assert "changes since fake IGC clean compiled it" in second.stdout
    assert "0 -> 5760" in second.stdout
    assert "1 kernel: 0 better, 1 worse, 0 same" in second.stdout
    # Back to the first compiler: a cache hit, and the other way round.
    third = compile_with("clean")
    assert "cache hit" in third.stdout
    assert "changes since fake IGC spilly compiled it" in third.stdout
    assert "1 kernel: 1 better, 0 worse, 0 same" in third.stdout
    # Other options are another input.
    large = compile_with("spilly", "--spill-threshold", "64")
    assert "no other compiler's decisions" in large.stdout
    # A record that does not match the schema is ignored, then replaced.
    for damage in ("[" * 100000, '{"version": 1, "results": [{}]}',
                   "x" * (2 << 20)):
        for other in Path(fakes["cache"], "decisions").glob("*.json"):
            other.write_text(damage)
        damaged = compile_with("clean")
        assert damaged.returncode == 0, damaged.stderr
        assert "no other compiler's decisions" in damaged.stdout


def test_real_compilers_on_the_benchmark_family(igc2_root, tmp_path):
    """The pipeline benchmark's register-heavy kernels (bench/pipeline/
    gen_inputs.py), where IGC 2.40 is better on one kernel and worse on
    another: both verdicts from real builds, every kernel in a row."""
    import subprocess
    import sys
    source = tmp_path / "heavy.mlir"
    source.write_text(subprocess.run(
        [sys.executable, str(REPO / "bench" / "pipeline" / "gen_inputs.py"),
         "mix", "--pointwise", "0", "--reductions", "0", "--heavy", "8"],
        check=True, capture_output=True, text=True).stdout)
    rows = xpu_codegen.diff([source], ("system", str(igc2_root)),
                            cache_dir=str(tmp_path / "cache"))
    verdicts = {r["module"]: r["verdict"] for r in rows}
    assert len(verdicts) == 8
    assert verdicts["heavy_acc32_f32_w8"] == "worse"
    assert verdicts["heavy_acc8_f16_w16"] == "better"
    better = next(r for r in rows if r["module"] == "heavy_acc8_f16_w16")
    assert better["old"]["spill_size"] > 0 == better["new"]["spill_size"]
    assert better["old"]["grf_mode"] == better["new"]["grf_mode"] == "large"
