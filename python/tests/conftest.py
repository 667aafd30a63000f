"""Shared paths and helpers for the xpu_codegen tests.

Run with PYTHONPATH=<build>/python_packages (the lit test test/Python does).
The compiles are real: IGC through libocloc, in the worker processes.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import xpu_codegen

REPO = Path(__file__).resolve().parents[2]
INPUTS = REPO / "test" / "Inputs" / "Native"
EXAMPLES = REPO / "examples"
# <build>/python_packages/xpu_codegen -> <build>/bin
BUILD_BIN = Path(xpu_codegen.__file__).resolve().parents[2] / "bin"

ELF_MAGIC = b"\x7fELF"


def subprocess_env():
    """The environment for child interpreters: this package first on the
    path, absolute, so a child in another directory imports the same one."""
    env = dict(os.environ)
    packages = str(Path(xpu_codegen.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (packages, env.get("PYTHONPATH")) if p)
    return env


def spirv(name):
    """Bytes of one of the real test kernels (test/Inputs/Native/README.md)."""
    return (INPUTS / f"{name}.spv").read_bytes()


def run_cli(*args, cwd=None):
    """Runs `python3 -m xpu_codegen ARGS`; returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-m", "xpu_codegen", *map(str, args)],
        cwd=cwd, capture_output=True, text=True, timeout=600,
        env=subprocess_env())


@pytest.fixture
def no_cache():
    """Compile options that bypass the persistent cache."""
    return {"cache_dir": "none"}


def _required_compilers():
    return set(filter(None, os.environ.get("XPU_REQUIRE_COMPILERS",
                                           "").split(",")))


@pytest.fixture
def igc2_root():
    """The IGC 2.x root tools/install-compiler made ($XPU_IGC2_ROOT, else
    <source>/.compilers/igc-2.40). Skipped without it, unless the run
    requires it (tools/xpu-dev test): then a missing compiler fails."""
    root = Path(os.environ.get("XPU_IGC2_ROOT") or
                REPO / ".compilers" / "igc-2.40")
    if not (root / "usr" / "lib" / "x86_64-linux-gnu" / "libocloc.so").exists():
        message = f"IGC 2.x is not installed in {root} (tools/install-compiler)"
        if "igc2" in _required_compilers():
            pytest.fail(message)
        pytest.skip(message)
    return root
