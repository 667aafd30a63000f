"""Bad input of every kind is an exception, never a dead interpreter."""

import random
import re
import subprocess
import sys
import textwrap

import pytest

import xpu_codegen
from conftest import INPUTS, spirv, subprocess_env

BAD_MLIR = """\
module {
  func.func @f() {
    %0 = arith.constant 1 : i32
    %1 = arith.addi %0, %undefined : i32
    return
  }
}
"""

LOCATED = re.compile(r"\S+:\d+:\d+: error: ")


def test_bad_mlir_is_located():
    with pytest.raises(xpu_codegen.CompileError) as info:
        xpu_codegen.compile(BAD_MLIR, filename="bad.mlir")
    message = str(info.value)
    assert re.search(r"bad\.mlir:4:\d+: error: use of undeclared SSA value",
                     message), message
    assert "%undefined" in message  # the source line is quoted
    assert info.value.diagnostics == message


def test_bad_mlir_file_names_the_file(tmp_path):
    path = tmp_path / "broken.mlir"
    path.write_text("gpu.module @m {\n  gpu.func @k() kernel {\n")
    with pytest.raises(xpu_codegen.CompileError,
                       match=re.escape(str(path)) + r":\d+:\d+: error:"):
        xpu_codegen.compile_file(path)


def test_verifier_error_is_located():
    text = ("module {\n"
            "  gpu.module @m attributes {xpu.grf_mode = 3 : i32} {}\n}\n")
    with pytest.raises(xpu_codegen.CompileError) as info:
        xpu_codegen.compile(text, cache_dir="none")
    assert LOCATED.search(str(info.value)), str(info.value)


@pytest.mark.parametrize("data", [
    b"",
    b"\x00" * 64,
    b"not spir-v at all",
    spirv("nospill")[:100],
    spirv("nospill")[:20] + bytes(random.Random(1).randrange(256)
                                  for _ in range(4000)),
], ids=["empty", "zeros", "text", "truncated", "header+garbage"])
def test_garbage_spirv_is_a_compile_error(data):
    with pytest.raises(xpu_codegen.CompileError,
                       match=r"module: error: module 'module'"):
        xpu_codegen.compile(data, cache_dir="none")


def test_huge_garbage_inputs():
    rng = random.Random(7)
    blob = bytes(rng.randrange(256) for _ in range(1 << 20))
    with pytest.raises(xpu_codegen.CompileError):
        xpu_codegen.compile(blob, cache_dir="none")
    text = "".join(rng.choice("{}()%@:=<>\"x0 \n") for _ in range(1 << 20))
    with pytest.raises(xpu_codegen.CompileError, match=LOCATED):
        xpu_codegen.compile(text)


def test_deeply_nested_mlir_is_refused_with_a_location():
    text = "module {\n  " + '"test.op"() ({\n' * 100000
    with pytest.raises(xpu_codegen.CompileError,
                       match=r"<source>:\d+:\d+: error: brackets nest "
                             r"deeper than 2048 levels"):
        xpu_codegen.compile(text)
    with pytest.raises(xpu_codegen.CompileError, match="nest deeper"):
        xpu_codegen.compile("#a = " + "[" * 10**6)


def test_nesting_within_the_limit_parses_on_a_large_stack():
    """Depths that overflow an 8 MB stack in the parser (measured: 5000
    nested regions) are within the limit and must parse."""
    script = textwrap.dedent("""
        import xpu_codegen
        for text in ["func.func @f() {" + "scf.execute_region {" * 2000,
                     "!t = " + "tuple<" * 2040,
                     "#a = " + "[" * 2040]:
            try:
                xpu_codegen.compile(text)
            except xpu_codegen.CompileError as error:
                assert "nest deeper" not in str(error), str(error)[:200]
        print("alive")
    """)
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=600,
                            env=subprocess_env())
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "alive"


def test_unknown_arch_lists_the_valid_ones():
    for source in (spirv("nospill"), "module {}"):
        with pytest.raises(xpu_codegen.CompileError) as info:
            xpu_codegen.compile(source, arch="xe9000")
        message = str(info.value)
        assert "unknown Intel GPU arch 'xe9000'" in message
        assert "pvc" in message and "acm-g10" in message
    assert "pvc" in xpu_codegen.valid_archs()


def test_large_grf_on_a_device_without_it():
    with pytest.raises(xpu_codegen.CompileError,
                       match="does not support large GRF"):
        xpu_codegen.compile(spirv("nospill"), arch="tgllp", grf_mode="large",
                            cache_dir="none")


