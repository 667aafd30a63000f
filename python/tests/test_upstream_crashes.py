"""MLIR text that crashes upstream code (SIGFPE in XeGPU verifiers, stack
overflows in the recursive parser and printer) is a located CompileError;
the interpreter survives (docs/HostSafety.md)."""

import subprocess
import sys
import textwrap

import pytest

import xpu_codegen
from conftest import run_cli, subprocess_env

TDESC_KERNEL = """\
gpu.module @m {{
  gpu.func @k(%a: memref<64x64xf16>) kernel {{
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<{layout}>>
    gpu.return
  }}
}}
"""

LOAD_ND_KERNEL = """\
gpu.module @m {
  gpu.func @k(%a: memref<8x16xf32>) kernel {
    %ta = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    %lane = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<4294967296xf32>
    gpu.return
  }
}
"""

BAD_LAYOUTS = {
    "sg_layout": "sg_layout = [2, 0], sg_data = [32, 32]",
    "sg_data": "sg_layout = [2, 2], sg_data = [0, 32]",
    "inst_data": "inst_data = [8, 0]",
    "lane_layout": "lane_layout = [0, 16], lane_data = [1, 1]",
    "lane_data": "lane_layout = [1, 16], lane_data = [1, 0]",
    "order": "sg_layout = [2, 2], sg_data = [32, 32], order = [1, 1]",
}


def _in_child(body):
    """Runs `body` in a child interpreter (a crash must not take pytest
    down); returns its stdout after checking that it lived."""
    script = "import xpu_codegen\n" + textwrap.dedent(body) + \
        "\nprint('alive')\n"
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=600,
                            env=subprocess_env())
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.endswith("alive\n"), result.stdout[-2000:]
    return result.stdout


@pytest.mark.parametrize("field", sorted(BAD_LAYOUTS))
def test_bad_xegpu_layout_is_a_located_error(field):
    text = TDESC_KERNEL.format(layout=BAD_LAYOUTS[field])
    out = _in_child(f"""
        try:
            xpu_codegen.compile({text!r}, cache_dir="none")
        except xpu_codegen.CompileError as error:
            print(error)
    """)
    assert f"<source>:3:" in out, out
    assert f"error: xegpu layout field '{field}' must be" in out, out


def test_load_nd_element_count_overflow_is_a_located_error():
    out = _in_child(f"""
        try:
            xpu_codegen.compile({LOAD_ND_KERNEL!r}, cache_dir="none")
        except xpu_codegen.CompileError as error:
            print(error)
    """)
    assert "<source>:4:13: error: 'xegpu.load_nd' op operand or result " \
        "'vector<4294967296xf32>' has more than 2147483647 elements" in out, \
        out


@pytest.mark.parametrize("kind,text,where", [
    ("aliases",
     "\n".join(["#a0 = [1]"] + [f"#a{i} = [#a{i - 1}]"
                                for i in range(1, 100000)])
     + "\nmodule attributes {test.x = #a99999} {}",
     "<source>:2049:11"),
    ("expressions",
     "#map = affine_map<(d0) -> (" + " + ".join(["d0"] * 100000)
     + ")>\nmodule attributes {test.x = #map} {}",
     "<source>:1:10261"),
], ids=["alias-chain", "affine-terms"])
def test_deep_nesting_without_brackets_is_refused(kind, text, where):
    with pytest.raises(xpu_codegen.CompileError,
                       match=f"{where}: error: {kind} nest deeper than "
                             "2048 levels"):
        xpu_codegen.compile(text, cache_dir="none")


def test_cli_reports_a_bad_layout_and_exits_1(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text(TDESC_KERNEL.format(layout=BAD_LAYOUTS["sg_layout"]))
    result = run_cli("compile", path, "--cache-dir", "none",
                     "-o", tmp_path / "out")
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert f"{path}:3:" in result.stderr, result.stderr
    assert "xegpu layout field 'sg_layout' must be positive, got 0" \
        in result.stderr, result.stderr
