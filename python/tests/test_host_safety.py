"""Host safety: hostile files, outputs, limits, threads, fork and exit.

Each test here once failed: it names the defect it guards against.
"""

import re

import pytest

import xpu_codegen
from conftest import INPUTS, run_cli, spirv

LONG_NAME = "a_rather_long_module_name_1234567"


def test_long_module_name_in_option_errors():
    # The location of an early error was a dangling view of a temporary
    # string: names of 16+ characters printed as garbage.
    with pytest.raises(xpu_codegen.CompileError) as info:
        xpu_codegen.compile(spirv("nospill"), arch="bogus", name=LONG_NAME,
                            cache_dir="none")
    assert str(info.value).startswith(
        f"{LONG_NAME}: error: unknown Intel GPU arch 'bogus'"), str(info.value)


def _zebin_with_ze_info(ze_info: bytes) -> bytes:
    """A real zebin whose .ze_info section holds `ze_info` instead (the
    section is moved to the end of the file; its header is patched)."""
    import struct

    data = bytearray((INPUTS / "nospill.pvc.small.zebin").read_bytes())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize
                                     + 0x18)
    for i in range(shnum):
        header = shoff + i * shentsize
        name_off, = struct.unpack_from("<I", data, header)
        end = data.index(b"\0", strtab_off + name_off)
        if bytes(data[strtab_off + name_off:end]) == b".ze_info":
            struct.pack_into("<QQ", data, header + 0x18, len(data),
                             len(ze_info))
            return bytes(data) + ze_info
    raise AssertionError("no .ze_info section")


def test_deeply_nested_ze_info_is_a_clean_error(tmp_path):
    # 300,000 levels (1.5 MB) overflowed the stack in LLVM's YAML parser.
    deep = _zebin_with_ze_info(b"kernels: " + b"- " * 300000 + b"x\n")
    with pytest.raises(ValueError, match="nests deeper than"):
        xpu_codegen.read_zebin(deep)
    path = tmp_path / "deep.zebin"
    path.write_bytes(_zebin_with_ze_info(b"[" * 300000))
    result = run_cli("inspect", path)
    assert result.returncode == 1, result.stderr
    assert re.search(r"deep\.zebin: .*nests deeper than", result.stderr), \
        result.stderr


@pytest.mark.parametrize("option", ["timeout_ms", "memory_limit_mb"])
@pytest.mark.parametrize("value", [-1, 2**40 + 1, 2**63])
def test_limits_are_range_checked(option, value):
    with pytest.raises(ValueError, match=option):
        xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                            **{option: value})


def test_limits_reach_the_worker():
    # The limits are settable from Python: a 1 ms limit kills the compile.
    with pytest.raises(xpu_codegen.CompileError,
                       match="exceeded the 1 ms time limit"):
        xpu_codegen.compile(spirv("spill_both"), cache_dir="none",
                            timeout_ms=1)
    [module] = xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                                   timeout_ms=2**40, memory_limit_mb=2**40)
    assert module.n_regs == 128


def test_cli_limits(tmp_path):
    result = run_cli("compile", INPUTS / "spill_both.spv", "--cache-dir",
                     "none", "--timeout-ms", "1", "-o", tmp_path / "x.zebin")
    assert result.returncode == 1, result.stderr
    assert "exceeded the 1 ms time limit" in result.stderr
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                     "--memory-limit-mb", str(2**44), "-o",
                     tmp_path / "y.zebin")
    assert result.returncode == 2, result.stderr
    assert "memory_limit_mb must be between 0 and" in result.stderr
