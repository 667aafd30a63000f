"""SPIR-V work never loads libMLIR; compiling MLIR text does.

`import xpu_codegen` loads only the extension that links no MLIR
(_xpu_codegen); the MLIR half (_xpu_codegen_mlir) is imported the first
time MLIR text is compiled. Checked in a fresh interpreter, from the
libraries mapped into it (/proc/self/maps).
"""

import json
import subprocess
import sys

from conftest import EXAMPLES, INPUTS, subprocess_env

CHILD = r"""
import json, sys

def mlir_mapped():
    with open("/proc/self/maps") as maps:
        return any("libMLIR" in line for line in maps)

import xpu_codegen
from xpu_codegen import _cli
seen = {"import": mlir_mapped()}
spv, zebin, mlir = sys.argv[1:4]
[module] = xpu_codegen.compile(open(spv, "rb").read(), name="nospill",
                               arch="pvc", cache_dir="none")
module.write(zebin)
xpu_codegen.read_zebin(open(zebin, "rb").read())
xpu_codegen.device("pvc")
xpu_codegen.valid_archs()
seen["spirv"] = mlir_mapped()
status = _cli.main(["compile", spv, "--arch", "pvc", "--cache-dir", "none",
                    "-o", zebin, "-q"])
status |= _cli.main(["inspect", zebin])
seen["cli"] = mlir_mapped()
seen["mlir_module_imported"] = "xpu_codegen._xpu_codegen_mlir" in sys.modules
modules = xpu_codegen.compile(open(mlir).read(), arch="pvc",
                              cache_dir="none")
seen["mlir"] = mlir_mapped()
seen["status"] = status
seen["mlir_modules"] = len(modules)
print(json.dumps(seen))
"""


def test_spirv_work_does_not_load_mlir(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(INPUTS / "nospill.spv"),
         str(tmp_path / "k.zebin"), str(EXAMPLES / "accumulate_no_spill.mlir")],
        capture_output=True, text=True, timeout=600, env=subprocess_env())
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["status"] == 0
    # Importing, compiling SPIR-V, reading zebins, device facts, the CLI on
    # SPIR-V: no libMLIR, and the MLIR half is not imported.
    assert not seen["import"]
    assert not seen["spirv"]
    assert not seen["cli"]
    assert not seen["mlir_module_imported"]
    # MLIR text loads it, and compiles.
    assert seen["mlir"]
    assert seen["mlir_modules"] >= 1


ONE_POOL_CHILD = r"""
import json, os, sys
import xpu_codegen

def worker_children():
    # Compiler workers this interpreter started (both extensions' pools).
    count = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/comm") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and name.startswith("xpu-compile"):
            count += 1
    return count

spv, mlir = sys.argv[1:3]
results = xpu_codegen.compile_many(
    [open(mlir).read(), open(spv, "rb").read()], arch="pvc", cache_dir="none",
    jobs=1)
print(json.dumps({"errors": [str(r) for r in results if not isinstance(r, list)],
                  "workers": worker_children()}))
"""


def test_mixed_batch_uses_one_worker_pool(tmp_path):
    # MLIR and SPIR-V in one batch, one job: one compiler worker, not one per
    # extension module.
    result = subprocess.run(
        [sys.executable, "-c", ONE_POOL_CHILD, str(INPUTS / "nospill.spv"),
         str(EXAMPLES / "accumulate_no_spill.mlir")],
        capture_output=True, text=True, timeout=600,
        env={**subprocess_env(), "XPU_CODEGEN_WORKER_IDLE_MS": "600000"})
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["errors"] == []
    assert seen["workers"] == 1