@pytest.mark.parametrize("options, error", [
    ({"grf_mode": "huge"}, ValueError),
    ({"grf_mode": "SMALL"}, ValueError),
    ({"grf_mode": None}, ValueError),
    ({"backend": "cuda"}, ValueError),
    ({"auto_strategy": "guess"}, ValueError),
    ({"spill_threshold": -1}, ValueError),
    ({"spill_threshold": 2**70}, ValueError),
    ({"spill_threshold": 1.5}, TypeError),
    ({"spill_threshold": True}, TypeError),
    ({"jobs": -1}, ValueError),
    ({"jobs": "2"}, TypeError),
    ({"jobs": 10**9}, ValueError),
    ({"arch": 7}, TypeError),
    ({"arch": "pvc\0"}, ValueError),
    ({"cache_dir": 3}, TypeError),
    ({"cache_dir": ""}, ValueError),
    ({"cache_url": 3}, TypeError),
    ({"cache_url": ""}, ValueError),
    ({"cache_url": "http://cache:6379"}, ValueError),
    ({"cache_url": "redis://cache:99999"}, ValueError),
    ({"cache_url": "redis://cache:6379\0"}, ValueError),
])
def test_bad_option_values(options, error):
    with pytest.raises(error):
        xpu_codegen.compile(spirv("nospill"), **options)


def test_bad_cache_url_message():
    with pytest.raises(ValueError, match="invalid cache-url 'redis://h:1/x': "
                                         "database 'x' is not a number"):
        xpu_codegen.compile(spirv("nospill"), cache_url="redis://h:1/x")


def test_bad_cache_key_options_name_the_option(tmp_path, monkeypatch):
    # The keyword is checked, not the variable it overrides.
    monkeypatch.setenv("XPU_CODEGEN_CACHE_SIGN_KEY", str(tmp_path / "gone"))
    with pytest.raises(ValueError, match="invalid cache-sign-key: cannot read "
                                         "the signing key '.*missing.pem'"):
        xpu_codegen.compile(spirv("nospill"), cache_url="redis://127.0.0.1:1",
                            cache_sign_key=str(tmp_path / "missing.pem"))
    monkeypatch.delenv("XPU_CODEGEN_CACHE_SIGN_KEY")
    (tmp_path / "not-a-key.pub").write_text("hello\n")
    with pytest.raises(ValueError, match="invalid cache-trust: '.*not-a-key"
                                         ".pub' holds no PEM public key"):
        xpu_codegen.compile(spirv("nospill"), cache_url="redis://127.0.0.1:1",
                            cache_trust=str(tmp_path / "not-a-key.pub"))


def test_bad_grf_mode_message():
    with pytest.raises(ValueError, match="grf_mode must be one of 'auto', "
                                         "'small', 'large', 'default'"):
        xpu_codegen.compile("module {}", grf_mode="medium")


@pytest.mark.parametrize("source", [None, 42, ["module {}"], {"a": 1}])
def test_bad_source_types(source):
    with pytest.raises(TypeError):
        xpu_codegen.compile(source)


def test_read_zebin_rejects_non_zebins(tmp_path):
    for data in (b"", b"\x7fELF" + b"\x00" * 60, spirv("nospill")):
        with pytest.raises(ValueError, match="not a readable zebin"):
            xpu_codegen.read_zebin(data)


def test_interpreter_survives_everything():
    """All the bad inputs in one fresh interpreter, then a good compile."""
    script = textwrap.dedent(f"""
        import random, xpu_codegen
        bad = [b"", b"\\x03\\x02\\x23\\x07" + bytes(range(256)) * 40,
               random.Random(3).randbytes(100000), {BAD_MLIR!r},
               "\\x00\\udcff", "}}" * 1000, "(" * 10**6, "[" * 3000,
               '"' + "(" * 10**5, "// " + "{{" * 10**5]
        for source in bad:
            for arch in ("pvc", "nope", "tgllp"):
                try:
                    xpu_codegen.compile(source, arch=arch, cache_dir="none")
                except xpu_codegen.CompileError:
                    pass
        try:
            xpu_codegen.read_zebin(random.Random(4).randbytes(5000))
        except ValueError:
            pass
        [m] = xpu_codegen.compile_file({str(INPUTS / "nospill.spv")!r},
                                       cache_dir="none")
        print("alive", m.grf_mode)
    """)
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=600,
                            env=subprocess_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("alive small"), result.stdout


@pytest.mark.parametrize("diagnostics", [42, None, b"bytes", ["a"]])
def test_compile_error_needs_text(diagnostics):
    # A non-string message raised AttributeError ('int' has no 'rstrip').
    with pytest.raises(TypeError, match="CompileError: diagnostics must be "
                                        "a str, got "):
        xpu_codegen.CompileError(diagnostics)
    assert str(xpu_codegen.CompileError("x: error: y\n")) == "x: error: y"
