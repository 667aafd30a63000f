"""Shared paths and helpers for the xpu_codegen tests.

Run with PYTHONPATH=<build>/python_packages (the lit test test/Python does).
The compiles are real: IGC through libocloc, in the worker processes.
"""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
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


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server(directory, port, *args, ready_port=None):
    """A private redis-server on `port` (saving nothing, in `directory`)
    with `args`, killed on leaving and with this process. Waits until
    `ready_port` (default: `port`) listens; fails the test when
    redis-server is not installed (tools/xpu-dev installs it)."""
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is not installed (tools/xpu-dev installs "
                    "it)")
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", str(directory), *args],
        stdout=subprocess.DEVNULL, env=env,
        # Killed with this process, even if it crashes.
        preexec_fn=lambda: __import__("ctypes").CDLL(None).prctl(1, 9))
    try:
        # Up to a minute for the server to listen (a loaded machine).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(
                    ("127.0.0.1", ready_port or port), 1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield server
    finally:
        server.kill()
        server.wait()


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
