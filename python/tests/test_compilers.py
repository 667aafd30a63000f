"""Compilers as an input: compiler_root=, --compiler-root and
$XPU_CODEGEN_COMPILER_ROOT select the ocloc installation; the report names
it; its runtime never enters this process. Real compiles on IGC 1.0.12504
(the system's) and IGC 2.40 (tools/install-compiler)."""

import json
import subprocess
import sys

import pytest

import xpu_codegen

from conftest import ELF_MAGIC, run_cli, spirv, subprocess_env


def test_each_compiler_measures_its_own_spills(igc2_root, no_cache):
    [old] = xpu_codegen.compile(spirv("spill_small_only"), arch="pvc",
                                **no_cache)
    [new] = xpu_codegen.compile(spirv("spill_small_only"), arch="pvc",
                                compiler_root=igc2_root, **no_cache)
    assert old.compiler.startswith("ocloc 22.43.")
    assert new.compiler.startswith("ocloc 26.27.")
    # Measured by IGC itself (.ze_info spill_size on IGC 2.40, the build log
    # on 1.0.12504): the same SPIR-V spills differently.
    assert [(a.grf_mode, a.spill_size) for a in old.attempts] == [
        ("small", 9600), ("large", 0)]
    assert [(a.grf_mode, a.spill_size) for a in new.attempts] == [
        ("small", 5760), ("large", 0)]
    assert new.grf_mode == "large" and new.n_regs == 256
    assert new.binary[:4] == ELF_MAGIC


def test_compiler_runtime_stays_out_of_this_process(igc2_root, no_cache):
    xpu_codegen.compile(spirv("nospill"), arch="pvc", compiler_root=igc2_root,
                        **no_cache)
    with open("/proc/self/maps") as maps:
        mapped = maps.read()
    assert str(igc2_root.resolve()) not in mapped
    assert "libigc.so.2" not in mapped and "libocloc" not in mapped


def test_path_like_root_and_environment(igc2_root, no_cache):
    code = ("import xpu_codegen, sys; "
            "m = xpu_codegen.compile(open(sys.argv[1], 'rb').read(), "
            "arch='pvc', cache_dir='none'); print(m[0].compiler)")
    env = subprocess_env()
    env["XPU_CODEGEN_COMPILER_ROOT"] = str(igc2_root)
    from conftest import INPUTS
    out = subprocess.run([sys.executable, "-c", code,
                          str(INPUTS / "nospill.spv")], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ocloc 26.27.")


def test_missing_root_is_a_compile_error(tmp_path, no_cache):
    with pytest.raises(xpu_codegen.CompileError) as error:
        xpu_codegen.compile(spirv("nospill"), arch="pvc",
                            compiler_root=tmp_path, **no_cache)
    assert f"compiler root '{tmp_path}' has no libocloc.so" in str(error.value)
    with pytest.raises(ValueError, match="compiler_root must not be empty"):
        xpu_codegen.compile(spirv("nospill"), compiler_root="")
    with pytest.raises(TypeError, match="compiler_root must be a path"):
        xpu_codegen.compile(spirv("nospill"), compiler_root=3)


def test_cli_compiler_root(igc2_root, tmp_path):
    from conftest import INPUTS
    report = tmp_path / "r.json"
    out = run_cli("compile", INPUTS / "spill_small_only.spv", "--arch", "pvc",
                  "--cache-dir", "none", "--compiler-root", igc2_root,
                  "-o", tmp_path / "k.zebin", "--report", report)
    assert out.returncode == 0, out.stderr
    [entry] = json.loads(report.read_text())["modules"]
    assert entry["compiler"].startswith("ocloc 26.27.")
    assert entry["grf_mode"] == "large"
    bad = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                  "--compiler-root", tmp_path / "missing",
                  "-o", tmp_path / "x.zebin")
    assert bad.returncode != 0
    assert "does not exist or is not a directory" in bad.stderr


def test_forced_register_count_that_spills_warns(igc2_root):
    """A forced register count (not only small/large) that spills warns as
    the pass does: the message is worded once (ResultMessages.h)."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", xpu_codegen.CompileWarning)
        [module] = xpu_codegen.compile(
            spirv("spill_both"), arch="ptl", grf_mode="64",
            compiler_root=str(igc2_root), cache_dir="none", name="both")
    assert module.n_regs == 64 and module.spill_size > 0
    messages = [str(w.message) for w in caught
                if issubclass(w.category, xpu_codegen.CompileWarning)]
    assert messages == [
        f"both: warning: kernel 'spill_both' spills {module.spill_size} "
        f"bytes per thread in 64-register count on ptl"]
