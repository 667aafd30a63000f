"""What the parts of the whole-pipeline benchmark share: the device, the
upstream tool, the targets, its error and a timed process."""
import subprocess
import time

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
ARCH = "pvc"
IGC_KERNELS = {"Intel_Symbol_Table_Void_Program"}
TARGETS = {"cold": 5.0, "warm": 100.0, "renamed": 20.0,
           "compiles_per_kernel": 1.1}


class BenchError(Exception):
    pass


def timed(cmd, **kw):
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, **kw)
    return r, time.perf_counter() - start

