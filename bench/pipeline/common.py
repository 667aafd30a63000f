"""What the parts of the whole-pipeline benchmark share: the device, the
upstream tool, the targets, its error and a timed process."""
import ctypes
import os
import resource
import subprocess
import time

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
ARCH = "pvc"
IGC_KERNELS = {"Intel_Symbol_Table_Void_Program"}
TARGETS = {"cold": 5.0, "warm": 100.0, "renamed": 20.0,
           "compiles_per_kernel": 1.1}


class BenchError(Exception):
    pass


def _become_subreaper():
    """Descendants that outlive their parent (xpu-opt does not wait for its
    workers and emitters to exit) are reparented to this process, so that
    their CPU time is counted when reaped. Linux only; elsewhere their time
    is missing from cpu_s."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


PR_SET_CHILD_SUBREAPER = 36
SUBREAPER = _become_subreaper()


def _reap_orphans(deadline_s=30.0):
    """Waits for the orphans reparented here (they exit when their pipes
    close), at most deadline_s."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.005)


def timed(cmd, **kw):
    """Runs cmd; its wall seconds, and as r.cpu_s the user + system seconds
    of the process and all its descendants (workers, emitters)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, **kw)
    wall = time.perf_counter() - start
    if SUBREAPER:
        _reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    r.cpu_s = (after.ru_utime - before.ru_utime
               + after.ru_stime - before.ru_stime)
    return r, wall

