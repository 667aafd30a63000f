"""`pip install .` and `pip wheel .` (pyproject.toml, setup.py): the
package, its two extensions and the programs they start install into a
fresh virtual environment, offline, and work from any directory.

The build directory under test is reused ($XPU_CODEGEN_BUILD_DIR), so pip
only packages what this build made."""

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import xpu_codegen
from conftest import INPUTS, REPO, EXAMPLES

BUILD = Path(xpu_codegen.__file__).resolve().parents[2]
DEBIAN_PYTHON = "/usr/bin/python3"


def run(*args, cwd, env=None):
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture
def venv(tmp_path):
    """A fresh virtual environment of Debian's Python (with its packages:
    pip, setuptools and wheel come from Debian, nothing from an index)."""
    if not Path(DEBIAN_PYTHON).exists():
        pytest.fail("Debian's /usr/bin/python3 is missing")
    run(DEBIAN_PYTHON, "-m", "venv", "--system-site-packages",
        tmp_path / "v", cwd=tmp_path)
    return tmp_path / "v" / "bin"


#: tools/ci-sanitize runs the suite on an AddressSanitizer build: its
#: compiler worker cannot start under the worker's address-space limit, so
#: that run keeps the uninstrumented worker it names ($XPU_CODEGEN_WORKER),
#: as the rest of the sanitized suite does.
SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")


def pip_env():
    dropped = ("PYTHONPATH", "XPU_CODEGEN_SPIRV_EMITTER") + (
        () if SANITIZED else ("XPU_CODEGEN_WORKER",))
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["XPU_CODEGEN_BUILD_DIR"] = str(BUILD)
    env["XPU_CODEGEN_CACHE_DIR"] = "none"
    return env


def test_pip_install_works_from_another_directory(venv, tmp_path):
    env = pip_env()
    run(venv / "pip", "install", "--no-build-isolation", "--no-index",
        REPO, cwd=tmp_path, env=env)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run(venv / "python", "-c",
                "import xpu_codegen, xpu_codegen._xpu_codegen as n; "
                "print(xpu_codegen.__file__); print(n.find_worker())",
                cwd=elsewhere, env=env).stdout.split()
    site = str(tmp_path / "v" / "lib")
    assert where[0].startswith(site), where
    if not SANITIZED:
        assert where[1].startswith(site), where
    run(venv / "python", "-m", "xpu_codegen", "compile",
        INPUTS / "spill_small_only.spv", "--arch", "pvc", "-o", "k.zebin",
        cwd=elsewhere, env=env)
    assert (elsewhere / "k.zebin").read_bytes()[:4] == b"\x7fELF"
    # MLIR goes through the emitter program installed with the package.
    out = run(venv / "xpu-codegen", "compile", EXAMPLES / "readme.mlir",
              "--arch", "pvc", "-o", "readme", cwd=elsewhere, env=env)
    assert "kept small" in out.stdout
    hook = run(venv / "python", "-c", "import xpu_codegen.triton as t; "
               "print(callable(t.install))", cwd=elsewhere, env=env)
    assert hook.stdout.strip() == "True"


def test_pip_wheel_is_one_platform_wheel(venv, tmp_path):
    env = pip_env()
    run(venv / "pip", "wheel", "--no-build-isolation", "--no-index",
        "--no-deps", "-w", tmp_path / "wheels", REPO, cwd=tmp_path, env=env)
    [wheel] = (tmp_path / "wheels").glob("*.whl")
    assert re.fullmatch(r"xpu_codegen-(\S+)-cp3\d+-cp3\d+-linux_x86_64\.whl",
                        wheel.name), wheel.name
    assert wheel.name.split("-")[1] == xpu_codegen.__version__
    names = zipfile.ZipFile(wheel).namelist()
    for expected in ("xpu_codegen/__init__.py", "xpu_codegen/triton.py",
                     "xpu_codegen/xpu-compile-worker",
                     "xpu_codegen/xpu-spirv-emitter"):
        assert expected in names
    assert sum(n.endswith(".so") for n in names) == 2
    # The wheel alone installs and runs (no source tree, no build dir).
    other = tmp_path / "other"
    run(DEBIAN_PYTHON, "-m", "venv", "--system-site-packages", other,
        cwd=tmp_path)
    run(other / "bin" / "pip", "install", "--no-index", wheel, cwd=tmp_path,
        env=env)
    run(other / "bin" / "python", "-m", "xpu_codegen", "compile",
        INPUTS / "spill_small_only.spv", "--arch", "pvc", "-o",
        tmp_path / "w.zebin", cwd=tmp_path, env=env)


def test_pyproject_version_is_the_projects():
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^version = "([\d.]+)"', pyproject, re.M)[1] == \
        xpu_codegen.__version__
