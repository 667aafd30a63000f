#!/usr/bin/env python3
"""Worker start faults per position (issue 26 item 4), for sweep.py.

Each run compiles four independent modules with xpu-opt (link=false) and
jobs 1, 2 or 4, with the real compile worker behind
test/Inputs/Worker/start-fault.sh, which SIGKILLs ("die") or SIGSTOPs
("stop") start number k before its hello, k drawn from the starts the run
makes, or kills every start ("always-die"). Every start also forks a
sleeping child, as a compiler library that forks would (item 9). Per module:

  ok      built, although another start failed
  clean   an always-die run: the module failed with the start error
  wrong   failed only because of someone else's start failure (or any other
          error), or a forked child outlived the host (the whole run)
  crashed / hung  xpu-opt died of a signal / did not finish in 120 s

Usage: worker_starts.py BUILD_DIR [RUNS] [--seed S] [--no-children]
(--no-children: no forked children, to see the start faults alone.)
"""

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import REPO, crashed, env_for, new_counts  # noqa: E402

LABEL = "worker start faults per position (xpu-opt)"

WRAPPER = REPO / "test" / "Inputs" / "Worker" / "start-fault.sh"
BATCH = (REPO / "test" / "Transforms" / "NativeCodegen" / "WorkerStarts" /
         "Inputs" / "batch4.mlir")
MODULES = 4
FORK_CHILDREN = True


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def leftover_children(pid_file):
    """Children that outlive the host by 10 s (killed after counting)."""
    try:
        pids = [int(p) for p in pid_file.read_text().split()]
    except OSError:
        return 0
    give_up = time.monotonic() + 10
    while any(map(running, pids)) and time.monotonic() < give_up:
        time.sleep(0.05)
    left = [pid for pid in pids if running(pid)]
    for pid in left:
        os.kill(pid, 9)
    return len(left)


def one_run(build, fault, at, jobs, folder):
    """Runs the batch; returns (modules' entries or None, process or None,
    children left over)."""
    folder.mkdir()
    (folder / "starts").mkdir()
    env = env_for(build)
    env.update({
        "XPU_CODEGEN_WORKER": str(WRAPPER),
        "XPU_START_WORKER": str(build / "bin" / "xpu-compile-worker"),
        "XPU_START_FAULT": fault,
        "XPU_START_FAULT_AT": str(at),
        "XPU_START_COUNT_DIR": str(folder / "starts"),
    })
    if FORK_CHILDREN:
        env["XPU_START_CHILD_PIDS"] = str(folder / "children")
    if jobs == 1:
        # No other worker can take the jobs: keep the stalled start's wait
        # short (with more workers the default 60 s limit is never waited).
        env["XPU_CODEGEN_WORKER_STARTUP_MS"] = "5000"
    report = folder / "report.json"
    try:
        proc = subprocess.run(
            [str(build / "bin" / "xpu-opt"), str(BATCH),
             "--xpu-codegen-pipeline=arch=pvc cache-dir=none link=false "
             f"jobs={jobs} timeout-ms=20000 report={report}",
             "-o", os.devnull], capture_output=True, text=True, timeout=120,
            env=env)
    except subprocess.TimeoutExpired:
        return None, None, leftover_children(folder / "children")
    entries = (json.loads(report.read_text())["modules"]
               if report.exists() else [])
    return entries, proc, leftover_children(folder / "children")


def sweep(build: Path, count: int, rng: random.Random, work: Path) -> dict:
    counts = new_counts()
    for run in range(count):
        fault = rng.choice(("die", "die", "stop", "stop", "always-die"))
        jobs = rng.choice((1, 2, 4))
        # A run makes `jobs` starts at most, plus the retry of a failed one.
        at = rng.randint(1, jobs + 1)
        entries, proc, leaked = one_run(build, fault, at, jobs,
                                        work / f"run{run}")
        counts["tried"] += MODULES
        if proc is None:
            counts["hung"] += MODULES
            print("HUNG", fault, at, jobs, file=sys.stderr)
            continue
        if crashed(proc):
            counts["crashed"] += MODULES
            print("CRASH", fault, at, jobs, proc.stderr[-600:],
                  file=sys.stderr)
            continue
        if leaked:
            counts["wrong"] += MODULES
            print("LEAKED", leaked, "children", fault, at, jobs,
                  file=sys.stderr)
            continue
        by_name = {e["module"]: e for e in entries}
        for i in range(MODULES):
            entry = by_name.get(f"m_{4 + 2 * i}")
            error = entry.get("error", "") if entry else "no report entry"
            if fault == "always-die":
                clean = "failed to start" in error
                counts["clean" if clean else "wrong"] += 1
            elif not error and entry.get("attempts"):
                counts["ok"] += 1
            else:
                counts["wrong"] += 1
                print("WRONG", fault, at, jobs, error[:300], file=sys.stderr)
    return counts


def add_arguments(parser):
    """--no-children: start faults alone, without forked children."""
    parser.add_argument("--no-children", action="store_true")

    def apply(args):
        global FORK_CHILDREN
        FORK_CHILDREN = not args.no_children
    return apply


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 20, add_arguments)
