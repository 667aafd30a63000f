#!/usr/bin/env python3
"""Special files (issue 26 item 7): read_zebin, `inspect` and `compile` on
what is not a small regular file.

Each case runs in a child under a time limit and a 3 GB address-space
limit: /dev/zero was read until the OOM killer (23 GB), a FIFO without a
writer blocked `inspect` forever. Counts (sweep.py's kinds):

  crashed  died of a signal, a traceback (MemoryError)
  hung     not done within the time limit
  clean    refused with an error (exit status 1), no traceback
  ok       accepted, where accepting is right (an unreadable file read as
           root)
  wrong    accepted a special or oversized file (it was read)

Usage: special_files.py BUILD_DIR [--count N] [--seed S]
"""

import itertools
import os
import random
import socket
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import INPUTS, crashed, env_for, new_counts  # noqa: E402

LABEL = "special files (read_zebin, inspect, compile)"

AS_LIMIT = 3_000_000_000
TIME_LIMIT = 60

KINDS = ("/dev/zero", "/dev/full", "/dev/null", "/dev/urandom", "fifo",
         "fifo-with-writer", "socket", "directory", "symlink-loop",
         "link-to-dev-zero", "dangling-link", "sparse-3g", "unreadable")
OPERATIONS = ("read_zebin", "inspect", "compile .spv", "compile .mlir")

READ_ZEBIN = """
import sys, xpu_codegen
try:
    xpu_codegen.read_zebin(sys.argv[1])
except (OSError, ValueError) as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(1)
"""


def _limit_address_space():
    import resource
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, hard))


class _Case:
    """One special file for one operation; cleans up what it started."""

    def __init__(self, kind, operation, folder):
        self.kind = kind
        suffix = {"read_zebin": ".zebin", "inspect": ".zebin",
                  "compile .spv": ".spv", "compile .mlir": ".mlir"}
        self.path = (Path(kind) if kind.startswith("/dev/")
                     else folder / (kind + suffix[operation]))
        self.writer = None
        self.listener = None
        # Whether reading it is right: a readable regular file in bounds.
        self.acceptable = kind == "unreadable"

    def __enter__(self):
        path, kind = self.path, self.kind
        if kind.startswith("fifo"):
            os.mkfifo(path)
            if kind == "fifo-with-writer":
                self.writer = subprocess.Popen(
                    ["sh", "-c", f"exec cat /dev/zero > '{path}'"],
                    stderr=subprocess.DEVNULL)
        elif kind == "socket":
            self.listener = socket.socket(socket.AF_UNIX)
            self.listener.bind(str(path))
            self.listener.listen()
        elif kind == "directory":
            path.mkdir()
        elif kind == "symlink-loop":
            os.symlink(path, path)
        elif kind == "link-to-dev-zero":
            os.symlink("/dev/zero", path)
        elif kind == "dangling-link":
            os.symlink(path.parent / "nowhere", path)
        elif kind == "sparse-3g":
            with open(path, "wb") as f:
                f.truncate(3 << 30)
        elif kind == "unreadable":
            # Good contents: root reads them (ok), anyone else may not.
            if path.suffix == ".mlir":
                path.write_text("module {}\n")
            else:
                source = {".zebin": "nospill.pvc.small.zebin",
                          ".spv": "nospill.spv"}[path.suffix]
                path.write_bytes((INPUTS / source).read_bytes())
            os.chmod(path, 0)
        return self

    def __exit__(self, *exc):
        if self.writer is not None:
            self.writer.kill()
            self.writer.wait()
        if self.listener is not None:
            self.listener.close()
        return False


def _command(operation, path, out):
    if operation == "read_zebin":
        return [sys.executable, "-c", READ_ZEBIN, str(path)]
    if operation == "inspect":
        return [sys.executable, "-m", "xpu_codegen", "inspect", str(path)]
    return [sys.executable, "-m", "xpu_codegen", "compile", str(path), "-o",
            str(out), "--cache-dir", "none", "-q"]


def _classify(proc, case):
    if crashed(proc) or "MemoryError" in proc.stderr:
        return "crashed"
    if proc.returncode == 0:
        return "ok" if case.acceptable else "wrong"
    return "clean"


def run_case(build, kind, operation, folder):
    """The kind of outcome of one operation on one special file."""
    folder.mkdir(parents=True)
    with _Case(kind, operation, folder) as case:
        try:
            proc = subprocess.run(
                _command(operation, case.path, folder / "out"),
                capture_output=True, text=True, timeout=TIME_LIMIT,
                env=env_for(build), preexec_fn=_limit_address_space)
        except subprocess.TimeoutExpired:
            return "hung", ""
        outcome = _classify(proc, case)
        return outcome, proc.stderr.strip()[-300:]


def sweep(build: Path, count: int, rng: random.Random, work: Path) -> dict:
    """``count`` cases: every (special file, operation) pair in a seeded
    order, repeated as needed."""
    counts = new_counts()
    cases = list(itertools.product(KINDS, OPERATIONS))
    rng.shuffle(cases)
    for index in range(count):
        kind, operation = cases[index % len(cases)]
        outcome, stderr = run_case(build, kind, operation,
                                   work / f"case{index}")
        counts["tried"] += 1
        counts[outcome] += 1
        if outcome in ("crashed", "hung", "wrong"):
            print(f"{outcome.upper()}: {operation} on {kind}: {stderr}",
                  file=sys.stderr)
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], len(KINDS) * len(OPERATIONS))
